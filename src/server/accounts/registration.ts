/**
 * The entry pages' calls (spec 000 §2.1, §7): the human check, name checks, registration with an SMS
 * code and e-mail activation, and lost password.
 *
 *   POST /accounts/manmachine/next              → data {captcha_id, image}: a new image captcha
 *   GET  /accounts/captcha/image                → the same; PUT /accounts/captcha/image/ {captcha_id?}: another in its place
 *   GET  /accounts/register_check/              ?check_type=username|email|mobile&check_value → result: taken
 *   PUT  /accounts/verify_mobile/code/          {mobile, captcha_id, captcha}: registration code by SMS (POST too)
 *   POST /accounts/register/                    {username, password, email, mobile, code, invite?, referer?} → data {email, maiLoginUrl}
 *   PUT  /api/accounts/authentication/email/    {callback}: (re)send the activation link of the signed-in user's address
 *   POST /accounts/authentication/email/        {token, account_id}: the link's page activates
 *   PUT  /accounts/resetpwd/code/               {account, via sms|email, captcha_id, captcha} → mobile or email (masked)
 *   POST /accounts/resetpwd/                    {account, code, password}
 *
 * A registered account is `inactive` until its e-mail link is opened; sign-in answers 21113 until then.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import registerSchema from '../../../schemas/forms/register/schema.json';
import lostSchema from '../../../schemas/forms/lost_password/schema.json';
import type { DB } from '../db';
import type { ServerConfig } from '../config';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { publicLink } from '../http/links';
import type { SmsSender } from '../sms/outbox';
import { hashCode, hashPassword, randomToken } from './passwords';
import { newCaptcha, spendCaptcha } from './captcha';
import { assertMailAllowed, sendContactCode, spendContactCode, type Mailer } from './mail';
import { findUserForSignin } from './users';
import { decoyContact } from './decoy';
import { maskMobile } from '../../shared/account';
import { ACTIVATION_TTL_HOURS, REGISTER_CHECK_MAX_PER_IP, REGISTER_CHECK_WINDOW_MINUTES, mailLoginUrl, maskMiddle } from '../../shared/security';
import { takeSlot } from './limits';

const R = registerSchema.properties;
const L = lostSchema.properties;
const objectMessages = { type: '请求内容须为 JSON 对象', additionalProperties: '包含不支持的字段' };
const captchaProps = { captcha_id: { type: 'string', minLength: 1, errorMessage: { type: '验证码错误', minLength: '验证码错误' } }, captcha: R.captcha };

/** The invite code of an account, as the referral pages will show it; and back. */
export function inviteCodeOf(userId: number): string {
  return (100000 + userId).toString(36).toUpperCase();
}
export function inviterOf(code: string): number | null {
  const n = parseInt(code, 36);
  return /^[0-9A-Za-z]{1,12}$/.test(code) && Number.isSafeInteger(n) && n > 100000 && n - 100000 <= 2_147_483_647 ? n - 100000 : null;
}

/** The activation link: the callback with {token} and {account_id} filled, on this site. */
export function activationLink(req: FastifyRequest, callback: string, token: string, accountId: number): string {
  const path = callback.replace('{token}', encodeURIComponent(token)).replace('{account_id}', String(accountId));
  return publicLink(req, path);
}

export const DEFAULT_ACTIVATION_CALLBACK = '/register/activate/?token={token}&account_id={account_id}';
export const callbackProp = {
  type: 'string',
  maxLength: 300,
  // a path of this site that carries both placeholders
  pattern: '^/(?!/).*\\{token\\}.*$',
  errorMessage: { type: '回调地址须为本站路径，并包含 {token} 与 {account_id}', maxLength: '回调地址过长', pattern: '回调地址须为本站路径，并包含 {token} 与 {account_id}' },
};

/** Writes a token and e-mails the activation link to the user's address. */
export async function sendActivation(db: DB, mail: Mailer, req: FastifyRequest, user: { id: number; username: string; email: string }, callback = DEFAULT_ACTIVATION_CALLBACK): Promise<void> {
  if (!callback.includes('{account_id}')) throw new ApiError(20001, 400, [{ path: '/callback', message: callbackProp.errorMessage.pattern }]);
  const token = randomToken(24);
  await db
    .insertInto('email_tokens')
    .values({ user_id: user.id, email: user.email, token_hash: hashCode(token), expires_at: new Date(Date.now() + ACTIVATION_TTL_HOURS * 3600_000), used_at: null })
    .execute();
  const link = activationLink(req, callback, token, user.id);
  await mail.send(
    { userId: user.id, email: user.email },
    'activate',
    '请激活您的云控制台账号邮箱',
    `您好，${user.username}：\n\n请在 ${ACTIVATION_TTL_HOURS} 小时内打开下面的链接完成邮箱验证：\n${link}\n\n如非本人操作，请忽略本邮件。`,
  );
}

