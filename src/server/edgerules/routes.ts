/**
 * Edge rules of a service (spec 002 §2 "Edge rules", §3, §4, §7, §8; paths ours, docs/api.md):
 *
 *   GET    /api/buckets/rewrite/?bucket_name&page&perPage   list: data {pager {total, page, pages}, rewrite}
 *   PUT    /api/buckets/rewrite/            create          {bucket_name, …rule}
 *   POST   /api/buckets/rewrite/            edit            {rewrite_id, …rule}
 *   DELETE /api/buckets/rewrite/?rewrite_id                 delete
 *   POST   /api/buckets/rewrite/priority/   {rewrite_id, priority}: the rule takes that place, others shift
 *   POST   /api/buckets/rewrite/status/     {rewrite_id, status, ip?}
 *   POST   /api/buckets/rewrite/check/      {rule, pattern?}: result true, or false with the reason and place
 *   POST   /api/buckets/rewrite/test/       {bucket_name? rules? request}: what the edge would do
 *   GET    /api/buckets/rewrite/countries/  the supported country codes and names
 *   GET    /api/ip                          the caller's address (a new rule starts in DEBUG for it)
 *
 * Every route needs a session; a rule or service of another account is answered like one that does
 * not exist (23001, 21905). Writes are refused for key customers (21210), validated with the form
 * declaration schemas/forms/edge_rule/ (schema, then rules.ts) and logged in operation_logs.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { DB } from '../db';
import type { Database } from '../db/schema';
import { writeLog } from '../accounts/oplog';
import type { SessionUser } from '../accounts/session';
import { ApiError, VALIDATION_ERROR } from '../http/errors';
import { ok } from '../http/envelope';
import { bucketForUser, type BucketRow } from '../buckets/repo';
import { assertNotLocked } from '../settings/routes';
import { KINDS, type ServiceKind } from '../../shared/services';
import { EDGE_RULE_TEXTS, errorText, type FieldError } from '../../shared/errors';
import { checkProgram, COUNTRIES, EDGE_LIMITS, evaluate, formatSyntaxError } from '../../shared/edgerules';
import type { EdgeRuleInput, RuleStatus, RunnableRule, SampleRequest } from '../../shared/edgerules/types';
import { edgeRuleSchema, requestSchema } from '../../../schemas/forms/edge_rule/validate';
import { normalizeRule, priorityMessage, ruleErrors } from '../../../schemas/forms/edge_rule/rules';
import { withinBudget } from './budget';
import { allRules, countRules, deleteRule, insertRule, listRules, moveRule, ruleById, setStatus, toApi, updateRule } from './repo';

type JsonObject = Record<string, any>;

/** The form schema with extra top-level fields (bucket_name, rewrite_id), as a route body. */
function ruleBody(extra: JsonObject, required: string[], messages: Record<string, string>): JsonObject {
  const s = edgeRuleSchema as JsonObject;
  return {
    ...s,
    required: [...s.required, ...required],
    properties: { ...s.properties, ...extra },
    errorMessage: { ...s.errorMessage, type: '请求内容须为 JSON 对象', required: { ...s.errorMessage.required, ...messages } },
  };
}

const bucketName = { type: 'string', minLength: 1, maxLength: 100, errorMessage: { type: '请填写服务名称', minLength: '请填写服务名称', maxLength: '服务名称过长' } };
const rewriteId = { type: 'integer', minimum: 1, errorMessage: { type: '请指定规则', minimum: '请指定规则' } };
const ipSchema = (requestSchema as JsonObject).properties.ip;

const createBody = ruleBody({ bucket_name: bucketName }, ['bucket_name'], { bucket_name: '请填写服务名称' });
const editBody = ruleBody({ rewrite_id: rewriteId }, ['rewrite_id'], { rewrite_id: '请指定规则' });
const testRuleSchema = ruleBody({ rewrite_id: rewriteId }, [], {});

interface ListQuery {
  bucket_name: string;
  page: number;
  perPage: number;
}

/** Edge rules exist for the kinds whose page has the edgeCalc tab (file, cdn, scdn). */
function assertEdgeKind(bucket: BucketRow): void {
  if (!KINDS[bucket.kind as ServiceKind]?.tabs.includes('edgeCalc')) throw new ApiError(21201, 400);
}

const notFound = () => new ApiError(23001, 404);

