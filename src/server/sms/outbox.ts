/**
 * SMS sending behind a small interface. The embedded default writes every message to the
 * sms_outbox table and to the server log, where a person (or a test) reads the code.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { ok } from '../http/envelope';
import { sql } from 'kysely';
import type { DB } from '../db';
import { ApiError } from '../http/errors';
import { LOGIN_CODE_RESEND_SECONDS, SMS_CODES_PER_DAY } from '../../shared/services';

export interface SmsSender {
  send(to: { userId: number | null; mobile: string }, purpose: string, text: string): Promise<void>;
}

export function outboxSender(db: DB, log: FastifyBaseLogger, logSms: boolean): SmsSender {
  return {
    async send(to, purpose, text) {
      await db.insertInto('sms_outbox').values({ user_id: to.userId, mobile: to.mobile, purpose, text }).execute();
      if (logSms) log.info({ sms: { mobile: to.mobile, purpose, text } }, `SMS to ${to.mobile}: ${text}`);
    },
  };
}

/** The limits of spec 000 (237xx): one message a minute, ten a day, per mobile number. */
export async function assertSmsAllowed(db: DB, mobile: string): Promise<void> {
  const row = await db
    .selectFrom('sms_outbox')
    .select([
      sql<number>`count(*) filter (where created_at > ${new Date(Date.now() - LOGIN_CODE_RESEND_SECONDS * 1000)})::int`.as('recent'),
      sql<number>`count(*)::int`.as('today'),
    ])
    .where('mobile', '=', mobile)
    .where('created_at', '>', new Date(Date.now() - 86_400_000))
    .executeTakeFirstOrThrow();
  if (Number(row.recent) > 0) throw new ApiError(23701, 429);
  if (Number(row.today) >= SMS_CODES_PER_DAY) throw new ApiError(23702, 429);
}

/** For testers of a demo or test server only (SMS_OUTBOX_API=1): the latest messages to a number. */
export function outboxRoutes(app: FastifyInstance, db: DB): void {
  app.get<{ Querystring: { mobile: string } }>(
    '/api/dev/sms_outbox/',
    {
      config: { access: 'public' },
      schema: { querystring: { type: 'object', required: ['mobile'], properties: { mobile: { type: 'string', pattern: '^\\d{11}$', errorMessage: { pattern: '请填写 11 位手机号' } } }, errorMessage: { required: { mobile: '请填写 11 位手机号' } } } },
    },
    async (req) => ok(await db.selectFrom('sms_outbox').select(['mobile', 'purpose', 'text', 'created_at']).where('mobile', '=', req.query.mobile).orderBy('id', 'desc').limit(10).execute()),
  );
}
