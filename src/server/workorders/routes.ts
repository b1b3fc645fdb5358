/**
 * Work orders (spec 002 "Other tools", §7 Work orders). The external ticket site of the spec is this
 * console's page /work/ (EXTERNAL_WORKORDER_URL points the support entry elsewhere, with a token); support answers with the
 * platform command work-order-reply (./commands.ts).
 *
 *   GET  /api/workorder/types/           the types, and the site the console's support entry opens
 *   GET  /work_order/documents/          ?type                     help documents for a type
 *   POST /work_order/attachment/         multipart, one file       an attachment (≤ 5 MB, png jpg gif pdf txt zip by content)
 *   GET  /work_order/attachment/         ?id                       downloads it
 *   POST /api/workorder                  work_order declaration    opens an order
 *   GET  /api/workorder/list/            ?status&page&limit        the account's orders, with status and replies
 *   GET  /api/workorder/detail/          ?id                       an order, its replies and attachments
 *   POST /api/workorder/reply/           { id, content, attachments? }
 *   POST /api/workorder/close/           { id }
 *
 * Every signed-in user of an account (its sub-accounts too) sees the account's orders.
 * Refusals: 20001 the declaration; 26201 unknown order; 26202 too large; 26203 type; 26204 an
 * attachment that is not the user's or already used; 26205 reply to a closed order; 26206 no file.
 */
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { sql } from 'kysely';
import workOrderSchema from '../../../schemas/forms/work_order/schema.json';
import type { DB } from '../db';
import type { ServerConfig } from '../config';
import type { SessionUser } from '../accounts/session';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { attachmentType, MIME } from './attachments';
import {
  ATTACHMENT_MAX_BYTES,
  WORK_ORDER_DOCUMENTS,
  WORK_ORDER_TYPES,
  type WorkOrderAttachment,
  type WorkOrderReply,
  type WorkOrderStatus,
  type WorkOrderSummary,
} from '../../shared/monitor';
import { limitProp } from '../http/keyset';

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);
const idProp = { type: 'integer', minimum: 1, errorMessage: { type: '请指定工单', minimum: '请指定工单' } };
const replySchema = {
  type: 'object',
  required: ['id', 'content'],
  additionalProperties: false,
  properties: {
    id: idProp,
    content: { ...workOrderSchema.properties.content, minLength: 1, errorMessage: { ...workOrderSchema.properties.content.errorMessage, minLength: '请填写回复内容' } },
    attachments: workOrderSchema.properties.attachments,
  },
  errorMessage: { required: { id: '请指定工单', content: '请填写回复内容' }, additionalProperties: '包含不支持的配置项' },
};

interface CreateBody {
  type: string;
  title: string;
  content: string;
  mobile?: string;
  attachments?: number[];
}

/** Links unused attachments of the user to an order (and reply); all or nothing (26204). */
async function claimAttachments(db: DB, user: SessionUser, ids: number[], orderId: number, replyId: number | null) {
  if (!ids.length) return;
  const res = await db
    .updateTable('work_order_attachments')
    .set({ order_id: orderId, reply_id: replyId })
    .where('id', 'in', ids)
    .where('account_id', '=', user.account_id)
    .where('user_id', '=', user.id)
    .where('order_id', 'is', null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== ids.length) throw new ApiError(26204, 400, [{ path: '/attachments', message: '附件不存在或已被使用' }]);
}

async function attachmentsOf(db: DB, orderId: number) {
  const rows = await db.selectFrom('work_order_attachments').select(['id', 'name', 'size', 'type', 'reply_id']).where('order_id', '=', orderId).orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, name: r.name, size: r.size, type: r.type, reply_id: r.reply_id }));
}

