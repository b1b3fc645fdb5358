/**
 * Every declared setting is read and written through two routes; the registry supplies the
 * schema, the rules and the service kinds it applies to, so a new folder under schemas/settings
 * needs no code here.
 *
 *   GET  /api/settings/{id}/?bucket_name=…   → data: the value (stored, fixed, or the schema defaults),
 *                                              summary (the label, filled), summary_intent, vars
 *                                              (server values the texts name), fixed
 *   POST /api/settings/{id}/  { bucket_name, …payload } → data: the stored value, summary, summary_intent
 *
 * A write is refused for key customers (21210), for a kind whose value is fixed (21207), when the
 * schema refuses it (20001 with the field errors), when a rule between settings refuses it (its code) and
 * while a live service's configuration is suspended (23802, checked in the statement that writes).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DB } from '../db';
import type { ServerConfig } from '../config';
import type { SettingRegistry } from '../../../schemas/registry';
import type { RuleContext } from '../../../schemas/types';
import type { ServiceKind } from '../../shared/services';
import { ALLOWED_ORIGINS_VAR, DEMO_ORIGIN_VAR } from '../../shared/origins';
import type { SessionUser } from '../accounts/session';
import { ApiError, VALIDATION_ERROR } from '../http/errors';
import { ok, okResponse } from '../http/envelope';
import { bucketForUser, type BucketRow } from '../buckets/repo';
import { readSetting, saveSetting } from './repo';
import { resumeIfLifted } from '../domains/costControl';
import { settingReadAnswer, settingSerializers, settingWriteAnswer } from './answer';

const bucketNameProp = { type: 'string', minLength: 1, errorMessage: { type: '请填写服务名称', minLength: '请填写服务名称' } };

/** The configuration lock of key customers (spec 000 §5, spec 002 §6). */
/**
 * The per-setting paths spec 002 §7 documents (the others are "not shown"): the same read and write,
 * with the same payload, as /api/settings/{id}/.
 */
export const SETTING_ALIASES = [{ path: '/api/https/tls', id: 'tls_min_version', title: '最低 TLS 版本' }] as const;

export function assertNotLocked(user: SessionUser): void {
  if (user.custom_prohibit_configuration) throw new ApiError(21210, 403);
}

/** A setting behind an account business flag (setting.json accountFlag) is refused without it: 21216. */
function assertFlag(user: SessionUser, flag: 'smart_compression' | undefined): void {
  if (flag && !user[flag]) throw new ApiError(21216, 403);
}

