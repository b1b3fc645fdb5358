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
import { accountsAnswers } from './answers';
import type { SmsSender } from '../sms/outbox';
import { assertSmsAllowed } from '../sms/outbox';
import { hashCode, hashPassword, verifyPassword } from './passwords';
import { clearSlots, releaseSlot, takeSlot } from './limits';
import { spendCaptcha } from './captcha';
import { endSession, startSession } from './session';
import { findUserForSignin, publicUser, usageOf } from './users';
import { decoyTwoStep } from './decoy';
import { maskMobile } from '../../shared/account';
import { SIGNIN_IP_MAX_FAILURES, SIGNIN_MAX_FAILURES, SIGNIN_WINDOW_MINUTES } from '../../shared/security';

export { SIGNIN_MAX_FAILURES, SIGNIN_WINDOW_MINUTES };
/** A sign-in code is valid this long, and may be tried this many times. */
export const CODE_TTL_SECONDS = 300;
export const CODE_MAX_ATTEMPTS = 5;

interface SigninBody {
  username: string;
  password: string;
  code?: string;
  /** the image captcha (POST /accounts/manmachine/next), needed past the failure limits (21107 with data.captcha_required) */
  captcha_id?: string;
  captcha?: string;
}

/** The counters of docs/security.md "Sign-in": per account (or typed name) and per client address. */
const accountKey = (name: string) => `signin:${name.toLowerCase()}`;
const addressKey = (ip: string) => `signin-ip:${ip}`;
/** Failures of the second step (the SMS code) count apart: the right password clears only the first's (issue 34 item 9). */
const codeKey = (name: string) => `signin-code:${name.toLowerCase()}`;

/** A hash of no one's password: an unknown name costs the same scrypt as a known one (no timing tells). */
let dummyHash: Promise<string> | null = null;
const unknownUserHash = () => (dummyHash ??= hashPassword(`no-such-user-${Math.random()}`));

const codeRequestSchema = {
  ...signinSchema,
  properties: { ...signinSchema.properties, verify_type: { type: 'string', enum: ['sms'], errorMessage: { enum: '不支持的验证方式' } } },
};

/** Only a path of this site may be a post-sign-in destination. */
/**
 * Where the console goes after sign-in: only a path of this console (issue 34 item 10). Browsers read `\`
 * as `/`, so `/\evil.example/` is another site; a control character or a space can hide the same. The
 * value must resolve, against this console's origin, to this origin with the same path as written.
 */
export function safeFrom(from: unknown): string | undefined {
  if (typeof from !== 'string' || from.length > 2048) return undefined;
  if (!from.startsWith('/') || from.startsWith('//') || /[\\\u0000-\u0020\u007f]/.test(from)) return undefined;
  try {
    const base = 'http://console.invalid';
    const url = new URL(from, base);
    return url.origin === base ? from : undefined;
  } catch {
    return undefined;
  }
}

