/**
 * The security page, the profile and real-name verification (spec 000 §2.4, §2.7, §5, §7), main accounts only.
 *
 *   GET  /api/accounts/security/                  → data: mobile (masked), mobile_verified, email, email_verified, two_step
 *   POST /api/accounts/password/                  {old_password, password}
 *   PUT  /api/accounts/authentication/mobile/     {mobile}: a code to the new number (POST too)
 *   POST /api/accounts/mobile/                    {mobile, code}
 *   POST /api/accounts/email/                     {email, callback?}: the new address, unverified until its link is opened
 *   POST /api/accounts/two_step_verify/status     {status: enable|disable}: needs a verified mobile and e-mail (21118)
 *   GET  /accounts/profile/                       → data: the account, its profile fields and verification
 *   POST /accounts/profile/                       the profile declaration's fields
 *   POST /accounts/identity/certificate/          multipart: kind, the declaration's fields, photos (checked by content, ≤ 5 MB)
 *   GET  /api/accounts/certificate/               → data: VerificationInfo
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import passwordSchema from '../../../schemas/forms/change_password/schema.json';
import mobileSchema from '../../../schemas/forms/bind_mobile/schema.json';
import emailSchema from '../../../schemas/forms/bind_email/schema.json';
import profileSchema from '../../../schemas/forms/profile/schema.json';
import personalSchema from '../../../schemas/forms/verify_personal/schema.json';
import companySchema from '../../../schemas/forms/verify_company/schema.json';
import { createAjv } from '../../../schemas/vocabulary';
import { toFieldErrors } from '../../../schemas/errors';
import type { DB } from '../db';
import type { ServerConfig } from '../config';
import { ApiError, VALIDATION_ERROR } from '../http/errors';
import { ok } from '../http/envelope';
import type { SmsSender } from '../sms/outbox';
import { hashPassword, verifyPassword } from './passwords';
import { sendContactCode, spendContactCode, type Mailer } from './mail';
import { callbackProp, contactTaken, sendActivation } from './registration';
import { writeLog } from './oplog';
import { maskMobile } from '../../shared/account';
import {
  imageTypeOf, maskMiddle, PHOTO_MAX_BYTES, PHOTO_SIZE_TEXT, PHOTO_TYPE_TEXT, VERIFY_PHOTOS,
  type VerificationInfo, type VerifyKind,
} from '../../shared/security';

const objectMessages = { type: '请求内容须为 JSON 对象', additionalProperties: '包含不支持的字段' };

export async function verificationOf(db: DB, accountId: number): Promise<VerificationInfo> {
  const row = await db.selectFrom('identity_verifications').selectAll().where('account_id', '=', accountId).orderBy('id', 'desc').executeTakeFirst();
  const user = await db.selectFrom('users').select('verify_status').where('id', '=', accountId).executeTakeFirstOrThrow();
  if (!row) return { status: user.verify_status === 'yes' ? 'approved' : 'none', kind: null, name: null, id_number: null, reason: null, created_at: null };
  return {
    status: row.status as VerificationInfo['status'],
    kind: row.kind as VerifyKind,
    name: row.name,
    id_number: maskMiddle(row.id_number),
    reason: row.reason,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/**
 * The platform's review of a verification (npm run platform -- account-verify …): approved sets
 * users.verify_status to yes; either way the account gets a message.
 */
export async function reviewVerification(db: DB, username: string, decision: 'approve' | 'reject', reason?: string) {
  const user = await db.selectFrom('users').select(['id']).where('username', '=', username).where('parent_id', 'is', null).executeTakeFirst();
  if (!user) throw new Error(`账号不存在：${username}`);
  const row = await db.selectFrom('identity_verifications').selectAll().where('account_id', '=', user.id).where('status', '=', 'pending').orderBy('id', 'desc').executeTakeFirst();
  if (!row) throw new Error(`该账号没有待审核的实名认证：${username}`);
  if (decision === 'reject' && !reason) throw new Error('驳回时请用 --reason 写明原因');
  const { notify } = await import('../messages/notify');
  await db.transaction().execute(async (tx) => {
    await tx.updateTable('identity_verifications').set({ status: decision === 'approve' ? 'approved' : 'rejected', reason: reason ?? null, reviewed_at: new Date() }).where('id', '=', row.id).execute();
    if (decision === 'approve') await tx.updateTable('users').set({ verify_status: 'yes' }).where('id', '=', user.id).execute();
  });
  await notify(db, user.id, {
    category: 'security',
    title: decision === 'approve' ? '实名认证已通过' : '实名认证未通过',
    body: decision === 'approve' ? `您提交的${row.kind === 'company' ? '企业' : '个人'}实名认证（${row.name}）已审核通过。` : `您提交的实名认证未通过审核，原因：${reason}。请修改后重新提交。`,
    link: '/account/profile/',
  });
  return { verification_id: row.id, username, status: decision === 'approve' ? 'approved' : 'rejected' };
}