export function settingRoutes(app: FastifyInstance, db: DB, registry: SettingRegistry, config: ServerConfig): void {
  // the operator's demo origin may be an origin of the demo's services although it is local (src/shared/origins.ts)
  const serverVars: Record<string, string> = { http3_cname: config.http3Cname, [DEMO_ORIGIN_VAR]: config.edge.demoOrigin, [ALLOWED_ORIGINS_VAR]: config.edge.allowedOrigins ?? '' };

  function declarationOf(id: string, kind: string) {
    const d = registry.get(id);
    if (!d) throw new ApiError(21202, 404);
    if (!d.meta.kinds.includes(kind as ServiceKind)) throw new ApiError(21201, 400);
    return d;
  }

  async function valueOf(bucket: BucketRow, id: string): Promise<unknown> {
    const fixed = registry.fixedFor(id, bucket.kind);
    return fixed !== undefined ? fixed : readSetting(db, registry, bucket.id, id);
  }

  function contextFor(user: SessionUser, bucket: BucketRow, id: string): RuleContext {
    return {
      vars: varsOf(id),
      kind: bucket.kind as ServiceKind,
      bucketName: bucket.name,
      read: (other) => valueOf(bucket, other),
      bucket: async (name) => {
        const b = await db.selectFrom('buckets').select(['kind', 'owner_id']).where('name', '=', name).executeTakeFirst();
        return b && b.owner_id === user.account_id ? { kind: b.kind as ServiceKind } : null;
      },
    };
  }

  /** The answer's `summary` (the label, its placeholders filled) and `summary_intent` (its colour). */
  async function summaryOf(bucket: BucketRow, id: string, value: unknown): Promise<{ summary: string | null; summary_intent: string | null }> {
    const related: Record<string, unknown> = {};
    for (const other of registry.get(id)?.meta.summaryWith ?? []) related[other] = await valueOf(bucket, other);
    const rule = registry.summary(id, value, related, bucket.kind);
    return { summary: rule?.label ?? null, summary_intent: rule ? (rule.intent ?? 'none') : null };
  }

  function varsOf(id: string): Record<string, string> | undefined {
    const names = registry.get(id)?.meta.serverVars;
    return names?.length ? Object.fromEntries(names.map((n) => [n, serverVars[n] ?? ''])) : undefined;
  }

  // each setting's answer is serialised with its declaration's schema (./answer.ts); the route's own
  // response schema is the generic one the OpenAPI document shows for /api/settings/{id}/
  const serializers = settingSerializers();
  const readSchema = {
    response: { 200: settingReadAnswer({}) },
    querystring: { type: 'object', required: ['bucket_name'], properties: { bucket_name: bucketNameProp }, errorMessage: { required: { bucket_name: '请填写服务名称' } } },
  };
  const writeSchema = {
    response: { 200: settingWriteAnswer({}) },
    body: { type: 'object', required: ['bucket_name'], properties: { bucket_name: bucketNameProp }, errorMessage: { type: '请求内容须为 JSON 对象', required: { bucket_name: '请填写服务名称' } } },
  };

  /** The bucket the access hook resolved (src/server/http/access.ts), or looked up now. */
  async function bucketOf(req: FastifyRequest, user: SessionUser, bucketName: string): Promise<BucketRow> {
    return req.bucket && req.bucket.name === bucketName ? req.bucket : bucketForUser(db, user, bucketName);
  }

  async function read(req: FastifyRequest, user: SessionUser, id: string, bucketName: string, reply: FastifyReply) {
    if (!registry.get(id)) throw new ApiError(21202, 404);
    const bucket = await bucketOf(req, user, bucketName);
    declarationOf(id, bucket.kind);
    assertFlag(user, registry.get(id)!.meta.accountFlag);
    const value = await valueOf(bucket, id);
    const vars = varsOf(id);
    reply.serializer(serializers.read(registry.get(id)!));
    return ok(value, {
      ...(await summaryOf(bucket, id, value)),
      fixed: registry.fixedFor(id, bucket.kind) !== undefined,
      ...(vars ? { vars } : {}),
    });
  }

  async function write(req: FastifyRequest, user: SessionUser, ip: string, id: string, body: { bucket_name: string } & Record<string, unknown>, reply: FastifyReply) {
    if (!registry.get(id)) throw new ApiError(21202, 404);
    const bucket = await bucketOf(req, user, body.bucket_name);
    declarationOf(id, bucket.kind);
    assertFlag(user, registry.get(id)!.meta.accountFlag);
    assertNotLocked(user);
    if (registry.fixedFor(id, bucket.kind) !== undefined) throw new ApiError(21207, 400);
    const { bucket_name: _omit, ...written } = body;
    // fields documented under another name (setting.json "fieldAliases", e.g. HTTP/3 http3_enable)
    const payload = registry.unalias(id, written);
    const result = await registry.validate(id, payload, contextFor(user, bucket, id));
    if (!result.ok) throw new ApiError(result.errors.find((e) => e.code)?.code ?? VALIDATION_ERROR, 400, result.errors);
    // the value and its log row in one statement; a suspended live configuration stores nothing (23802)
    const saved = await saveSetting(db, bucket.id, id, result.value, user, ip, { action: 'setting.update', target: `${bucket.name}/${id}`, detail: { value: result.value } });
    if (!saved) throw new ApiError(23802, 403);
    // a bandwidth cap turned off or raised resumes its paused service now, not at the job's next run
    if (id === 'cost_control') await resumeIfLifted(db, bucket.id);
    const summary = await summaryOf(bucket, id, result.value);
    reply.serializer(serializers.write(registry.get(id)!));
    return ok(result.value, summary);
  }

  app.get<{ Params: { id: string }; Querystring: { bucket_name: string } }>(
    '/api/settings/:id/',
    { config: { access: 'user', bucket: 'query' }, schema: readSchema },
    async (req, reply) => read(req, req.user!, req.params.id, req.query.bucket_name, reply),
  );

  app.post<{ Params: { id: string }; Body: { bucket_name: string } & Record<string, unknown> }>(
    '/api/settings/:id/',
    { config: { access: 'user', bucket: 'body' }, schema: writeSchema },
    async (req, reply) => write(req, req.user!, req.ip, req.params.id, req.body, reply),
  );

  // the documented per-setting paths of spec 002 §7 answer as aliases of the setting routes
  for (const alias of SETTING_ALIASES) {
    app.get<{ Querystring: { bucket_name: string } }>(
      alias.path,
      { config: { access: 'user', bucket: 'query', openapi: { summary: `${alias.title}（同 GET /api/settings/${alias.id}/）` } }, schema: readSchema },
      async (req, reply) => read(req, req.user!, alias.id, req.query.bucket_name, reply),
    );
    app.post<{ Body: { bucket_name: string } & Record<string, unknown> }>(
      alias.path,
      { config: { access: 'user', bucket: 'body', openapi: { summary: `修改${alias.title}（同 POST /api/settings/${alias.id}/）` } }, schema: writeSchema },
      async (req, reply) => write(req, req.user!, req.ip, alias.id, req.body, reply),
    );
  }

  /** The declarations themselves, for the console's panels and the schema gallery. */
  const listAnswer = okResponse({
    type: 'array',
    items: {
      type: 'object',
      required: ['id', 'title', 'kinds', 'tab'],
      additionalProperties: false,
      properties: { id: { type: 'string' }, title: { type: 'string' }, kinds: { type: 'array', items: { type: 'string' } }, tab: { type: 'string' } },
    },
  });
  app.get('/api/settings/', { config: { access: 'user' }, schema: { response: listAnswer } }, async () =>
    ok(registry.list().map((d) => ({ id: d.meta.id, title: d.meta.title, kinds: d.meta.kinds, tab: d.meta.tab }))),
  );
}
