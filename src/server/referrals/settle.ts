/**
 * The referral rebate rule (docs/referrals.md): the inviter is credited REFERRAL_RATE of every recharge
 * order the invitee pays (billing_orders kind 'recharge', status 'success') within REFERRAL_DAYS of the
 * invitee's registration. Each order is credited once: a referral_credits row per order (unique), and a
 * rebate_credits row (helper B's table, src/server/billing/rebates/; B has no function that adds a credit,
 * so it is inserted the way B's platform command does: source 'referral') which the rebate totals read.
 */
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db';
import { maskInvitee, REFERRAL_DAYS, REFERRAL_RATE } from '../../shared/referrals';
import type {} from '../external/tables';
import type {} from '../billing/money-tables';
import type {} from '../accounts/tables';
import { tickOnce } from '../jobs/once';

const cents = (n: number) => Math.round(n * 100) / 100;

/** Credits every paid, not yet credited recharge of invitees (of one inviter, or all); returns how many. */
export async function settleReferralRebates(db: DB, inviterId?: number): Promise<number> {
  let q = db
    .selectFrom('billing_orders as o')
    .innerJoin('users as u', 'u.id', 'o.account_id')
    .leftJoin('referral_credits as rc', 'rc.order_id', 'o.id')
    .select(['o.id', 'o.order_no', 'o.amount', 'o.paid_at', 'u.id as invitee_id', 'u.username', 'u.created_at', 'u.invited_by'])
    .where('o.kind', '=', 'recharge')
    .where('o.status', '=', 'success')
    .where('u.invited_by', 'is not', null)
    .where('rc.id', 'is', null)
    .where(sql<boolean>`o.paid_at <= u.created_at + make_interval(days => ${REFERRAL_DAYS})`)
    .orderBy('o.id')
    .limit(500);
  if (inviterId !== undefined) q = q.where('u.invited_by', '=', inviterId);
  const due = await q.execute();
  let n = 0;
  for (const o of due) {
    const recharge = Number(o.amount);
    const rebate = cents(recharge * REFERRAL_RATE);
    await db.transaction().execute(async (trx) => {
      const mark = await trx
        .insertInto('referral_credits')
        .values({ order_id: o.id, inviter_id: o.invited_by!, invitee_id: o.invitee_id, recharge: recharge.toFixed(2), rebate: rebate.toFixed(2) })
        .onConflict((oc) => oc.column('order_id').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!mark) return; // credited meanwhile by another sweep
      if (rebate > 0) {
        const credit = await trx
          .insertInto('rebate_credits')
          .values({ account_id: o.invited_by!, amount: rebate.toFixed(2), source: 'referral', remark: `邀请用户 ${maskInvitee(o.username)} 充值 ${recharge.toFixed(2)} 元（订单 ${o.order_no}）` })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx.updateTable('referral_credits').set({ rebate_credit_id: credit.id }).where('id', '=', mark.id).execute();
      }
      n++;
    });
  }
  return n;
}

/** The sweep, every minute (started from src/server/main.ts). */
export function scheduleReferralRebates(db: DB, log: FastifyBaseLogger, everyMs = 60_000): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    tickOnce(db, 'referrals', () => settleReferralRebates(db)) // one server at a time (../jobs/once.ts)
      .then((n) => n && log.info({ credited: n }, 'referral rebates credited'))
      .catch((e) => log.error(e, 'referral rebate sweep failed'))
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
