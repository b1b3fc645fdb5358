/**
 * E-mail behind the same idea as SMS (src/server/sms/outbox.ts): the embedded default writes every
 * message to the email_outbox table (and the log when LOG_SMS is on), where a person or a test reads
 * it; the same limits as SMS codes (one a minute, ten a day per address: 23701, 23702).
 * Codes sent to a mobile number or an address before there is a session live in contact_codes.
 */
import { randomInt } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { DB } from '../db';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { hashCode } from './passwords';
import { LOGIN_CODE_RESEND_SECONDS, SMS_CODES_PER_DAY } from '../../shared/services';
import { CONTACT_CODE_TTL_SECONDS } from '../../shared/security';
import type { SmsSender } from '../sms/outbox';
import { assertSmsAllowed } from '../sms/outbox';

export interface Mailer {
  send(to: { userId: number | null; email: string }, purpose: string, subject: string, text: string): Promise<void>;
}

export function outboxMailer(db: DB, log: FastifyBaseLogger, logMail: boolean): Mailer {
  return {
    async send(to, purpose, subject, text) {
      await db.insertInto('email_outbox').values({ user_id: to.userId, email: to.email, purpose, subject, text }).execute();
      if (logMail) log.info({ email: { to: to.email, purpose, subject } }, `E-mail to ${to.email}: ${subject}\n${text}`);
    },
  };
}

export async function assertMailAllowed(db: DB, email: string): Promise<void> {
  const row = await db
    .selectFrom('email_outbox')
    .select([
      sql<number>`count(*) filter (where created_at > ${new Date(Date.now() - LOGIN_CODE_RESEND_SECONDS * 1000)})::int`.as('recent'),
      sql<number>`count(*)::int`.as('today'),
    ])
    .where('email', '=', email)
    .where('created_at', '>', new Date(Date.now() - 86_400_000))
    .executeTakeFirstOrThrow();
  if (Number(row.recent) > 0) throw new ApiError(23701, 429);
  if (Number(row.today) >= SMS_CODES_PER_DAY) throw new ApiError(23702, 429);
}

export type CodePurpose = 'register' | 'resetpwd' | 'bind_mobile';
const PURPOSE_TEXT: Record<CodePurpose, string> = { register: '注册', resetpwd: '找回密码', bind_mobile: '绑定手机' };

/** Sends a 6-digit code to a mobile number (SMS) or an address (e-mail), within the limits. */
export async function sendContactCode(db: DB, io: { sms: SmsSender; mail: Mailer }, to: { target: string; userId: number | null; via: 'sms' | 'email' }, purpose: CodePurpose): Promise<void> {
  if (to.via === 'sms') await assertSmsAllowed(db, to.target);
  else await assertMailAllowed(db, to.target);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db
    .insertInto('contact_codes')
    .values({ target: to.target, purpose, code_hash: hashCode(code), expires_at: new Date(Date.now() + CONTACT_CODE_TTL_SECONDS * 1000), used_at: null })
    .execute();
  const text = `【云控制台】您的${PURPOSE_TEXT[purpose]}验证码为 ${code}，${CONTACT_CODE_TTL_SECONDS / 60} 分钟内有效。如非本人操作，请忽略。`;
  if (to.via === 'sms') await io.sms.send({ userId: to.userId, mobile: to.target }, purpose, text);
  else await io.mail.send({ userId: to.userId, email: to.target }, purpose, `${PURPOSE_TEXT[purpose]}验证码`, text);
}

/**
 * Checks and spends the latest code for the target: 21102 wrong (5 tries), 21103 expired. Atomic under
 * concurrency (issue 34 item 8): a try is taken by one UPDATE that counts it only while fewer than 5 were
 * taken, before the code is compared, so 60 concurrent guesses compare at most 5; the right code is spent by
 * an UPDATE that succeeds only while it is unused, so it signs one request through, never two.
 */
export async function spendContactCode(db: DB, target: string, purpose: CodePurpose, code: string): Promise<void> {
  const wrong = () => new ApiError(21102, 400, [{ path: '/code', message: '验证码错误' }]);
  const row = await db
    .updateTable('contact_codes')
    .set({ attempts: sql`attempts + 1` })
    .where('id', '=', (eb) => eb.selectFrom('contact_codes').select('id').where('target', '=', target).where('purpose', '=', purpose).where('used_at', 'is', null).orderBy('id', 'desc').limit(1))
    .where('attempts', '<', 5)
    .where('used_at', 'is', null)
    .returning(['id', 'code_hash', 'expires_at'])
    .executeTakeFirst();
  if (!row) throw wrong();
  if (new Date(row.expires_at).getTime() < Date.now()) throw new ApiError(21103, 400, [{ path: '/code', message: '验证码已过期，请重新获取' }]);
  if (row.code_hash !== hashCode(code)) throw wrong();
  const spent = await db.updateTable('contact_codes').set({ used_at: new Date() }).where('id', '=', row.id).where('used_at', 'is', null).returning('id').executeTakeFirst();
  if (!spent) throw wrong();
}

/** For testers of a demo or test server only (SMS_OUTBOX_API=1): the latest e-mails to an address, and a captcha's answer. */
export function mailOutboxRoutes(app: FastifyInstance, db: DB): void {
  app.get<{ Querystring: { email: string } }>(
    '/api/dev/email_outbox/',
    {
      config: { access: 'public', openapi: { summary: '测试用：某邮箱最近收到的邮件（SMS_OUTBOX_API=1 时才有）' } },
      schema: { querystring: { type: 'object', required: ['email'], properties: { email: { type: 'string', minLength: 3, errorMessage: { minLength: '请填写邮箱' } } }, errorMessage: { required: { email: '请填写邮箱' } } } },
    },
    async (req) => ok(await db.selectFrom('email_outbox').select(['email', 'purpose', 'subject', 'text', 'created_at']).where('email', '=', req.query.email).orderBy('id', 'desc').limit(10).execute()),
  );
  app.get<{ Querystring: { captcha_id: string } }>(
    '/api/dev/captcha/',
    {
      config: { access: 'public', openapi: { summary: '测试用：图形验证码的答案（SMS_OUTBOX_API=1 时才有）' } },
      schema: { querystring: { type: 'object', required: ['captcha_id'], properties: { captcha_id: { type: 'string', minLength: 1, errorMessage: { minLength: '请填写验证码编号' } } }, errorMessage: { required: { captcha_id: '请填写验证码编号' } } } },
    },
    async (req) => {
      const row = await db.selectFrom('captchas').select('dev_answer').where('id', '=', req.query.captcha_id).executeTakeFirst();
      return ok({ answer: row?.dev_answer ?? null });
    },
  );
}