export async function contactTaken(db: DB, column: 'username' | 'email' | 'mobile', value: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('users').select('id').where(sql`lower(${sql.ref(column)})`, '=', value.trim().toLowerCase());
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return Boolean(await q.executeTakeFirst());
}

export function registrationRoutes(app: FastifyInstance, db: DB, config: ServerConfig, sms: SmsSender, mail: Mailer): void {
  app.post('/accounts/manmachine/next', { config: { access: 'public', openapi: { summary: '人机验证：下一张图形验证码（4 位数字，5 分钟内有效，校验一次即作废）' } } }, async () =>
    ok(await newCaptcha(db, config.smsOutboxApi)),
  );

  // the image captcha by the paths of spec 000 §7: GET a new one; PUT another in place of one shown (换一张),
  // which can then no longer be answered
  app.get('/accounts/captcha/image', { config: { access: 'public', openapi: { summary: '图形验证码：新的一张（同 POST /accounts/manmachine/next）' } } }, async () =>
    ok(await newCaptcha(db, config.smsOutboxApi)),
  );
  app.put<{ Body: { captcha_id?: string } }>(
    '/accounts/captcha/image/',
    {
      config: { access: 'public', openapi: { summary: '换一张图形验证码：作废 captcha_id 指定的那张，返回新的一张' } },
      schema: { body: { type: 'object', additionalProperties: false, properties: { captcha_id: { type: 'string', maxLength: 64 } } } },
    },
    async (req) => {
      if (req.body?.captcha_id) await db.updateTable('captchas').set({ used_at: new Date() }).where('id', '=', req.body.captcha_id).where('used_at', 'is', null).execute();
      return ok(await newCaptcha(db, config.smsOutboxApi));
    },
  );

  app.get<{ Querystring: { check_type: 'username' | 'email' | 'mobile'; check_value: string } }>(
    '/accounts/register_check/',
    {
      config: { access: 'public', openapi: { summary: '注册前检查账号、邮箱或手机号是否已被使用（result 为 true 表示已存在）；每个地址 15 分钟内最多 100 次', errors: { 429: '21133 查询过于频繁' } } },
      schema: {
        querystring: {
          type: 'object',
          required: ['check_type', 'check_value'],
          properties: {
            check_type: { type: 'string', enum: ['username', 'email', 'mobile'], errorMessage: { enum: '检查类型只能是 username、email 或 mobile' } },
            check_value: { type: 'string', minLength: 1, maxLength: 100, errorMessage: { minLength: '请填写要检查的内容', maxLength: '请填写要检查的内容' } },
          },
          errorMessage: { required: { check_type: '检查类型只能是 username、email 或 mobile', check_value: '请填写要检查的内容' } },
        },
      },
    },
    async (req) => {
      // an oracle of which names exist: limited per client address (docs/security.md), 21133 past the limit
      const slot = await takeSlot(db, `register-check:${req.ip}`, REGISTER_CHECK_MAX_PER_IP, REGISTER_CHECK_WINDOW_MINUTES * 60);
      if (!slot.allowed) throw new ApiError(21133, 429);
      return ok(undefined, { result: await contactTaken(db, req.query.check_type, req.query.check_value) });
    },
  );

  // spec 000 §7 names PUT and POST for the mobile code
  for (const verb of ['put', 'post'] as const) app[verb]<{ Body: { mobile: string; captcha_id: string; captcha: string } }>(
    '/accounts/verify_mobile/code/',
    {
      config: { access: 'public', openapi: { summary: '注册：校验图形验证码后向手机号发送短信验证码（60 秒一次，每天 10 次）' } },
      schema: { body: { type: 'object', required: ['mobile', 'captcha_id', 'captcha'], additionalProperties: false, properties: { mobile: R.mobile, ...captchaProps }, errorMessage: { ...objectMessages, required: { mobile: '请输入手机号', captcha_id: '验证码错误', captcha: '请输入图形验证码' } } } },
    },
    async (req) => {
      await spendCaptcha(db, req.body.captcha_id, req.body.captcha);
      if (await contactTaken(db, 'mobile', req.body.mobile)) throw new ApiError(21116, 400, [{ path: '/mobile', message: '该手机号已被使用' }]);
      await sendContactCode(db, { sms, mail }, { target: req.body.mobile, userId: null, via: 'sms' }, 'register');
      return ok(undefined, { mobile: maskMobile(req.body.mobile) });
    },
  );

  const registerBody = registerSchema;
  app.post<{ Body: { username: string; password: string; email: string; mobile: string; code: string; invite?: string; referer?: string } }>(
    '/accounts/register/',
    { config: { access: 'public', openapi: { summary: '注册：短信验证码正确后创建账号（待邮箱激活），并发送激活邮件' } }, schema: { body: registerBody } },
    async (req) => {
      const b = req.body;
      const errors = [];
      if (await contactTaken(db, 'username', b.username)) errors.push({ path: '/username', message: '该账号已存在，请重新输入', code: 21100 });
      if (await contactTaken(db, 'email', b.email)) errors.push({ path: '/email', message: '该邮箱已被使用', code: 21115 });
      if (await contactTaken(db, 'mobile', b.mobile)) errors.push({ path: '/mobile', message: '该手机号已被使用', code: 21116 });
      if (errors.length) throw new ApiError(errors[0].code, 400, errors);
      let invitedBy: number | null = null;
      if (b.invite) {
        const id = inviterOf(b.invite);
        const inviter = id ? await db.selectFrom('users').select(['id']).where('id', '=', id).where('parent_id', 'is', null).executeTakeFirst() : undefined;
        if (!inviter) throw new ApiError(21119, 400, [{ path: '/invite', message: '邀请码无效' }]);
        invitedBy = inviter.id;
      }
      await spendContactCode(db, b.mobile, 'register', b.code);
      const user = await db
        .insertInto('users')
        .values({
          username: b.username,
          email: b.email.trim(),
          mobile: b.mobile,
          password_hash: await hashPassword(b.password),
          status: 'inactive',
          parent_id: null,
          permissions: '[]',
          email_verified: false,
          mobile_verified: true,
          invited_by: invitedBy,
          invite_code: b.invite || null,
          register_referer: b.referer || null,
        })
        .returning(['id', 'username', 'email'])
        .executeTakeFirstOrThrow();
      await sendActivation(db, mail, req, { id: user.id, username: user.username, email: user.email! });
      return ok({ email: user.email, maiLoginUrl: mailLoginUrl(user.email!) });
    },
  );

  app.put<{ Body: { callback?: string } }>(
    '/api/accounts/authentication/email/',
    {
      config: { access: 'parent', openapi: { summary: '发送（或重发）邮箱验证链接；callback 为本站路径，{token} 与 {account_id} 会被替换' } },
      schema: { body: { type: 'object', additionalProperties: false, properties: { callback: callbackProp }, errorMessage: objectMessages } },
    },
    async (req) => {
      const u = await db.selectFrom('users').select(['id', 'username', 'email', 'email_verified']).where('id', '=', req.user!.id).executeTakeFirstOrThrow();
      if (!u.email) throw new ApiError(21118, 400);
      if (u.email_verified) throw new ApiError(21131, 400);
      await assertMailAllowed(db, u.email);
      await sendActivation(db, mail, req, { id: u.id, username: u.username, email: u.email }, req.body?.callback);
      return ok({ email: u.email, maiLoginUrl: mailLoginUrl(u.email) });
    },
  );

  app.post<{ Body: { token: string; account_id: number } }>(
    '/accounts/authentication/email/',
    {
      config: { access: 'public', openapi: { summary: '打开激活链接：验证邮箱；注册后待激活的账号从此可以登录' } },
      schema: {
        body: {
          type: 'object',
          required: ['token', 'account_id'],
          additionalProperties: false,
          properties: { token: { type: 'string', minLength: 1, maxLength: 100, errorMessage: { type: '激活链接无效或已过期', minLength: '激活链接无效或已过期', maxLength: '激活链接无效或已过期' } }, account_id: { type: 'integer', minimum: 1, errorMessage: { type: '激活链接无效或已过期', minimum: '激活链接无效或已过期' } } },
          errorMessage: { ...objectMessages, required: { token: '激活链接无效或已过期', account_id: '激活链接无效或已过期' } },
        },
      },
    },
    async (req) => {
      const row = await db
        .selectFrom('email_tokens as t')
        .innerJoin('users as u', 'u.id', 't.user_id')
        .select(['t.id', 't.email', 't.expires_at', 't.used_at', 'u.email as current', 'u.status', 'u.username'])
        .where('t.user_id', '=', req.body.account_id)
        .where('t.token_hash', '=', hashCode(req.body.token))
        .executeTakeFirst();
      // a link for an address the account no longer has is as dead as an expired one
      if (!row || row.used_at || new Date(row.expires_at).getTime() < Date.now() || row.current !== row.email) throw new ApiError(21117, 400);
      await db.transaction().execute(async (tx) => {
        await tx.updateTable('email_tokens').set({ used_at: new Date() }).where('id', '=', row.id).execute();
        await tx
          .updateTable('users')
          .set({ email_verified: true, ...(row.status === 'inactive' ? { status: 'normal' } : {}) })
          .where('id', '=', req.body.account_id)
          .execute();
      });
      return ok({ email: row.email, username: row.username });
    },
  );

  app.put<{ Body: { account: string; via?: 'sms' | 'email'; captcha_id: string; captcha: string } }>(
    '/accounts/resetpwd/code/',
    {
      config: { access: 'public', openapi: { summary: '找回密码：校验图形验证码后向账号绑定的手机或邮箱发送验证码' } },
      schema: { body: { type: 'object', required: ['account', 'captcha_id', 'captcha'], additionalProperties: false, properties: { account: L.account, via: L.via, ...captchaProps }, errorMessage: { ...objectMessages, required: { account: '请输入账号/邮箱/手机号', captcha_id: '验证码错误', captcha: '请输入图形验证码' } } } },
    },
    async (req) => {
      await spendCaptcha(db, req.body.captcha_id, req.body.captcha);
      const via = req.body.via ?? 'sms';
      const user = await findUserForSignin(db, req.body.account.trim());
      // no such main account: answered as if a code were sent, to a made-up masked contact (./decoy.ts)
      if (!user || user.parent_id !== null) return ok(undefined, await decoyContact(db, req.body.account, via));
      const target = via === 'sms' ? user.mobile : user.email;
      if (!target) throw new ApiError(21132, 400, [{ path: '/via', message: via === 'sms' ? '该账号未绑定手机号，请选择邮箱验证' : '该账号未绑定邮箱，请选择短信验证' }]);
      await sendContactCode(db, { sms, mail }, { target, userId: user.id, via }, 'resetpwd');
      return ok(undefined, via === 'sms' ? { mobile: maskMobile(target) } : { email: maskMiddle(target) });
    },
  );

  app.post<{ Body: { account: string; via?: 'sms' | 'email'; code: string; password: string } }>(
    '/accounts/resetpwd/',
    {
      config: { access: 'public', openapi: { summary: '找回密码：验证码正确后设置新密码，并结束该账号的所有登录' } },
      schema: { body: { type: 'object', required: ['account', 'code', 'password'], additionalProperties: false, properties: { account: L.account, via: L.via, code: L.code, password: L.password }, errorMessage: { ...objectMessages, required: { account: '请输入账号/邮箱/手机号', code: '请输入验证码', password: '密码不能为空' } } } },
    },
    async (req) => {
      const user = await findUserForSignin(db, req.body.account.trim());
      // no such main account: a wrong code, as for an account (./decoy.ts)
      if (!user || user.parent_id !== null) throw new ApiError(21102, 400, [{ path: '/code', message: '验证码错误' }]);
      const target = (req.body.via ?? 'sms') === 'sms' ? user.mobile : user.email;
      if (!target) throw new ApiError(21102, 400, [{ path: '/code', message: '验证码错误' }]);
      await spendContactCode(db, target, 'resetpwd', req.body.code);
      const hash = await hashPassword(req.body.password);
      await db.transaction().execute(async (tx) => {
        await tx.updateTable('users').set({ password_hash: hash }).where('id', '=', user.id).execute();
        await tx.deleteFrom('sessions').where('user_id', '=', user.id).execute();
      });
      return ok();
    },
  );
}
