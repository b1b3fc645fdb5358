/**
 * The popup announcement (spec 000 §3 "popup announcement"; docs/external-products.md): a platform
 * announcement (platform command announcement-add) shown once per user, the newest current one first.
 *
 *   GET  /api/announcements/popup   → data: { id, title, body, link } | null
 *   POST /api/announcements/popup   { id } marks it seen by the user (it does not show again)
 */
import type { FastifyInstance } from 'fastify';
import type { DB } from '../db';
import { ok } from '../http/envelope';
import type { PlatformCommand } from '../platform/command';
import { required } from '../platform/command';
import type {} from './tables';

export async function popupFor(db: DB, userId: number, now = new Date()) {
  const row = await db
    .selectFrom('announcements as a')
    .leftJoin('announcement_views as v', (j) => j.onRef('v.announcement_id', '=', 'a.id').on('v.user_id', '=', userId))
    .select(['a.id', 'a.title', 'a.body', 'a.link'])
    .where('v.user_id', 'is', null)
    .where('a.starts_at', '<=', now)
    .where('a.ends_at', '>', now)
    .orderBy('a.id', 'desc')
    .executeTakeFirst();
  return row ?? null;
}

export function announcementRoutes(app: FastifyInstance, db: DB): void {
  app.get('/api/announcements/popup', { config: { access: 'user' } }, async (req) => ok(await popupFor(db, req.user!.id)));
  app.post<{ Body: { id: number } }>(
    '/api/announcements/popup',
    { config: { access: 'user' }, schema: { body: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'integer', minimum: 1 } } } } },
    async (req) => {
      const exists = await db.selectFrom('announcements').select('id').where('id', '=', req.body.id).executeTakeFirst();
      if (exists) await db.insertInto('announcement_views').values({ announcement_id: exists.id, user_id: req.user!.id }).onConflict((oc) => oc.columns(['announcement_id', 'user_id']).doNothing()).execute();
      return ok({ id: req.body.id });
    },
  );
}

export const announcementCommands: PlatformCommand[] = [
  {
    name: 'announcement-add',
    summary: '发布平台公告（每位用户登录控制台后弹窗显示一次）',
    usage: '--title 标题 --body 内容 [--link /billing/charge/] [--days 7]',
    async run(db, args) {
      const days = Number(args.days ?? 7);
      if (!Number.isFinite(days) || days <= 0 || days > 365) throw new Error('--days 须为 1-365 的天数');
      const link = args.link && args.link !== 'true' ? args.link : null;
      if (link && !/^(\/|https:\/\/)/.test(link)) throw new Error('--link 须为控制台路径（/ 开头）或 https 地址');
      const row = await db
        .insertInto('announcements')
        .values({ title: required(args, 'title'), body: required(args, 'body'), link, ends_at: new Date(Date.now() + days * 86400_000) })
        .returning(['id', 'ends_at'])
        .executeTakeFirstOrThrow();
      return row;
    },
  },
  {
    name: 'announcement-end',
    summary: '提前结束一条平台公告',
    usage: '--id ID',
    async run(db, args) {
      const r = await db.updateTable('announcements').set({ ends_at: new Date() }).where('id', '=', Number(required(args, 'id'))).executeTakeFirst();
      return { ended: Number(r.numUpdatedRows ?? 0) };
    },
  },
];