export function securityRoutes(app: FastifyInstance, db: DB, config: ServerConfig, sms: SmsSender, mail: Mailer): void {
  const me = (req: FastifyRequest) => db.selectFrom('users').selectAll().where('id', '=', req.user!.id).executeTakeFirstOrThrow();

  app.get('/api/accounts/security/', { config: { access: 'parent', openapi: { summary: '安全设置：手机、邮箱及其验证状态，登录验证是否开启' } } }, async (req) => {
    const u = await me(req);
    return ok({ username: u.username, mobile: maskMobile(u.mobile), mobile_verified: Boolean(u.mobile && u.mobile_verified), email: u.email, email_verified: Boolean(u.email && u.email_verified), two_step: u.two_step });
  });

  app.post<{ Body: { old_password: string; password: string } }>(
    '/api/accounts/password/',
    { config: { access: 'parent', openapi: { summary: '修改登录密码（原密码须正确；其他登录随之失效）' } }, schema: { body: passwordSchema } },
    async (req) => {
      const u = await me(req);
      if (!(await verifyPassword(req.body.old_password, u.password_hash))) throw new ApiError(21114, 400, [{ path: '/old_password', message: '原密码错误' }]);
      const hash = await hashPassword(req.body.password);
      await db.transaction().execute(async (tx) => {
        await tx.updateTable('users').set({ password_hash: hash }).where('id', '=', u.id).execute();
        await tx.deleteFrom('sessions').where('user_id', '=', u.id).where('id', '!=', req.user!.session_id).execute();
        await writeLog(tx, req, { action: 'account.password', target: u.username });
      });
      return ok();
    },
  );

  // spec 000 §7 names PUT and POST
  for (const verb of ['put', 'post'] as const) app[verb]<{ Body: { mobile: string } }>(
    '/api/accounts/authentication/mobile/',
    {
      config: { access: 'parent', openapi: { summary: '向要绑定的新手机号发送验证码（60 秒一次，每天 10 次）' } },
      schema: { body: { type: 'object', required: ['mobile'], additionalProperties: false, properties: { mobile: mobileSchema.properties.mobile }, errorMessage: { ...objectMessages, required: { mobile: '请输入手机号' } } } },
    },
    async (req) => {
      if (await contactTaken(db, 'mobile', req.body.mobile, req.user!.id)) throw new ApiError(21116, 400, [{ path: '/mobile', message: '该手机号已被使用' }]);
      await sendContactCode(db, { sms, mail }, { target: req.body.mobile, userId: req.user!.id, via: 'sms' }, 'bind_mobile');
      return ok(undefined, { mobile: maskMobile(req.body.mobile) });
    },
  );

  app.post<{ Body: { mobile: string; code: string } }>(
    '/api/accounts/mobile/',
    { config: { access: 'parent', openapi: { summary: '绑定或修改手机号（新号码的短信验证码）' } }, schema: { body: mobileSchema } },
    async (req) => {
      if (await contactTaken(db, 'mobile', req.body.mobile, req.user!.id)) throw new ApiError(21116, 400, [{ path: '/mobile', message: '该手机号已被使用' }]);
      await spendContactCode(db, req.body.mobile, 'bind_mobile', req.body.code);
      await db.transaction().execute(async (tx) => {
        await tx.updateTable('users').set({ mobile: req.body.mobile, mobile_verified: true }).where('id', '=', req.user!.id).execute();
        await writeLog(tx, req, { action: 'account.mobile', target: maskMobile(req.body.mobile)! });
      });
      return ok(undefined, { mobile: maskMobile(req.body.mobile) });
    },
  );

  app.post<{ Body: { email: string; callback?: string } }>(
    '/api/accounts/email/',
    {
      config: { access: 'parent', openapi: { summary: '绑定或修改邮箱：保存后向新邮箱发送验证链接' } },
      schema: { body: { ...emailSchema, properties: { ...emailSchema.properties, callback: callbackProp } } },
    },
    async (req) => {
      const email = req.body.email.trim();
      if (await contactTaken(db, 'email', email, req.user!.id)) throw new ApiError(21115, 400, [{ path: '/email', message: '该邮箱已被使用' }]);
      await db.transaction().execute(async (tx) => {
        await tx.updateTable('users').set({ email, email_verified: false }).where('id', '=', req.user!.id).execute();
        await writeLog(tx, req, { action: 'account.email', target: email });
      });
      await sendActivation(db, mail, req, { id: req.user!.id, username: req.user!.username, email }, req.body.callback);
      return ok({ email });
    },
  );

  app.post<{ Body: { status: 'enable' | 'disable' } }>(
    '/api/accounts/two_step_verify/status',
    {
      config: { access: 'parent', openapi: { summary: '开启或关闭登录验证（开启需已验证的手机号和邮箱）' } },
      schema: { body: { type: 'object', required: ['status'], additionalProperties: false, properties: { status: { type: 'string', enum: ['enable', 'disable'], errorMessage: { type: '状态只能是 enable 或 disable', enum: '状态只能是 enable 或 disable' } } }, errorMessage: { ...objectMessages, required: { status: '状态只能是 enable 或 disable' } } } },
    },
    async (req) => {
      const u = await me(req);
      const on = req.body.status === 'enable';
      if (on && !(u.mobile && u.mobile_verified && u.email && u.email_verified)) throw new ApiError(21118, 400);
      await db.transaction().execute(async (tx) => {
        await tx.updateTable('users').set({ two_step: on }).where('id', '=', u.id).execute();
        await writeLog(tx, req, { action: on ? 'account.two_step.enable' : 'account.two_step.disable', target: u.username });
      });
      return ok(undefined, { two_step: on });
    },
  );

  app.get('/accounts/profile/', { config: { access: 'parent', openapi: { summary: '账号资料与实名认证状态' } } }, async (req) => {
    const u = await me(req);
    return ok({
      username: u.username,
      user_id: u.id,
      mobile: maskMobile(u.mobile),
      email: u.email,
      verify_status: u.verify_status,
      created_at: new Date(u.created_at).toISOString(),
      profile: u.profile ?? {},
      verification: await verificationOf(db, u.id),
    });
  });

  app.post<{ Body: Record<string, string> }>(
    '/accounts/profile/',
    { config: { access: 'parent', openapi: { summary: '保存账号资料（联系人、公司、行业、地址、QQ）' } }, schema: { body: profileSchema } },
    async (req) => {
      const profile = Object.fromEntries(Object.entries(req.body).map(([k, v]) => [k, String(v).trim()]));
      await db.transaction().execute(async (tx) => {
        await tx.updateTable('users').set({ profile: JSON.stringify(profile) }).where('id', '=', req.user!.id).execute();
        await writeLog(tx, req, { action: 'account.profile', target: req.user!.username });
      });
      return ok(profile);
    },
  );

  app.get('/api/accounts/certificate/', { config: { access: 'parent', openapi: { summary: '实名认证状态（none、pending、approved、rejected）' } } }, async (req) => ok(await verificationOf(db, req.user!.id)));

  // the upload: multipart in a scope of its own, limits from spec 000 §9 (the size is checked again here)
  const ajv = createAjv();
  const validators = { personal: ajv.compile(personalSchema), company: ajv.compile(companySchema) };
  void app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: PHOTO_MAX_BYTES + 1, files: 3, fields: 10, fieldSize: 1000 } });
    scope.post(
      '/accounts/identity/certificate/',
      { config: { access: 'parent', accepts: 'multipart', openapi: { summary: '提交实名认证（multipart：kind=personal|company、表单字段与证件照片；照片按内容检查，仅 jpeg/png/gif/bmp，不超过 5 MB）' } }, bodyLimit: 3 * PHOTO_MAX_BYTES + 65536 },
      async (req) => {
        if (!req.isMultipart()) throw new ApiError(VALIDATION_ERROR, 400, [{ path: '/', message: '请以表单方式上传证件照片' }]);
        const fields: Record<string, string> = {};
        const photos: Record<string, { mime: string; bytes: Buffer }> = {};
        for await (const part of req.parts()) {
          if (part.type === 'file') {
            const bytes = await part.toBuffer().catch(() => null);
            if (!bytes || part.file.truncated || bytes.length > PHOTO_MAX_BYTES) throw new ApiError(21124, 400, [{ path: `/${part.fieldname}`, message: PHOTO_SIZE_TEXT }]);
            const mime = imageTypeOf(bytes);
            if (!mime) throw new ApiError(21123, 400, [{ path: `/${part.fieldname}`, message: PHOTO_TYPE_TEXT }]);
            photos[part.fieldname] = { mime, bytes };
          } else {
            fields[part.fieldname] = String(part.value ?? '').trim();
          }
        }
        const kind = fields.kind as VerifyKind;
        if (kind !== 'personal' && kind !== 'company') throw new ApiError(VALIDATION_ERROR, 400, [{ path: '/kind', message: '请选择个人认证或企业认证' }]);
        delete fields.kind;
        const validate = validators[kind];
        if (!validate(fields)) throw new ApiError(VALIDATION_ERROR, 400, toFieldErrors(validate.errors ?? []));
        const missing = VERIFY_PHOTOS[kind].filter((p) => !photos[p.field]);
        if (missing.length) throw new ApiError(VALIDATION_ERROR, 400, missing.map((p) => ({ path: `/${p.field}`, message: `请上传${p.label}照片` })));
        const current = await verificationOf(db, req.user!.id);
        if (current.status === 'approved') throw new ApiError(21122, 400);
        if (current.status === 'pending') throw new ApiError(21121, 400);
        const id = await db.transaction().execute(async (tx) => {
          const row = await tx
            .insertInto('identity_verifications')
            .values({ account_id: req.user!.id, kind, name: fields.name, id_number: fields.id_number.toUpperCase(), reason: null, reviewed_at: null })
            .returning('id')
            .executeTakeFirstOrThrow();
          for (const p of VERIFY_PHOTOS[kind]) {
            await tx.insertInto('identity_images').values({ verification_id: row.id, field: p.field, mime: photos[p.field].mime, bytes: photos[p.field].bytes }).execute();
          }
          await writeLog(tx, req, { action: 'account.verify', target: fields.name, detail: { kind } });
          return row.id;
        });
        return ok({ verification_id: id, status: 'pending' });
      },
    );
  });
  void config;
}