export function accountRoutes(app: FastifyInstance, db: DB, config: ServerConfig, sms: SmsSender): void {
  async function recordAttempt(req: FastifyRequest, username: string, okFlag: boolean) {
    await db.insertInto('signin_attempts').values({ username: username.toLowerCase(), ip: req.ip, ok: okFlag }).execute();
  }

  /**
   * Checks name and password (docs/security.md "Sign-in"). Before any password is checked, one slot is
   * taken on the account's counter (whatever name, e-mail or mobile was typed) and one on the client
   * address's, each by a single atomic statement. Within both limits the password is checked; past
   * either, only a request that carries a solved image captcha is (21107 asks for it, 21102 refuses a
   * wrong one), so the owner is never locked out and a guesser pays a captcha per guess. A wrong
   * password keeps both slots (they are the failures); the right one clears the account's counter
   * and gives the address's slot back. Unknown names are hashed against a dummy hash, as long as a
   * known one takes.
   */
  async function authenticate(req: FastifyRequest, body: SigninBody) {
    let captchaSolved = false;
    const typed = body.username.trim();
    const user = await findUserForSignin(db, typed);
    const key = user ? user.username : typed;
    const window = SIGNIN_WINDOW_MINUTES * 60;
    const account = await takeSlot(db, accountKey(key), SIGNIN_MAX_FAILURES, window);
    const address = await takeSlot(db, addressKey(req.ip), SIGNIN_IP_MAX_FAILURES, window);
    if (!account.allowed || !address.allowed) {
      if (!body.captcha_id || !body.captcha) {
        // nothing was checked: the slots are given back, and the answer asks for the captcha
        await releaseSlot(db, accountKey(key));
        await releaseSlot(db, addressKey(req.ip));
        throw new ApiError(21107, 429, undefined, { captcha_required: true });
      }
      try {
        await spendCaptcha(db, body.captcha_id, body.captcha);
      } catch (e) {
        await releaseSlot(db, accountKey(key));
        await releaseSlot(db, addressKey(req.ip));
        throw e;
      }
      captchaSolved = true;
    }
    const good = await verifyPassword(body.password, user ? user.password_hash : await unknownUserHash());
    if (!user || !good) {
      await recordAttempt(req, key, false);
      throw new ApiError(21108, 400);
    }
    await clearSlots(db, accountKey(key));
    await releaseSlot(db, addressKey(req.ip));
    if (user.status === 'frozen' || user.status === 'blocked') throw new ApiError(21104, 403);
    if (user.status === 'disabled') throw new ApiError(41014, 403);
    // registered, e-mail link not opened yet (src/server/accounts/registration.ts)
    if (user.status === 'inactive') throw new ApiError(21113, 403);
    if (user.parent_id !== null) {
      // a sub-account cannot sign in while its main account is frozen or blocked
      const parent = await db.selectFrom('users').select('status').where('id', '=', user.parent_id).executeTakeFirst();
      if (!parent || parent.status === 'frozen' || parent.status === 'blocked') throw new ApiError(21104, 403);
    }
    return { user, username: key, captchaSolved };
  }

  /**
   * The second step's code (issue 34 items 8 and 9). A slot is taken on the account's code counter, which
   * the right password does not clear: past SIGNIN_MAX_FAILURES wrong codes the captcha is asked for (unless
   * this request solved one already for the password). The code's try is taken by one UPDATE that counts it
   * only below CODE_MAX_ATTEMPTS, and the right code spent by one that succeeds only while it is unused.
   */
  async function checkSigninCode(req: FastifyRequest, body: SigninBody, userId: number, username: string, captchaSolved: boolean) {
    const code = body.code ?? '';
    if (!code) throw new ApiError(21109, 400);
    const slot = await takeSlot(db, codeKey(username), SIGNIN_MAX_FAILURES, SIGNIN_WINDOW_MINUTES * 60);
    if (!slot.allowed && !captchaSolved) {
      if (!body.captcha_id || !body.captcha) {
        await releaseSlot(db, codeKey(username));
        throw new ApiError(21107, 429, undefined, { captcha_required: true });
      }
      try {
        await spendCaptcha(db, body.captcha_id, body.captcha);
      } catch (e) {
        await releaseSlot(db, codeKey(username));
        throw e;
      }
    }
    const failed = async () => {
      await recordAttempt(req, username, false);
      return new ApiError(21102, 400);
    };
    const row = await db
      .updateTable('verification_codes')
      .set({ attempts: sql`attempts + 1` })
      .where('id', '=', (eb) => eb.selectFrom('verification_codes').select('id').where('user_id', '=', userId).where('purpose', '=', 'signin').where('used_at', 'is', null).orderBy('id', 'desc').limit(1))
      .where('attempts', '<', CODE_MAX_ATTEMPTS)
      .where('used_at', 'is', null)
      .returning(['id', 'code_hash', 'expires_at'])
      .executeTakeFirst();
    if (!row) throw await failed();
    if (new Date(row.expires_at).getTime() < Date.now()) throw new ApiError(21103, 400);
    if (row.code_hash !== hashCode(code)) throw await failed();
    const spent = await db.updateTable('verification_codes').set({ used_at: new Date() }).where('id', '=', row.id).where('used_at', 'is', null).returning('id').executeTakeFirst();
    if (!spent) throw await failed();
    await clearSlots(db, codeKey(username));
  }

  app.get<{ Querystring: { username?: string } }>(
    '/accounts/two_step_verify/status/',
    { config: { access: 'public' }, schema: { querystring: { type: 'object', properties: { username: { type: 'string' } } } } },
    async (req) => {
      const name = (req.query.username ?? '').trim();
      const user = name ? await findUserForSignin(db, name) : undefined;
      // an unknown name answers as an account would (./decoy.ts): the answer does not tell who exists
      if (!user) return ok(undefined, { result: name ? await decoyTwoStep(db, name) : false });
      return ok(undefined, { result: Boolean(user.two_step && user.mobile) });
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
      const { user, username, captchaSolved } = await authenticate(req, req.body);
      if (user.two_step && user.mobile) await checkSigninCode(req, req.body, user.id, username, captchaSolved);
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

  // who is signed in, for the console's first screen: a visitor is an answer (data and user null), not
  // a 401 the browser would log as an error on the login page (issue 20 item 13); the same shape as usage
  app.get(
    '/api/accounts/session/',
    {
      config: { access: 'public', openapi: { summary: '当前会话：已登录时为当前用户与账户余额，未登录时 data 与 user 为 null' } },
      schema: { response: { 200: accountsAnswers['GET /api/accounts/v2/usage/'] } },
    },
    async (req) => {
      const user = req.user;
      if (!user) return ok(null, { user: null });
      return ok(await usageOf(db, user.account_id), { user: publicUser(user) });
    },
  );
}