export function edgeRuleRoutes(app: FastifyInstance, db: DB): void {
  /** The rule's log row, in the transaction of the change. */
  const log = (trx: Transaction<Database>, req: FastifyRequest, action: string, bucket: string, id: number, detail: unknown) =>
    writeLog(trx, req, { action, target: `${bucket}/rewrite/${id}`, detail });

  /** The rule if the user reaches its service; 23001 otherwise (also for another account's rule). */
  async function ruleFor(user: SessionUser, id: number) {
    const r = await ruleById(db, id);
    if (!r || r.owner_id !== user.account_id) throw notFound();
    let bucket: BucketRow;
    try {
      bucket = await bucketForUser(db, user, r.bucket_name);
    } catch {
      throw notFound();
    }
    return { rule: r, bucket };
  }

  /** ruleErrors refusals: the first catalogue code among them, else 20001. */
  function refuse(errors: FieldError[]): never {
    throw new ApiError(errors.find((e) => e.code)?.code ?? VALIDATION_ERROR, 400, errors);
  }

  app.get<{ Querystring: ListQuery }>(
    '/api/buckets/rewrite/',
    {
      config: { access: 'user', bucket: 'query', openapi: { summary: '边缘规则列表（按优先级分页）', errors: { 404: '21905 服务不存在或无权访问' } } },
      schema: {
        querystring: {
          type: 'object',
          required: ['bucket_name'],
          properties: {
            bucket_name: bucketName,
            page: { type: 'integer', minimum: 1, default: 1, errorMessage: { type: '页码须为正整数', minimum: '页码须为正整数' } },
            perPage: { type: 'integer', minimum: 1, maximum: 100, default: EDGE_LIMITS.pageSize, errorMessage: { type: '每页数量为 1 - 100', minimum: '每页数量为 1 - 100', maximum: '每页数量为 1 - 100' } },
          },
          errorMessage: { required: { bucket_name: '请填写服务名称' } },
        },
      },
    },
    async (req) => {
      const bucket = await bucketForUser(db, req.user!, req.query.bucket_name);
      assertEdgeKind(bucket);
      const { page, perPage } = req.query;
      const { rows, total } = await listRules(db, bucket.id, page, perPage);
      return ok({ pager: { total, page, pages: Math.ceil(total / perPage) }, rewrite: rows.map((r) => toApi(r, bucket.name)) });
    },
  );

  app.put<{ Body: EdgeRuleInput & { bucket_name: string } }>(
    '/api/buckets/rewrite/',
    {
      config: { access: 'user', bucket: 'body', openapi: { summary: '新增边缘规则', description: '新规则插入到 priority 的位置，其后的规则依次后移；状态为 DEBUG 时须带 ip（控制台默认填入 GET /api/ip 的地址），ON 和 OFF 保存时去掉 ip。', errors: { 403: '21210 重要客户的配置已锁定', 404: '21905 服务不存在或无权访问' } } },
      schema: { body: createBody },
    },
    async (req) => {
      const user = req.user!;
      const { bucket_name: name, ...value } = req.body;
      const bucket = await bucketForUser(db, user, name);
      assertEdgeKind(bucket);
      assertNotLocked(user);
      const count = await countRules(db, bucket.id);
      if (count >= EDGE_LIMITS.rulesPerService) throw new ApiError(23008, 400);
      const errors = ruleErrors(value, { count });
      if (errors.length) refuse(errors);
      const rule = normalizeRule(value);
      const id = await db.transaction().execute(async (trx) => {
        const created = await insertRule(trx, bucket.id, rule, user.id);
        await log(trx, req, 'edge_rule.create', bucket.name, created, { rule });
        return created;
      });
      const saved = await ruleById(db, id);
      return ok(toApi(saved!, bucket.name));
    },
  );

  app.post<{ Body: EdgeRuleInput & { rewrite_id: number } }>(
    '/api/buckets/rewrite/',
    {
      config: { access: 'user', openapi: { summary: '修改边缘规则', description: '优先级可为 1 到规则数加一；超过规则数时排到最后。', errors: { 403: '21210 重要客户的配置已锁定', 404: '23001 规则不存在或已被删除' } } },
      schema: { body: editBody },
    },
    async (req) => {
      const user = req.user!;
      const { rewrite_id: id, ...value } = req.body;
      const { bucket } = await ruleFor(user, id);
      assertNotLocked(user);
      const count = await countRules(db, bucket.id);
      const errors = ruleErrors(value, { count });
      if (errors.length) refuse(errors);
      const rule = normalizeRule(value);
      await db.transaction().execute(async (trx) => {
        await updateRule(trx, bucket.id, id, rule, user.id);
        await log(trx, req, 'edge_rule.update', bucket.name, id, { rule });
      });
      return ok(toApi((await ruleById(db, id))!, bucket.name));
    },
  );

  app.delete<{ Querystring: { rewrite_id: number } }>(
    '/api/buckets/rewrite/',
    {
      config: { access: 'user', openapi: { summary: '删除边缘规则', description: '其后的规则优先级依次前移。', errors: { 403: '21210 重要客户的配置已锁定', 404: '23001 规则不存在或已被删除' } } },
      schema: { querystring: { type: 'object', required: ['rewrite_id'], properties: { rewrite_id: rewriteId }, errorMessage: { required: { rewrite_id: '请指定规则' } } } },
    },
    async (req) => {
      const user = req.user!;
      const { rule, bucket } = await ruleFor(user, req.query.rewrite_id);
      assertNotLocked(user);
      await db.transaction().execute(async (trx) => {
        await deleteRule(trx, bucket.id, rule.id);
        await log(trx, req, 'edge_rule.delete', bucket.name, rule.id, { rule: toApi(rule, bucket.name) });
      });
      return ok();
    },
  );

  app.post<{ Body: { rewrite_id: number; priority: number } }>(
    '/api/buckets/rewrite/priority/',
    {
      config: { access: 'user', openapi: { summary: '调整边缘规则的优先级', description: '被移动的规则取得目标优先级，其间的规则依次顺移，优先级保持 1 到 n 连续。', errors: { 400: '23004 优先级超出范围', 403: '21210 重要客户的配置已锁定', 404: '23001 规则不存在或已被删除' } } },
      schema: {
        body: {
          type: 'object',
          required: ['rewrite_id', 'priority'],
          additionalProperties: false,
          properties: { rewrite_id: rewriteId, priority: { type: 'integer', minimum: 1, errorMessage: { type: '请填写优先级', minimum: '优先级最小为 1' } } },
          errorMessage: { type: '请求内容须为 JSON 对象', required: { rewrite_id: '请指定规则', priority: '请填写优先级' }, additionalProperties: '包含不支持的配置项' },
        },
      },
    },
    async (req) => {
      const user = req.user!;
      const { rule, bucket } = await ruleFor(user, req.body.rewrite_id);
      assertNotLocked(user);
      const count = await countRules(db, bucket.id);
      if (req.body.priority > count) throw new ApiError(23004, 400, [{ path: '/priority', message: priorityMessage(count) }]);
      const to = await db.transaction().execute(async (trx) => {
        const moved = await moveRule(trx, bucket.id, rule.id, req.body.priority);
        await log(trx, req, 'edge_rule.priority', bucket.name, rule.id, { from: rule.priority, to: moved });
        return moved;
      });
      return ok({ rewrite_id: rule.id, priority: to });
    },
  );

  app.post<{ Body: { rewrite_id: number; status: RuleStatus; ip?: string } }>(
    '/api/buckets/rewrite/status/',
    {
      config: { access: 'user', openapi: { summary: '修改边缘规则的状态', description: 'DEBUG 时使用 ip，未给出时沿用规则原来的 IP，再没有则用调用者的地址；ON 和 OFF 去掉 ip。', errors: { 403: '21210 重要客户的配置已锁定', 404: '23001 规则不存在或已被删除' } } },
      schema: {
        body: {
          type: 'object',
          required: ['rewrite_id', 'status'],
          additionalProperties: false,
          properties: { rewrite_id: rewriteId, status: (edgeRuleSchema as JsonObject).properties.status, ip: ipSchema },
          errorMessage: { type: '请求内容须为 JSON 对象', required: { rewrite_id: '请指定规则', status: '请选择规则状态' }, additionalProperties: '包含不支持的配置项' },
        },
      },
    },
    async (req) => {
      const user = req.user!;
      const { rule, bucket } = await ruleFor(user, req.body.rewrite_id);
      assertNotLocked(user);
      const { status } = req.body;
      const ip = status === 'DEBUG' ? (req.body.ip || rule.ip || req.ip) : null;
      await db.transaction().execute(async (trx) => {
        await setStatus(trx, rule.id, status, ip, user.id);
        await log(trx, req, 'edge_rule.status', bucket.name, rule.id, { from: rule.status, to: status, ...(ip ? { ip } : {}) });
      });
      return ok({ rewrite_id: rule.id, status, ...(ip ? { ip } : {}) });
    },
  );

  app.post<{ Body: { rule: string; pattern?: string } }>(
    '/api/buckets/rewrite/check/',
    {
      config: {
        access: 'user',
        openapi: {
          summary: '校验编程模式的规则（元数据校验）',
          description: '通过时 result 为 true；未通过时 HTTP 200、result 为 false、error_code 23007，data 给出原因与位置（part 为 rule 或 pattern，line、column 从 1 开始，start、end 为字符偏移），errors 给出带位置的中文说明。',
        },
      },
      schema: {
        body: {
          type: 'object',
          required: ['rule'],
          additionalProperties: false,
          properties: {
            rule: { type: 'string', errorMessage: { type: '规则编辑器不能为空！' } },
            pattern: (edgeRuleSchema as JsonObject).properties.pattern,
          },
          errorMessage: { type: '请求内容须为 JSON 对象', required: { rule: '规则编辑器不能为空！' }, additionalProperties: '包含不支持的配置项' },
        },
      },
    },
    async (req, reply) => {
      const r = checkProgram(req.body.rule, req.body.pattern ?? '');
      if (r.ok) return ok(undefined, { message: EDGE_RULE_TEXTS.checkOk });
      const { reason, line, column, start, end } = r.error;
      const message = r.part === 'pattern' ? reason : formatSyntaxError(r.error);
      return reply.send({
        result: false,
        error_code: 23007,
        message: errorText(23007),
        data: { part: r.part, reason, line, column, start, end },
        errors: [{ path: `/${r.part}`, message }],
      });
    },
  );

  app.post<{ Body: { bucket_name?: string; rules?: (EdgeRuleInput & { rewrite_id?: number })[]; request: SampleRequest } }>(
    '/api/buckets/rewrite/test/',
    {
      config: {
        access: 'user',
        bucket: 'body',
        openapi: {
          summary: '规则测试：模拟请求经过边缘规则后的结果',
          description:
            '给 bucket_name 时测试该服务已保存的规则；给 rules 时测试这些规则；两者都给时，rules 中带 rewrite_id 的规则替换已保存的同一条，其余按优先级插入（即保存之后的效果）。request.ip 省略时为调用者的地址。返回最终状态码、Location、响应内容、URI、请求头与响应头的变化、限速和命中的规则。',
          errors: { 404: '21905 服务不存在或无权访问' },
        },
      },
      schema: {
        body: {
          type: 'object',
          required: ['request'],
          additionalProperties: false,
          properties: {
            bucket_name: bucketName,
            rules: { type: 'array', maxItems: EDGE_LIMITS.rulesPerService, items: testRuleSchema, errorMessage: { type: '规则列表格式不正确', maxItems: '最多测试 100 条规则' } },
            request: requestSchema,
          },
          errorMessage: { type: '请求内容须为 JSON 对象', required: { request: '请描述要测试的请求' }, additionalProperties: '包含不支持的配置项' },
        },
      },
    },
    async (req) => {
      const { bucket_name: name, rules: given, request } = req.body;
      if (!name && !given) throw new ApiError(VALIDATION_ERROR, 400, [{ path: '', message: EDGE_RULE_TEXTS.needRequest }]);
      let rules: RunnableRule[] = [];
      if (name) {
        const bucket = await bucketForUser(db, req.user!, name);
        assertEdgeKind(bucket);
        rules = (await allRules(db, bucket.id)).map((r) => toApi(r, bucket.name));
      }
      if (given?.length) rules = mergeRules(rules, given.map((g) => ({ ...normalizeRule(g), ...(g.rewrite_id ? { rewrite_id: g.rewrite_id } : {}) })));
      // with a time budget: a pattern that backtracks without end cannot hold the server (./budget.ts)
      const outcome = withinBudget(() => evaluate(rules, { ...request, ip: request.ip || req.ip }));
      return ok(outcome, { rules: rules.map((r) => ({ rewrite_id: r.rewrite_id ?? null, describe: r.describe, priority: r.priority, status: r.status })) });
    },
  );

  app.get('/api/buckets/rewrite/countries/', { config: { access: 'user', openapi: { summary: '边缘规则支持的国家和地区（代码 → 名称）' } } }, async () => ok(COUNTRIES));

  app.get('/api/ip', { config: { access: 'user', openapi: { summary: '调用者的 IP 地址', description: '新增规则默认处于调试状态，IP 预填为这个地址。' } } }, async (req) => ok({ ip: req.ip }));
}

/**
 * The stored rules as they would be after saving the given ones: a given rule with a rewrite_id
 * replaces that rule, the others are inserted; each goes to its priority and the rest shift.
 */
export function mergeRules(stored: RunnableRule[], given: RunnableRule[]): RunnableRule[] {
  const ids = new Set(given.map((g) => g.rewrite_id).filter((x) => x !== undefined));
  const list = stored.filter((r) => r.rewrite_id === undefined || !ids.has(r.rewrite_id)).sort((a, b) => a.priority - b.priority);
  for (const g of [...given].sort((a, b) => a.priority - b.priority)) {
    const at = Math.min(Math.max(0, g.priority - 1), list.length);
    list.splice(at, 0, g);
  }
  return list.map((r, i) => ({ ...r, priority: i + 1 }));
}