export async function workOrderRoutes(app: FastifyInstance, db: DB, config: ServerConfig): Promise<void> {
  await app.register(multipart, { limits: { fileSize: ATTACHMENT_MAX_BYTES, files: 1, fields: 5 } });
  const user = { access: 'user' as const };

  const owned = async (u: SessionUser, id: number) => {
    const row = await db.selectFrom('work_orders').selectAll().where('id', '=', id).where('account_id', '=', u.account_id).executeTakeFirst();
    if (!row) throw new ApiError(26201, 404);
    return row;
  };

  app.get('/api/workorder/types/', { config: user }, async () => ok(WORK_ORDER_TYPES.map((t) => ({ ...t })), { site: config.external?.workorder ?? '/work/' }));

  app.get<{ Querystring: { type?: string } }>(
    '/work_order/documents/',
    { config: user, schema: { querystring: { type: 'object', properties: { type: { ...workOrderSchema.properties.type, enumNames: undefined } } } } },
    async (req) => ok(req.query.type ? (WORK_ORDER_DOCUMENTS[req.query.type] ?? []) : Object.values(WORK_ORDER_DOCUMENTS).flat()),
  );

  app.post('/work_order/attachment/', { config: { ...user, accepts: 'multipart' } }, async (req) => {
    const u = req.user!;
    if (!req.isMultipart()) throw new ApiError(26206, 400);
    const file = await req.file();
    if (!file) throw new ApiError(26206, 400);
    let buf: Buffer;
    try {
      buf = await file.toBuffer();
    } catch (e) {
      if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(26202, 413);
      throw e;
    }
    if (buf.length === 0) throw new ApiError(26206, 400);
    const name = file.filename.replace(/[\\/\r\n]/g, '_').slice(-120) || 'attachment';
    const type = attachmentType(name, buf);
    if (!type) throw new ApiError(26203, 400);
    const row = await db
      .insertInto('work_order_attachments')
      .values({ account_id: u.account_id, user_id: u.id, order_id: null, reply_id: null, name, type, size: buf.length, data: buf })
      .returning(['id', 'name', 'size', 'type'])
      .executeTakeFirstOrThrow();
    return ok<WorkOrderAttachment>(row);
  });

  app.get<{ Querystring: { id: number } }>(
    '/work_order/attachment/',
    { config: user, schema: { querystring: { type: 'object', required: ['id'], properties: { id: idProp }, errorMessage: { required: { id: '请指定附件' } } } } },
    async (req, reply) => {
      const row = await db.selectFrom('work_order_attachments').selectAll().where('id', '=', req.query.id).where('account_id', '=', req.user!.account_id).executeTakeFirst();
      if (!row) throw new ApiError(26204, 404);
      return reply
        .type(MIME[row.type as keyof typeof MIME] ?? 'application/octet-stream')
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(row.name)}`)
        .header('x-content-type-options', 'nosniff')
        .send(Buffer.from(row.data));
    },
  );

  app.post<{ Body: CreateBody }>('/api/workorder', { config: user, schema: { body: workOrderSchema } }, async (req) => {
    const u = req.user!;
    const b = req.body;
    const order = await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('work_orders')
        .values({ account_id: u.account_id, user_id: u.id, type: b.type, title: b.title.trim(), content: b.content, mobile: b.mobile || null, closed_at: null })
        .returningAll()
        .executeTakeFirstOrThrow();
      await claimAttachments(trx as unknown as DB, u, b.attachments ?? [], row.id, null);
      return row;
    });
    return ok({ id: order.id, status: order.status as WorkOrderStatus, created_at: iso(order.created_at) });
  });

  app.get<{ Querystring: { status?: WorkOrderStatus; page: number; limit: number } }>(
    '/api/workorder/list/',
    {
      config: user,
      schema: {
        querystring: {
          type: 'object',
          properties: {
            status: { type: 'string', enum: ['pending', 'replied', 'closed'], errorMessage: { enum: '状态只能是 pending、replied 或 closed' } },
            page: { type: 'integer', minimum: 1, default: 1, errorMessage: { type: '页码须为整数', minimum: '页码须为正整数' } },
            limit: limitProp(20),
          },
        },
      },
    },
    async (req) => {
      const { status, page, limit } = req.query;
      let q = db.selectFrom('work_orders as o').where('o.account_id', '=', req.user!.account_id);
      if (status) q = q.where('o.status', '=', status);
      const total = Number((await q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n);
      const rows = await q
        .select([
          'o.id', 'o.type', 'o.title', 'o.status', 'o.created_at',
          sql<number>`(select count(*)::int from work_order_replies r where r.order_id = o.id)`.as('replies'),
          sql<Date | null>`(select max(r.created_at) from work_order_replies r where r.order_id = o.id)`.as('last_reply_at'),
        ])
        .orderBy('o.id', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute();
      const data: WorkOrderSummary[] = rows.map((r) => ({ id: r.id, type: r.type, title: r.title, status: r.status as WorkOrderStatus, replies: Number(r.replies), last_reply_at: iso(r.last_reply_at), created_at: iso(r.created_at)! }));
      return ok(data, { pager: { total, page, pages: Math.max(1, Math.ceil(total / limit)) } });
    },
  );

  app.get<{ Querystring: { id: number } }>(
    '/api/workorder/detail/',
    { config: user, schema: { querystring: { type: 'object', required: ['id'], properties: { id: idProp }, errorMessage: { required: { id: '请指定工单' } } } } },
    async (req) => {
      const o = await owned(req.user!, req.query.id);
      const files = await attachmentsOf(db, o.id);
      const replies = await db.selectFrom('work_order_replies').selectAll().where('order_id', '=', o.id).orderBy('id').execute();
      const strip = ({ reply_id: _r, ...a }: (typeof files)[number]): WorkOrderAttachment => a;
      return ok({
        id: o.id,
        type: o.type,
        title: o.title,
        content: o.content,
        mobile: o.mobile,
        status: o.status as WorkOrderStatus,
        created_at: iso(o.created_at),
        closed_at: iso(o.closed_at),
        attachments: files.filter((f) => f.reply_id === null).map(strip),
        replies: replies.map<WorkOrderReply>((r) => ({
          id: r.id,
          author: r.author as WorkOrderReply['author'],
          author_name: r.author_name,
          content: r.content,
          attachments: files.filter((f) => f.reply_id === r.id).map(strip),
          created_at: iso(r.created_at)!,
        })),
      });
    },
  );

  app.post<{ Body: { id: number; content: string; attachments?: number[] } }>('/api/workorder/reply/', { config: user, schema: { body: replySchema } }, async (req) => {
    const u = req.user!;
    const o = await owned(u, req.body.id);
    if (o.status === 'closed') throw new ApiError(26205, 400);
    const id = await db.transaction().execute(async (trx) => {
      const r = await trx
        .insertInto('work_order_replies')
        .values({ order_id: o.id, author: 'user', user_id: u.id, author_name: u.username, content: req.body.content })
        .returning('id')
        .executeTakeFirstOrThrow();
      await claimAttachments(trx as unknown as DB, u, req.body.attachments ?? [], o.id, r.id);
      await trx.updateTable('work_orders').set({ status: 'pending', updated_at: new Date() }).where('id', '=', o.id).execute();
      return r.id;
    });
    return ok({ id, status: 'pending' as WorkOrderStatus });
  });

  app.post<{ Body: { id: number } }>(
    '/api/workorder/close/',
    { config: user, schema: { body: { type: 'object', required: ['id'], properties: { id: idProp }, errorMessage: { required: { id: '请指定工单' } } } } },
    async (req) => {
      const o = await owned(req.user!, req.body.id);
      if (o.status !== 'closed') await db.updateTable('work_orders').set({ status: 'closed', closed_at: new Date(), updated_at: new Date() }).where('id', '=', o.id).execute();
      return ok({ id: o.id, status: 'closed' as WorkOrderStatus });
    },
  );
}
