/**
 * Sub-accounts (spec 000 §2.5, §3–§7) and the buckets granted to them, for main accounts only:
 *
 *   GET    /api/account/child/         ?since&max&limit   → children, pager, grantable
 *   GET    /api/account/child/check/   ?check_type=username&check_value=… → result: the name is taken
 *   PUT    /api/account/child/         {child_name, password, nickname?, permissions} → data.child_id
 *   POST   /api/account/child/         {child_id, status}  or  {child_id, password?, nickname?, permissions}
 *   DELETE /api/account/child/         {child_id}
 *   GET    /api/bucket/child/          ?child_id&bucket_type&limit → binds
 *   PUT    /api/bucket/child/          {child_id, bucket_id} → data.id
 *   DELETE /api/bucket/child/          {id}
 *
 * The field rules are the sub-account declaration's (schemas/forms/subaccount/schema.json); the
 * rules between permissions are its rules.ts `guard`, which the console runs too.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import subaccountSchema from '../../../schemas/forms/subaccount/schema.json';
import { guard } from '../../../schemas/forms/subaccount/rules';
import type { DB } from '../db';
import type { ServerConfig } from '../config';
import { ApiError, VALIDATION_ERROR } from '../http/errors';
import { ok } from '../http/envelope';
import { keysetQuery, cursorProp } from '../http/keyset';
import { hashPassword } from './passwords';
import { writeLog } from './oplog';
import { auditExists } from '../external/audit';
import type { SessionUser } from './session';
import { errorText } from '../../shared/errors';
import type { CursorPager } from '../../shared/buckets';
import type { ServiceKind } from '../../shared/services';
import {
  GRANT_TYPES, KIND_PERMISSION, KIND_PERMISSIONS, MAX_BINDS_PER_TYPE, MAX_CHILDREN, PERMISSIONS,
  type ChildBind, type ChildInfo, type KindPermission,
} from '../../shared/permissions';

/** Bucket types that may be granted to a sub-account (spec 000 §3 "Bucket authorization": cdn, file or live). */
export const GRANTABLE_TYPES: readonly KindPermission[] = GRANT_TYPES;

const fields = subaccountSchema.properties;
const permissionsProp = {
  type: 'array',
  uniqueItems: true,
  items: { type: 'string', enum: [...PERMISSIONS], errorMessage: { type: '包含不支持的权限', enum: '包含不支持的权限' } },
  errorMessage: { type: '请选择权限', uniqueItems: '权限不能重复' },
};
const idProp = (text: string) => ({ type: 'integer', minimum: 1, errorMessage: { type: text, minimum: text } });
const objectMessages = { type: '请求内容须为 JSON 对象', additionalProperties: '包含不支持的字段' };

const createBody = {
  type: 'object',
  required: ['child_name', 'password', 'permissions'],
  additionalProperties: false,
  properties: { child_name: fields.child_name, password: fields.password, nickname: fields.nickname, permissions: permissionsProp },
  errorMessage: { ...objectMessages, required: { child_name: '子账号不能为空', password: '密码不能为空', permissions: '请选择权限' } },
};

const updateBody = {
  type: 'object',
  required: ['child_id'],
  additionalProperties: false,
  properties: {
    child_id: idProp('子账号不存在'),
    status: { type: 'string', enum: ['Y', 'N'], errorMessage: { type: '状态只能是 Y 或 N', enum: '状态只能是 Y 或 N' } },
    child_name: fields.child_name,
    password: fields.password,
    nickname: fields.nickname,
    permissions: permissionsProp,
  },
  errorMessage: { ...objectMessages, required: { child_id: '子账号不存在' } },
};

const limitProp = (max: number, dflt: number) => ({
  type: 'integer', minimum: 1, maximum: max, default: dflt,
  errorMessage: { type: '每页数量须为整数', minimum: `每页数量为 1 - ${max}`, maximum: `每页数量为 1 - ${max}` },
});

interface ChildRow {
  id: number;
  username: string;
  nickname: string | null;
  status: string;
  permissions: string[];
  created_at: Date | string;
}

function childInfo(r: ChildRow): ChildInfo {
  return {
    child_id: r.id,
    child_name: r.username,
    nickname: r.nickname,
    status: r.status === 'disabled' ? 'N' : 'Y',
    permissions: r.permissions,
    created_at: new Date(r.created_at).toISOString(),
  };
}

/** The main account is one of the special accounts for which bill is hidden (spec 000 §6). */
function billHidden(config: ServerConfig, user: SessionUser): boolean {
  return config.billHiddenAccounts.includes(user.username);
}

