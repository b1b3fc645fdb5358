/**
 * Sign-in with two-step verification, sign-out, the current user and usage (spec 000 §2.2, §4, §7).
 */
import { randomInt } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import signinSchema from '../../../schemas/forms/signin/schema.json';
import type { DB } from '../db';
import type { ServerConfig } from '../config';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import type { SmsSender } from '../sms/outbox';
import { assertSmsAllowed } from '../sms/outbox';
import { hashCode, verifyPassword } from './passwords';
import { endSession, startSession } from './session';
import { findUserForSignin, publicUser, usageOf } from './users';
import { maskMobile } from '../../shared/account';

/** Failed attempts per account name within the window before sign-in is refused (21107). */
export const SIGNIN_MAX_FAILURES = 10;
export const SIGNIN_WINDOW_MINUTES = 15;
/** A sign-in code is valid this long, and may be tried this many times. */
export const CODE_TTL_SECONDS = 300;
export const CODE_MAX_ATTEMPTS = 5;

interface SigninBody {
  username: string;
  password: string;
  code?: string;
}

const codeRequestSchema = {
  ...signinSchema,
  properties: { ...signinSchema.properties, verify_type: { type: 'string', enum: ['sms'], errorMessage: { enum: '不支持的验证方式' } } },
};

/** Only a path of this site may be a post-sign-in destination. */
function safeFrom(from: unknown): string | undefined {
  if (typeof from !== 'string') return undefined;
  return from.startsWith('/') && !from.startsWith('//') ? from : undefined;
}

export function accountRoutes(app: FastifyInstance, db: DB, config: ServerConfig, sms: SmsSender): void {
  async function assertNotThrottled(username: string) {
    const row = await db
      .selectFrom('signin_attempts')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('username', '=', username.toLowerCase())
      .where('ok', '=', false)
      .where('created_at', '>', new Date(Date.now() - SIGNIN_WINDOW_MINUTES * 60_000))
      .executeTakeFirstOrThrow();
    if (Number(row.n) >= SIGNIN_MAX_FAILURES) throw new ApiError(21107, 429);
  }

  async function recordAttempt(req: FastifyRequest, username: string, okFlag: boolean) {
    await db.insertInto('signin_attempts').values({ username: username.toLowerCase(), ip: req.ip, ok: okFlag }).execute();
  }

  /**
   * Checks name and password; counts a failure. Failures are counted per account (whatever name,
   * e-mail or mobile was typed) and per typed name, so switching the login name does not reset the limit.
   */
  async function authenticate(req: FastifyRequest, body: SigninBody) {
    const typed = body.username.trim();
    const user = await findUserForSignin(db, typed);
    const key = user ? user.username : typed;
    await assertNotThrottled(key);
    if (key !== typed) await assertNotThrottled(typed);
    if (!user || !(await verifyPassword(body.password, user.password_hash))) {
      await recordAttempt(req, key, false);
      throw new ApiError(21108, 400);
    }
    if (user.status === 'frozen' || user.status === 'blocked') throw new ApiError(21104, 403);
    if (user.status === 'disabled') throw new ApiError(41014, 403);
    // registered, e-mail link not opened yet (src/server/accounts/registration.ts)
    if (user.status === 'inactive') throw new ApiError(21113, 403);
    if (user.parent_id !== null) {
      // a sub-account cannot sign in while its main account is frozen or blocked
      const parent = await db.selectFrom('users').select('status').where('id', '=', user.parent_id).executeTakeFirst();
      if (!parent || parent.status === 'frozen' || parent.status === 'blocked') throw new ApiError(21104, 403);
    }
    return { user, username: key };
  }

  app.get<{ Querystring: { username?: string } }>(
    '/accounts/two_step_verify/status/',
    { config: { access: 'public' }, schema: { querystring: { type: 'object', properties: { username: { type: 'string' } } } } },
    async (req) => {
      const name = (req.query.username ?? '').trim();
      const user = name ? await findUserForSignin(db, name) : undefined;
      return ok(undefined, { result: Boolean(user?.two_step && user.mobile) });
    },
  );

  app.put<{ Body: SigninBody & { verify_type?: string } }>(
    '/accounts/two_step_verify/code',
    { config: { access: 'public' }, schema: { body: codeRequestSchema } },
    async (req) => {
      const { user } = await authenticate(req, req.body);
      if (!user.two_step || !user.mobile) throw new ApiError(21111, 400);
      await assertSmsAllowed(db, user.mobile);
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await db
        .insertInto('verification_codes')
        .values({ user_id: user.id, purpose: 'signin', code_hash: hashCode(code), expires_at: new Date(Date.now() + CODE_TTL_SECONDS * 1000) })
        .execute();
      await sms.send({ userId: user.id, mobile: user.mobile }, 'signin', `【云控制台】您的登录验证码为 ${code}，5 分钟内有效。如非本人操作，请忽略本短信。`);
      return ok(undefined, { mobile: maskMobile(user.mobile) });
    },
  );

  app.post<{ Body: SigninBody; Querystring: Record<string, string> }>(
    '/accounts/signin/',
    { config: { access: 'public' }, schema: { body: signinSchema } },
    async (req, reply) => {
      // a test login (sales staff entering a customer's console) needs a sales permission no console user holds (spec 000 §6)
      if ((req.query as Record<string, unknown>)?.test_login !== undefined) throw new ApiError(21001, 403);
      const { user, username } = await authenticate(req, req.body);
      if (user.two_step && user.mobile) {
        const code = req.body.code ?? '';
        if (!code) throw new ApiError(21109, 400);
        const row = await db
          .selectFrom('verification_codes')
          .selectAll()
          .where('user_id', '=', user.id)
          .where('purpose', '=', 'signin')
          .where('used_at', 'is', null)
          .orderBy('id', 'desc')
          .executeTakeFirst();
        if (!row || row.attempts >= CODE_MAX_ATTEMPTS) {
          await recordAttempt(req, username, false);
          throw new ApiError(21102, 400);
        }
        if (new Date(row.expires_at).getTime() < Date.now()) throw new ApiError(21103, 400);
        if (row.code_hash !== hashCode(code)) {
          await db.updateTable('verification_codes').set({ attempts: sql`attempts + 1` }).where('id', '=', row.id).execute();
          await recordAttempt(req, username, false);
          throw new ApiError(21102, 400);
        }
        await db.updateTable('verification_codes').set({ used_at: new Date() }).where('id', '=', row.id).execute();
      }
      await recordAttempt(req, username, true);
      await startSession(db, config, reply, req, user.id);
      const from = safeFrom((req.query as Record<string, unknown>)?.from);
      return ok(undefined, { user: publicUser(user), ...(from ? { from } : {}) });
    },
  );

  const signout = async (req: FastifyRequest, reply: import('fastify').FastifyReply) => {
    await endSession(db, reply, req);
    if (req.method === 'GET') return reply.redirect('/login/');
    return ok();
  };
  app.get('/accounts/signout/', { config: { access: 'public' } }, signout);
  app.post('/accounts/signout/', { config: { access: 'public' } }, signout);

  app.get('/api/accounts/v2/usage/', { config: { access: 'user' } }, async (req) => {
    const user = req.user!;
    return ok(await usageOf(db, user.account_id), { user: publicUser(user) });
  });
}
