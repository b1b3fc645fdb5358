/**
 * The message centre's calls (spec 000 §2.8, §3 "Account message", §7), for main accounts only: spec
 * 000 §4 "Sub-accounts do not load or see messages", so every route is `parent`.
 *
 *   GET  /api/messages/          ?page&limit&status=unread|readed&type → data: AccountMessage[], total, unread (per type and all)
 *   POST /api/messages/          {ids, action: readed|delete}  or  {all: true, type?, action: readed}
 *   GET  /api/message/           ?id → data: the message with its body; opening it marks it read
 *   GET  /api/messages/unread/   → data: {total, by_type, latest: up to 5 (menu), popup: the newest unread system notice or null}
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { DB } from '../db';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { MESSAGE_CATEGORIES, MESSAGE_TYPES, messageTypeOf, type MessageType } from '../../shared/messages';
import { MESSAGE_MENU_UNREAD, MESSAGE_PAGE_SIZE, type AccountMessage } from '../../shared/message-centre';
import { limitProp } from '../http/keyset';

const TYPES = Object.keys(MESSAGE_TYPES) as MessageType[];
/** The categories listed under a type. */
const categoriesOf = (type: MessageType) => Object.keys(MESSAGE_CATEGORIES).filter((c) => messageTypeOf(c) === type);
const objectMessages = { type: '请求内容须为 JSON 对象', additionalProperties: '包含不支持的字段' };
const typeProp = { type: 'string', enum: TYPES, errorMessage: { type: '消息类型不正确', enum: '消息类型不正确' } };

interface Row {
  id: number;
  category: string;
  title: string;
  body: string;
  link: string | null;
  read_at: unknown;
  created_at: unknown;
}

function toMessage(r: Row, withBody: boolean): AccountMessage {
  return {
    account_message_id: r.id,
    type: messageTypeOf(r.category),
    category: r.category,
    title: r.title,
    ...(withBody ? { body: r.body } : { summary: r.body.length > 80 ? `${r.body.slice(0, 80)}…` : r.body }),
    link: r.link,
    status: r.read_at ? 'readed' : 'unread',
    mode: messageTypeOf(r.category) === 'platform_notify' ? 'popup' : null,
    create_at: Math.floor(new Date(r.created_at as string).getTime() / 1000),
  };
}