/** guard's refusals as the API answers them: the first code, each at /permissions with its text. */
function refuse(refusals: { code: number; path: string }[]): never {
  throw new ApiError(
    refusals[0].code,
    400,
    refusals.map((r) => ({ path: '/permissions', message: errorText(r.code), code: r.code })),
  );
}

/** Whether a user name is taken by anyone (main accounts and sub-accounts alike). */
export async function nameTaken(db: DB, name: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where(sql`lower(username)`, '=', name.trim().toLowerCase()).executeTakeFirst();
  return Boolean(row);
}

export function childRoutes(app: FastifyInstance, db: DB, config: ServerConfig): void {
  async function childOf(req: FastifyRequest, childId: number): Promise<ChildRow> {
    const row = await db
      .selectFrom('users')
      .select(['id', 'username', 'nickname', 'status', 'permissions', 'created_at'])
      .where('id', '=', childId)
      .where('parent_id', '=', req.user!.account_id)
      .executeTakeFirst();
    if (!row) throw new ApiError(41001, 404);
    return row as ChildRow;
  }

  app.get<{ Querystring: { limit: number; since?: number; max?: number } }>(
    '/api/account/child/',
    {
      config: { access: 'parent', openapi: { summary: '子账号列表（按创建顺序，since/max 游标翻页）' } },
      schema: { querystring: { type: 'object', properties: { limit: limitProp(MAX_CHILDREN, MAX_CHILDREN), since: cursorProp, max: cursorProp } } },
    },
    async (req) => {
      const { limit, since, max } = req.query;
      const user = req.user!;
      const base = db.selectFrom('users').where('parent_id', '=', user.account_id).select(['id', 'username', 'nickname', 'status', 'permissions', 'created_at']);
      const { items: page, pager } = await keysetQuery(base, 'id', { limit, since, max });
      return ok(undefined, { children: page.map(childInfo), pager, grantable: { bill: !billHidden(config, user) } });
    },
  );

  app.get<{ Querystring: { check_type: 'username'; check_value: string } }>(
    '/api/account/child/check/',
    {
      config: { access: 'parent', openapi: { summary: '子账号名称是否已被使用（result 为 true 表示已存在）' } },
      schema: {
        querystring: {
          type: 'object',
          required: ['check_type', 'check_value'],
          properties: {
            check_type: { type: 'string', enum: ['username'], errorMessage: { type: '不支持的检查类型', enum: '不支持的检查类型' } },
            check_value: { type: 'string', maxLength: 100, errorMessage: { type: '子账号不能为空', maxLength: '子账号长度限定 5 - 20 位字符' } },
          },
          errorMessage: { required: { check_type: '不支持的检查类型', check_value: '子账号不能为空' } },
        },
      },
    },
    async (req) => {
      const exists = req.query.check_value.trim() !== '' && (await nameTaken(db, req.query.check_value));
      return ok({ exists }, { result: exists });
    },
  );

  app.put<{ Body: { child_name: string; password: string; nickname?: string; permissions: string[] } }>(
    '/api/account/child/',
    {
      config: { access: 'parent', openapi: { summary: '创建子账号', errors: { 403: `未实名认证：22005（${errorText(22005)}）` } } },
      schema: { body: createBody },
    },
    async (req) => {
      const user = req.user!;
      const body = req.body;
      // spec 000 §4: refused unless the main account is real-name verified
      if (user.verify_status !== 'yes') throw new ApiError(22005, 403);
      const refusals = guard(body.permissions, { mode: 'new', held: [], billHidden: billHidden(config, user), auditEnabled: await auditExists(db, user.account_id) });
      if (refusals.length) refuse(refusals);
      const hash = await hashPassword(body.password);
      const childId = await db.transaction().execute(async (trx) => {
        // one creation at a time per account, so the limit holds under concurrent requests
        await trx.selectFrom('users').select('id').where('id', '=', user.account_id).forUpdate().execute();
        const count = await trx.selectFrom('users').select(sql<number>`count(*)::int`.as('n')).where('parent_id', '=', user.account_id).executeTakeFirstOrThrow();
        if (Number(count.n) >= MAX_CHILDREN) throw new ApiError(41006, 400);
        if (await nameTaken(trx as unknown as DB, body.child_name)) {
          throw new ApiError(21100, 409, [{ path: '/child_name', message: errorText(21100) }]);
        }
        const row = await trx
          .insertInto('users')
          .values({
            username: body.child_name,
            email: null,
            mobile: null,
            password_hash: hash,
            verify_status: user.verify_status,
            two_step: false,
            parent_id: user.account_id,
            nickname: body.nickname || null,
            permissions: JSON.stringify(body.permissions),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await writeLog(trx, req, { action: 'child.create', target: body.child_name, detail: { child_id: row.id, nickname: body.nickname ?? null, permissions: body.permissions } });
        return row.id;
      });
      return ok({ child_id: childId });
    },
  );

  app.post<{ Body: { child_id: number; status?: 'Y' | 'N'; child_name?: string; password?: string; nickname?: string; permissions?: string[] } }>(
    '/api/account/child/',
    {
      config: { access: 'parent', openapi: { summary: '更新子账号（权限、密码、备注）或启用/禁用（status）' } },
      schema: { body: updateBody },
    },
    async (req) => {
      const user = req.user!;
      const body = req.body;
      const child = await childOf(req, body.child_id);
      if (body.permissions === undefined) {
        if (body.status === undefined) throw new ApiError(VALIDATION_ERROR, 400, [{ path: '/permissions', message: '请选择权限' }]);
        const status = body.status === 'N' ? 'disabled' : 'normal';
        await db.transaction().execute(async (trx) => {
          await trx.updateTable('users').set({ status }).where('id', '=', child.id).execute();
          // a disabled sub-account is signed out everywhere at once
          if (status === 'disabled') await trx.deleteFrom('sessions').where('user_id', '=', child.id).execute();
          await writeLog(trx, req, { action: status === 'disabled' ? 'child.disable' : 'child.enable', target: child.username, detail: { child_id: child.id } });
        });
        return ok({ child_id: child.id, status: body.status });
      }
      if (body.status !== undefined) throw new ApiError(VALIDATION_ERROR, 400, [{ path: '/status', message: '修改权限时不能同时修改状态' }]);
      if (body.child_name !== undefined && body.child_name !== child.username) {
        throw new ApiError(VALIDATION_ERROR, 400, [{ path: '/child_name', message: '子账号名称不能修改' }]);
      }
      const refusals = guard(body.permissions, { mode: 'update', held: child.permissions, billHidden: billHidden(config, user), auditEnabled: await auditExists(db, user.account_id) });
      if (refusals.length) refuse(refusals);
      const hash = body.password ? await hashPassword(body.password) : undefined;
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({
            permissions: JSON.stringify(body.permissions),
            ...(body.nickname !== undefined ? { nickname: body.nickname || null } : {}),
            ...(hash ? { password_hash: hash } : {}),
          })
          .where('id', '=', child.id)
          .execute();
        // a new password signs the sub-account out of its other sessions
        if (hash) await trx.deleteFrom('sessions').where('user_id', '=', child.id).execute();
        await writeLog(trx, req, {
          action: 'child.update',
          target: child.username,
          detail: { child_id: child.id, permissions: body.permissions, ...(body.nickname !== undefined ? { nickname: body.nickname } : {}), password_changed: Boolean(hash) },
        });
      });
      return ok({ child_id: child.id });
    },
  );

  app.delete<{ Body: { child_id: number } }>(
    '/api/account/child/',
    {
      config: { access: 'parent', openapi: { summary: '删除子账号（同时取消其全部服务授权）' } },
      schema: { body: { type: 'object', required: ['child_id'], properties: { child_id: idProp('子账号不存在') }, errorMessage: { type: objectMessages.type, required: { child_id: '子账号不存在' } } } },
    },
    async (req) => {
      const child = await childOf(req, req.body.child_id);
      await db.transaction().execute(async (trx) => {
        // the log keeps naming who did what after the user is gone (sections that log without a name too)
        await trx.updateTable('operation_logs').set({ username: child.username }).where('user_id', '=', child.id).where('username', 'is', null).execute();
        await trx.deleteFrom('users').where('id', '=', child.id).execute();
        await writeLog(trx, req, { action: 'child.delete', target: child.username, detail: { child_id: child.id } });
      });
      return ok({ child_id: child.id });
    },
  );

  // ---- grants (spec 000 §3 "Bucket authorization", §7 "/api/bucket/child/") ----

  app.get<{ Querystring: { child_id: number; bucket_type?: KindPermission; limit: number; max?: number } }>(
    '/api/bucket/child/',
    {
      config: { access: 'parent', openapi: { summary: '子账号已授权的服务（binds）' } },
      schema: {
        querystring: {
          type: 'object',
          required: ['child_id'],
          properties: {
            child_id: idProp('子账号不存在'),
            bucket_type: { type: 'string', enum: [...KIND_PERMISSIONS], errorMessage: { type: '不支持的服务类型', enum: '不支持的服务类型' } },
            limit: limitProp(MAX_BINDS_PER_TYPE * GRANTABLE_TYPES.length, MAX_BINDS_PER_TYPE),
            max: cursorProp,
          },
          errorMessage: { required: { child_id: '子账号不存在' } },
        },
      },
    },
    async (req) => {
      const { child_id, bucket_type, limit, max } = req.query;
      const child = await childOf(req, child_id);
      let q = db
        .selectFrom('child_buckets as cb')
        .innerJoin('buckets as b', 'b.id', 'cb.bucket_id')
        .select(['cb.id', 'cb.bucket_id', 'b.name as bucket_name', 'cb.bucket_type'])
        .where('cb.child_id', '=', child.id);
      if (bucket_type) q = q.where('cb.bucket_type', '=', bucket_type);
      if (max !== undefined) q = q.where('cb.id', '>', max);
      const rows = await q.orderBy('cb.id').limit(limit + 1).execute();
      const page = rows.slice(0, limit) as ChildBind[];
      const pager: CursorPager = { since: null, max: rows.length > limit ? page[page.length - 1].id : null };
      return ok(undefined, { binds: page, pager });
    },
  );

  app.put<{ Body: { child_id: number; bucket_id: number } }>(
    '/api/bucket/child/',
    {
      config: { access: 'parent', openapi: { summary: '授权一个服务给子账号（已授权时返回原授权）' } },
      schema: {
        body: {
          type: 'object',
          required: ['child_id', 'bucket_id'],
          properties: { child_id: idProp('子账号不存在'), bucket_id: idProp('服务不存在或无权访问') },
          errorMessage: { type: objectMessages.type, required: { child_id: '子账号不存在', bucket_id: '服务不存在或无权访问' } },
        },
      },
    },
    async (req) => {
      const child = await childOf(req, req.body.child_id);
      const bucket = await db.selectFrom('buckets').select(['id', 'name', 'kind', 'owner_id']).where('id', '=', req.body.bucket_id).executeTakeFirst();
      if (!bucket || bucket.owner_id !== req.user!.account_id) throw new ApiError(21905, 404);
      const type = KIND_PERMISSION[bucket.kind as ServiceKind];
      if (!type || !GRANTABLE_TYPES.includes(type)) throw new ApiError(41015, 400);
      if (!child.permissions.includes(type)) throw new ApiError(41007, 400);
      const id = await db.transaction().execute(async (trx) => {
        await trx.selectFrom('users').select('id').where('id', '=', child.id).forUpdate().execute();
        const existing = await trx.selectFrom('child_buckets').select('id').where('child_id', '=', child.id).where('bucket_id', '=', bucket.id).executeTakeFirst();
        if (existing) return existing.id;
        const count = await trx
          .selectFrom('child_buckets')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('child_id', '=', child.id)
          .where('bucket_type', '=', type)
          .executeTakeFirstOrThrow();
        if (Number(count.n) >= MAX_BINDS_PER_TYPE) throw new ApiError(41004, 400);
        const row = await trx.insertInto('child_buckets').values({ child_id: child.id, bucket_id: bucket.id, bucket_type: type }).returning('id').executeTakeFirstOrThrow();
        await writeLog(trx, req, { action: 'child.grant', target: `${child.username}/${bucket.name}`, detail: { child_id: child.id, bucket_id: bucket.id, bucket_type: type } });
        return row.id;
      });
      return ok({ id });
    },
  );

  app.delete<{ Body: { id: number } }>(
    '/api/bucket/child/',
    {
      config: { access: 'parent', openapi: { summary: '取消一项服务授权' } },
      schema: { body: { type: 'object', required: ['id'], properties: { id: idProp('授权记录不存在') }, errorMessage: { type: objectMessages.type, required: { id: '授权记录不存在' } } } },
    },
    async (req) => {
      const bind = await db
        .selectFrom('child_buckets as cb')
        .innerJoin('users as c', 'c.id', 'cb.child_id')
        .innerJoin('buckets as b', 'b.id', 'cb.bucket_id')
        .select(['cb.id', 'cb.child_id', 'cb.bucket_id', 'c.username', 'b.name as bucket_name'])
        .where('cb.id', '=', req.body.id)
        .where('c.parent_id', '=', req.user!.account_id)
        .executeTakeFirst();
      if (!bind) throw new ApiError(41013, 404);
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('child_buckets').where('id', '=', bind.id).execute();
        await writeLog(trx, req, { action: 'child.revoke', target: `${bind.username}/${bind.bucket_name}`, detail: { child_id: bind.child_id, bucket_id: bind.bucket_id } });
      });
      return ok({ id: bind.id });
    },
  );
}
