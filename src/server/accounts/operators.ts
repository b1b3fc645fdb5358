/**
 * Operators (spec 000 §2.6, §3–§8): delegated users with read, write and delete rights on the services
 * bound to them, for main accounts only. Names are unique across all operators.
 *
 *   GET    /api/operators/                   → data: OperatorInfo[] (enabled first, then disabled, each by name)
 *   GET    /api/operators/info/              ?operator_name → result: true when the caller's account has the name
 *   PUT    /api/operators/                   the operator declaration (password required) → data.operator_id
 *   POST   /api/operators/                   {operator_id, …}: edit; the password only when given
 *   DELETE /api/operators/                   {operator_id}
 *   POST   /api/operators/enable/, /disable/ {operator_name}
 *   GET    /api/operators/buckets/           ?operator_id&limit=5&since&max → data: OperatorBucket[], pager
 *   PUT    /api/operators/buckets/binding/   {operator_id, bucket_id}: bind a service
 *   DELETE /api/operators/buckets/binding/   {operator_name, bucket_name}: deprive the authorisation
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import operatorSchema from '../../../schemas/forms/operator/schema.json';
import type { DB } from '../db';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { keysetQuery, pagingProps } from '../http/keyset';
import { hashPassword } from './passwords';
import { writeLog } from './oplog';
import { OPERATOR_SERVICE_PAGE_SIZE, type OperatorBucket, type OperatorInfo } from '../../shared/security';

const P = operatorSchema.properties;
const objectMessages = { type: '请求内容须为 JSON 对象', additionalProperties: '包含不支持的字段' };
const idProp = { type: 'integer', minimum: 1, errorMessage: { type: '操作员不存在', minimum: '操作员不存在' } };
const nameProp = { type: 'string', minLength: 1, maxLength: 32, errorMessage: { type: '操作员不存在', minLength: '操作员不存在', maxLength: '操作员不存在' } };

const createBody = { ...operatorSchema, required: ['operator_name', 'password', 'ak', 'operator_auth'], properties: { operator_name: P.operator_name, realname: P.realname, password: P.password, ak: P.ak, operator_auth: P.operator_auth }, errorMessage: { ...operatorSchema.errorMessage, required: { ...operatorSchema.errorMessage.required, password: '密码不能为空' } } };
const updateBody = { ...operatorSchema, required: ['operator_id', 'ak', 'operator_auth'], properties: { operator_id: P.operator_id, operator_name: P.operator_name, realname: P.realname, password: P.password, ak: P.ak, operator_auth: P.operator_auth }, errorMessage: { ...operatorSchema.errorMessage, required: { ...operatorSchema.errorMessage.required, operator_id: '操作员不存在' } } };

interface OperatorBody {
  operator_id?: number;
  operator_name: string;
  realname?: string;
  password?: string;
  ak: string;
  operator_auth: { read: boolean; write: boolean; delete: boolean };
}

export function operatorRoutes(app: FastifyInstance, db: DB): void {
  async function ownOperator(req: FastifyRequest, where: { id?: number; name?: string }) {
    let q = db.selectFrom('operators').selectAll().where('account_id', '=', req.user!.account_id);
    if (where.id !== undefined) q = q.where('id', '=', where.id);
    if (where.name !== undefined) q = q.where('name', '=', where.name);
    const row = await q.executeTakeFirst();
    if (!row) throw new ApiError(21126, 404);
    return row;
  }

  app.get('/api/operators/', { config: { access: 'parent', openapi: { summary: '操作员列表（启用的在前，再按名称）' } } }, async (req) => {
    const rows = await db
      .selectFrom('operators as o')
      .selectAll('o')
      .select((eb) => eb.selectFrom('operator_buckets as b').select(eb.fn.countAll<number>().as('n')).whereRef('b.operator_id', '=', 'o.id').as('buckets'))
      .where('o.account_id', '=', req.user!.account_id)
      .orderBy('o.enabled', 'desc')
      .orderBy('o.name')
      .execute();
    const data: OperatorInfo[] = rows.map((r) => ({
      operator_id: r.id,
      operator_name: r.name,
      realname: r.realname,
      status: r.enabled ? 'enabled' : 'disabled',
      operator_auth: { read: r.can_read, write: r.can_write, delete: r.can_delete },
      ak: r.ak,
      buckets: Number(r.buckets ?? 0),
      created_at: new Date(r.created_at).toISOString(),
    }));
    return ok(data);
  });

  app.get<{ Querystring: { operator_name: string } }>(
    '/api/operators/info/',
    {
      config: { access: 'parent', openapi: { summary: '本账号是否已有该操作员名称（result 为 true 表示已存在）' } },
      schema: { querystring: { type: 'object', required: ['operator_name'], properties: { operator_name: nameProp }, errorMessage: { required: { operator_name: '请输入操作员名称' } } } },
    },
    async (req) => {
      // the caller's account only (issue 34 item 10): the answer does not tell whether another account has the
      // name; creating one that another account holds is still refused (21125, on PUT)
      const row = await db.selectFrom('operators').select('id').where('name', '=', req.query.operator_name.trim()).where('account_id', '=', req.user!.account_id).executeTakeFirst();
      return ok(undefined, { result: Boolean(row) });
    },
  );

  app.put<{ Body: OperatorBody }>('/api/operators/', { config: { access: 'parent', openapi: { summary: '添加操作员' } }, schema: { body: createBody } }, async (req) => {
    const b = req.body;
    const taken = await db.selectFrom('operators').select('id').where('name', '=', b.operator_name).executeTakeFirst();
    if (taken) throw new ApiError(21125, 400, [{ path: '/operator_name', message: '操作员名称已存在' }]);
    const hash = await hashPassword(b.password!);
    const id = await db.transaction().execute(async (tx) => {
      const row = await tx
        .insertInto('operators')
        .values({
          account_id: req.user!.account_id,
          name: b.operator_name,
          realname: b.realname?.trim() || b.operator_name,
          password_hash: hash,
          ak: b.ak,
          can_read: b.operator_auth.read,
          can_write: b.operator_auth.write,
          can_delete: b.operator_auth.delete,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await writeLog(tx, req, { action: 'operator.create', target: b.operator_name, detail: { operator_auth: b.operator_auth } });
      return row.id;
    });
    return ok({ operator_id: id });
  });

  app.post<{ Body: OperatorBody }>('/api/operators/', { config: { access: 'parent', openapi: { summary: '编辑操作员（名称不可修改；密码留空表示不修改）' } }, schema: { body: updateBody } }, async (req) => {
    const b = req.body;
    const op = await ownOperator(req, { id: b.operator_id });
    if (b.operator_name !== undefined && b.operator_name !== op.name) throw new ApiError(20001, 400, [{ path: '/operator_name', message: '操作员名称不可修改' }]);
    const hash = b.password ? await hashPassword(b.password) : undefined;
    await db.transaction().execute(async (tx) => {
      await tx
        .updateTable('operators')
        .set({
          realname: b.realname?.trim() || op.name,
          ak: b.ak,
          can_read: b.operator_auth.read,
          can_write: b.operator_auth.write,
          can_delete: b.operator_auth.delete,
          ...(hash ? { password_hash: hash } : {}),
        })
        .where('id', '=', op.id)
        .execute();
      await writeLog(tx, req, { action: 'operator.update', target: op.name, detail: { operator_auth: b.operator_auth, password: Boolean(hash) } });
    });
    return ok();
  });

  app.delete<{ Body: { operator_id: number } }>(
    '/api/operators/',
    { config: { access: 'parent', openapi: { summary: '删除操作员' } }, schema: { body: { type: 'object', required: ['operator_id'], additionalProperties: false, properties: { operator_id: idProp }, errorMessage: { ...objectMessages, required: { operator_id: '操作员不存在' } } } } },
    async (req) => {
      const op = await ownOperator(req, { id: req.body.operator_id });
      await db.transaction().execute(async (tx) => {
        await tx.deleteFrom('operators').where('id', '=', op.id).execute();
        await writeLog(tx, req, { action: 'operator.delete', target: op.name });
      });
      return ok();
    },
  );

  for (const action of ['enable', 'disable'] as const) {
    app.post<{ Body: { operator_name: string } }>(
      `/api/operators/${action}/`,
      {
        config: { access: 'parent', openapi: { summary: action === 'enable' ? '启用操作员' : '禁用操作员' } },
        schema: { body: { type: 'object', required: ['operator_name'], additionalProperties: false, properties: { operator_name: nameProp }, errorMessage: { ...objectMessages, required: { operator_name: '操作员不存在' } } } },
      },
      async (req) => {
        const op = await ownOperator(req, { name: req.body.operator_name });
        await db.transaction().execute(async (tx) => {
          await tx.updateTable('operators').set({ enabled: action === 'enable' }).where('id', '=', op.id).execute();
          await writeLog(tx, req, { action: `operator.${action}`, target: op.name });
        });
        return ok();
      },
    );
  }

  app.get<{ Querystring: { operator_id: number; limit: number; since?: number; max?: number } }>(
    '/api/operators/buckets/',
    {
      config: { access: 'parent', openapi: { summary: '操作员已授权的服务（每页 5 个，since/max 翻页）' } },
      schema: {
        querystring: {
          type: 'object',
          required: ['operator_id'],
          properties: {
            operator_id: idProp,
            ...pagingProps(OPERATOR_SERVICE_PAGE_SIZE),
          },
          errorMessage: { required: { operator_id: '操作员不存在' } },
        },
      },
    },
    async (req) => {
      const op = await ownOperator(req, { id: req.query.operator_id });
      const base = db.selectFrom('operator_buckets as ob').innerJoin('buckets as b', 'b.id', 'ob.bucket_id').select(['ob.id', 'ob.bucket_id', 'b.name as bucket_name']).where('ob.operator_id', '=', op.id);
      const { items, pager } = await keysetQuery(base, 'ob.id', { limit: req.query.limit, since: req.query.since, max: req.query.max });
      const data: OperatorBucket[] = items;
      return ok(data, { pager });
    },
  );

  app.put<{ Body: { operator_id: number; bucket_id: number } }>(
    '/api/operators/buckets/binding/',
    {
      config: { access: 'parent', openapi: { summary: '为操作员授权一个服务' } },
      schema: { body: { type: 'object', required: ['operator_id', 'bucket_id'], additionalProperties: false, properties: { operator_id: idProp, bucket_id: { type: 'integer', minimum: 1, errorMessage: { type: '服务不存在或无权访问', minimum: '服务不存在或无权访问' } } }, errorMessage: { ...objectMessages, required: { operator_id: '操作员不存在', bucket_id: '服务不存在或无权访问' } } } },
    },
    async (req) => {
      const op = await ownOperator(req, { id: req.body.operator_id });
      const bucket = await db.selectFrom('buckets').select(['id', 'name']).where('id', '=', req.body.bucket_id).where('owner_id', '=', req.user!.account_id).executeTakeFirst();
      if (!bucket) throw new ApiError(21905, 404);
      const exists = await db.selectFrom('operator_buckets').select('id').where('operator_id', '=', op.id).where('bucket_id', '=', bucket.id).executeTakeFirst();
      if (exists) throw new ApiError(21128, 400);
      const id = await db.transaction().execute(async (tx) => {
        const row = await tx.insertInto('operator_buckets').values({ operator_id: op.id, bucket_id: bucket.id }).returning('id').executeTakeFirstOrThrow();
        await writeLog(tx, req, { action: 'operator.bind', target: op.name, detail: { bucket_name: bucket.name } });
        return row.id;
      });
      return ok({ id });
    },
  );

  app.delete<{ Body: { operator_name: string; bucket_name: string } }>(
    '/api/operators/buckets/binding/',
    {
      config: { access: 'parent', bucket: 'body', openapi: { summary: '取消操作员对一个服务的授权' } },
      schema: { body: { type: 'object', required: ['operator_name', 'bucket_name'], additionalProperties: false, properties: { operator_name: nameProp, bucket_name: { type: 'string', minLength: 1, errorMessage: { type: '服务不存在或无权访问', minLength: '服务不存在或无权访问' } } }, errorMessage: { ...objectMessages, required: { operator_name: '操作员不存在', bucket_name: '服务不存在或无权访问' } } } },
    },
    async (req) => {
      const op = await ownOperator(req, { name: req.body.operator_name });
      const row = await db
        .selectFrom('operator_buckets as ob')
        .innerJoin('buckets as b', 'b.id', 'ob.bucket_id')
        .select(['ob.id'])
        .where('ob.operator_id', '=', op.id)
        .where('b.name', '=', req.body.bucket_name)
        .executeTakeFirst();
      if (!row) throw new ApiError(21127, 404);
      await db.transaction().execute(async (tx) => {
        await tx.deleteFrom('operator_buckets').where('id', '=', row.id).execute();
        await writeLog(tx, req, { action: 'operator.deprive', target: op.name, detail: { bucket_name: req.body.bucket_name } });
      });
      return ok();
    },
  );
}
