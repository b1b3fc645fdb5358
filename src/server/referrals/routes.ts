/**
 * Referrals (spec 000 §2.4, §7; docs/referrals.md). Main accounts only.
 *
 *   GET  /api/accounts/invite-url/                          → { invite_code, url, rate, days }
 *   GET  /api/accounts/invitations/   ?limit&since&max → { invitations, pager, total, rebate_total }
 *   POST /api/accounts/invitations/   { limit?, since?, max? } the same list (the spec names both verbs)
 *   GET  /api/accounts/invitations/detail                   ?invitee_id → { invitee, credits }
 *
 * Registration with ?invite=CODE records users.invited_by (src/server/accounts/registration.ts); the
 * rebate rule is ./settle.ts. Refusal: 27651 an invitee that is not the account's.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { DB } from '../db';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { publicLink } from '../http/links';
import { keysetQuery } from '../http/keyset';
import { inviteCodeOf } from '../accounts/registration';
import { settleReferralRebates } from './settle';
import { maskInvitee, REFERRAL_DAYS, REFERRAL_PAGE_SIZE, REFERRAL_RATE, type Invitation, type InvitationDetail, type InviteUrl } from '../../shared/referrals';
import type {} from '../external/tables';
import type {} from '../accounts/tables';

const iso = (d: unknown) => new Date(d as string).toISOString();
const until = (d: unknown) => new Date(new Date(d as string).getTime() + REFERRAL_DAYS * 86400_000).toISOString();

/** The inviter's invitees with the rebate credited for each, before paging. */
const invitationsOf = (db: DB, inviterId: number) =>
  db
    .selectFrom('users as u')
    .leftJoin('referral_credits as rc', (j) => j.onRef('rc.invitee_id', '=', 'u.id').onRef('rc.inviter_id', '=', 'u.invited_by'))
    .select(['u.id', 'u.username', 'u.created_at', 'u.verify_status', sql<string>`coalesce(sum(rc.rebate), 0)`.as('rebate')])
    .where('u.invited_by', '=', inviterId)
    .groupBy(['u.id', 'u.username', 'u.created_at', 'u.verify_status']);

const invitation = (r: { id: number; username: string; created_at: Date | string; verify_status: string; rebate: string }): Invitation => ({
  invitee_id: r.id,
  username: maskInvitee(r.username),
  registered_at: iso(r.created_at),
  verify_status: r.verify_status,
  rebate_until: until(r.created_at),
  rebate: Number(r.rebate),
});

export function referralRoutes(app: FastifyInstance, db: DB): void {
  const main = { access: 'parent' as const };

  app.get('/api/accounts/invite-url/', { config: main }, async (req) => {
    const code = inviteCodeOf(req.user!.account_id);
    const answer: InviteUrl = { invite_code: code, url: publicLink(req, `/register/?invite=${code}`), rate: REFERRAL_RATE, days: REFERRAL_DAYS };
    return ok(answer);
  });

  const pageProps = { limit: { type: 'integer', minimum: 1, maximum: 100 }, since: { type: 'integer', minimum: 0 }, max: { type: 'integer', minimum: 0 } };
  async function list(req: FastifyRequest, p: { limit?: number; since?: number; max?: number }) {
    const accountId = req.user!.account_id;
    await settleReferralRebates(db, accountId);
    const { items, pager } = await keysetQuery(invitationsOf(db, accountId), 'u.id', { limit: p.limit ?? REFERRAL_PAGE_SIZE, since: p.since, max: p.max, order: 'desc' });
    const totals = await db
      .selectFrom('users')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('invited_by', '=', accountId)
      .executeTakeFirstOrThrow();
    const rebate = await db.selectFrom('referral_credits').select(sql<string>`coalesce(sum(rebate), 0)`.as('n')).where('inviter_id', '=', accountId).executeTakeFirstOrThrow();
    return ok({ invitations: items.map(invitation), pager, total: Number(totals.n), rebate_total: Number(rebate.n) });
  }
  // spec 000 §7 names /api/accounts/invitations/ and /api/accounts/invitations: both answer alike
  for (const url of ['/api/accounts/invitations/', '/api/accounts/invitations']) {
    app.get<{ Querystring: { limit?: number; since?: number; max?: number } }>(url, { config: main, schema: { querystring: { type: 'object', properties: pageProps } } }, (req) => list(req, req.query));
    app.post<{ Body: { limit?: number; since?: number; max?: number } }>(url, { config: main, schema: { body: { type: 'object', additionalProperties: false, properties: pageProps } } }, (req) => list(req, req.body ?? {}));
  }

  app.get<{ Querystring: { invitee_id: number } }>(
    '/api/accounts/invitations/detail',
    { config: main, schema: { querystring: { type: 'object', required: ['invitee_id'], properties: { invitee_id: { type: 'integer', minimum: 1 } } } } },
    async (req) => {
      const accountId = req.user!.account_id;
      await settleReferralRebates(db, accountId);
      const found = await invitationsOf(db, accountId).where('u.id', '=', req.query.invitee_id).executeTakeFirst();
      if (!found) throw new ApiError(27651, 404);
      const credits = await db
        .selectFrom('referral_credits as rc')
        .innerJoin('billing_orders as o', 'o.id', 'rc.order_id')
        .select(['o.order_no', 'rc.recharge', 'rc.rebate', 'rc.created_at'])
        .where('rc.inviter_id', '=', accountId)
        .where('rc.invitee_id', '=', found.id)
        .orderBy('rc.id', 'desc')
        .limit(200)
        .execute();
      const answer: InvitationDetail = { invitee: invitation(found), credits: credits.map((c) => ({ order_no: c.order_no, recharge: Number(c.recharge), rebate: Number(c.rebate), created_at: iso(c.created_at) })) };
      return ok(answer);
    },
  );
}
