/**
 * The statistics posts of spec 000 §7: POST /accounts/verify/statistics and /accounts/usage/statistics
 * (`type`), POST /api/buried (`event`). Open to visitors too (the real-name prompt can be shown before
 * a session is complete); a signed-in post is counted for the main account. A number outside the list is refused
 * with the validation error (20001).
 */
import type { FastifyInstance } from 'fastify';
import type { DB } from '../db';
import { ok } from '../http/envelope';
import { EVENT_FAMILIES, type EventFamily } from '../../shared/events';
import { countEvent } from './repo';

const body = (field: 'type' | 'event', family: EventFamily) => ({
  type: 'object',
  required: [field],
  properties: { [field]: { type: 'integer', minimum: 1, maximum: EVENT_FAMILIES[family].names.length } },
});

export function eventRoutes(app: FastifyInstance, db: DB): void {
  const route = (url: string, field: 'type' | 'event', family: EventFamily, summary: string) =>
    app.post<{ Body: Record<string, number> }>(url, { config: { access: 'public', openapi: { summary } }, schema: { body: body(field, family) } }, async (req) => {
      const user = req.user;
      const accountId = user ? user.account_id : 0;
      await countEvent(db, family, req.body[field], accountId);
      return ok();
    });
  route('/accounts/verify/statistics', 'type', 'verify', '实名认证统计事件（type 1–21，见 src/shared/events.ts）');
  route('/accounts/usage/statistics', 'type', 'usage', '服务使用统计事件（type 1–12）');
  route('/api/buried', 'event', 'buried', 'DDoS / SCDN 漏斗事件（event 1–16）');
}