export function messageRoutes(app: FastifyInstance, db: DB): void {
  const account = (req: FastifyRequest) => req.user!.account_id;

  async function unreadCounts(accountId: number) {
    const rows = await db.selectFrom('messages').select(['category', sql<number>`count(*)::int`.as('n')]).where('account_id', '=', accountId).where('read_at', 'is', null).groupBy('category').execute();
    const by_type = Object.fromEntries(TYPES.map((t) => [t, 0])) as Record<MessageType, number>;
    for (const r of rows) by_type[messageTypeOf(r.category)] += Number(r.n);
    return { total: Object.values(by_type).reduce((a, b) => a + b, 0), by_type };
  }

  app.get<{ Querystring: { page: number; limit: number; status?: 'unread' | 'readed'; type?: MessageType; mode?: string } }>(
    '/api/messages/',
    {
      config: { access: 'parent', openapi: { summary: '消息列表（按类型、已读/未读筛选，最新的在前，按页）' } },
      schema: {
        querystring: {
          type: 'object',
          properties: {
            page: { type: 'integer', minimum: 1, default: 1, errorMessage: { type: '分页参数不正确', minimum: '分页参数不正确' } },
            limit: limitProp(MESSAGE_PAGE_SIZE),
            status: { type: 'string', enum: ['unread', 'readed'], errorMessage: { type: '状态只能是 unread 或 readed', enum: '状态只能是 unread 或 readed' } },
            type: typeProp,
            mode: { type: 'string', enum: ['popup'], errorMessage: { type: '展示方式只能是 popup', enum: '展示方式只能是 popup' } },
          },
        },
      },
    },
    async (req) => {
      const { page, limit, status, type, mode } = req.query;
      let q = db.selectFrom('messages').where('account_id', '=', account(req));
      if (status === 'unread') q = q.where('read_at', 'is', null);
      if (status === 'readed') q = q.where('read_at', 'is not', null);
      const t = mode === 'popup' ? 'platform_notify' : type;
      if (t) q = q.where('category', 'in', categoriesOf(t));
      // the page and the total in one statement (count over the filter); a page past the end counts apart
      const rows = await q.selectAll().select(sql<number>`count(*) over ()`.as('total_count')).orderBy('id', 'desc').limit(limit).offset((page - 1) * limit).execute();
      const total = rows.length ? Number(rows[0].total_count) : Number((await q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n);
      return ok(rows.map((r) => toMessage(r, false)), { total, page, limit, unread: await unreadCounts(account(req)) });
    },
  );

  app.post<{ Body: { ids?: number[]; all?: boolean; type?: MessageType; action: 'readed' | 'delete' } }>(
    '/api/messages/',
    {
      config: { access: 'parent', openapi: { summary: '标记已读或删除选中的消息；all=true 时把全部（或某类型的全部）标为已读' } },
      schema: {
        body: {
          type: 'object',
          required: ['action'],
          additionalProperties: false,
          properties: {
            ids: { type: 'array', minItems: 1, maxItems: 100, items: { type: 'integer', minimum: 1, errorMessage: { type: '消息不存在', minimum: '消息不存在' } }, errorMessage: { type: '请选择消息', minItems: '请选择消息', maxItems: '一次最多处理 100 条消息' } },
            all: { type: 'boolean', errorMessage: { type: 'all 只能是 true 或 false' } },
            type: typeProp,
            action: { type: 'string', enum: ['readed', 'delete'], errorMessage: { type: '操作只能是 readed 或 delete', enum: '操作只能是 readed 或 delete' } },
          },
          errorMessage: { ...objectMessages, required: { action: '操作只能是 readed 或 delete' } },
        },
      },
    },
    async (req) => {
      const { ids, all, type, action } = req.body;
      if (!all && !ids) throw new ApiError(20001, 400, [{ path: '/ids', message: '请选择消息' }]);
      if (all && action !== 'readed') throw new ApiError(20001, 400, [{ path: '/action', message: '全部消息只能标为已读' }]);
      let changed: number;
      if (action === 'delete') {
        const res = await db.deleteFrom('messages').where('account_id', '=', account(req)).where('id', 'in', ids!).executeTakeFirst();
        changed = Number(res.numDeletedRows);
      } else {
        let q = db.updateTable('messages').set({ read_at: new Date() }).where('account_id', '=', account(req)).where('read_at', 'is', null);
        if (!all) q = q.where('id', 'in', ids!);
        else if (type) q = q.where('category', 'in', categoriesOf(type));
        const res = await q.executeTakeFirst();
        changed = Number(res.numUpdatedRows);
      }
      return ok({ changed }, { unread: await unreadCounts(account(req)) });
    },
  );

  app.get<{ Querystring: { id: number } }>(
    '/api/message/',
    {
      config: { access: 'parent', openapi: { summary: '一条消息的详情（打开即标为已读）' } },
      schema: { querystring: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, errorMessage: { type: '消息不存在', minimum: '消息不存在' } } }, errorMessage: { required: { id: '消息不存在' } } } },
    },
    async (req) => {
      const row = await db.selectFrom('messages').selectAll().where('account_id', '=', account(req)).where('id', '=', req.query.id).executeTakeFirst();
      if (!row) throw new ApiError(21129, 404);
      if (!row.read_at) {
        row.read_at = new Date();
        await db.updateTable('messages').set({ read_at: row.read_at }).where('id', '=', row.id).execute();
      }
      return ok(toMessage(row, true));
    },
  );

  app.get('/api/messages/unread/', { config: { access: 'parent', openapi: { summary: '未读消息数（顶栏角标）、菜单中最近 5 条未读、1 条弹窗公告' } } }, async (req) => {
    const counts = await unreadCounts(account(req));
    const latest = await db.selectFrom('messages').selectAll().where('account_id', '=', account(req)).where('read_at', 'is', null).orderBy('id', 'desc').limit(MESSAGE_MENU_UNREAD).execute();
    const popup = await db
      .selectFrom('messages')
      .selectAll()
      .where('account_id', '=', account(req))
      .where('read_at', 'is', null)
      .where('category', 'in', categoriesOf('platform_notify'))
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return ok({ ...counts, latest: latest.map((r) => toMessage(r, false)), popup: popup ? toMessage(popup, true) : null });
  });
}
