/**
 * The entry pages' calls (spec 000 §2.1, §5, §7; docs/accounts.md): the image captcha, name checks,
 * registration with an SMS code and an invite code, e-mail activation, sign-in before and after it,
 * lost password by SMS and by e-mail, and the trimmed user name.
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { drawCaptcha } from '../../src/server/accounts/captcha';
import { inviteCodeOf } from '../../src/server/accounts/registration';
import { errorText } from '../../src/shared/errors';

jest.setTimeout(180_000);
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ config: { smsOutboxApi: true } });
});
afterAll(async () => {
  await s.close();
});

const anon = () => new Client(s.app);

async function captcha(c: Client): Promise<{ captcha_id: string; answer: string }> {
  const res = await c.post('/accounts/manmachine/next', {});
  expect(res.statusCode).toBe(200);
  const { captcha_id, image } = res.json().data;
  expect(image).toMatch(/^data:image\/png;base64,/);
  const answer = (await c.get(`/api/dev/captcha/?captcha_id=${captcha_id}`)).json().data.answer;
  expect(answer).toMatch(/^\d{4}$/);
  return { captcha_id, answer };
}

async function lastCode(target: string, kind: 'sms' | 'email'): Promise<string> {
  const rows =
    kind === 'sms'
      ? await s.db.selectFrom('sms_outbox').select('text').where('mobile', '=', target).orderBy('id', 'desc').limit(1).execute()
      : await s.db.selectFrom('email_outbox').select('text').where('email', '=', target).orderBy('id', 'desc').limit(1).execute();
  return /(\d{6})/.exec(rows[0].text)![1];
}

/** Lets the next code to the same target through the 60 s limit. */
async function ageOutbox() {
  await s.db.updateTable('sms_outbox').set({ created_at: new Date(Date.now() - 120_000) }).execute();
  await s.db.updateTable('email_outbox').set({ created_at: new Date(Date.now() - 120_000) }).execute();
}

async function register(name: string, mobile: string, extra: Record<string, unknown> = {}) {
  const c = anon();
  const cap = await captcha(c);
  const sent = await c.put('/accounts/verify_mobile/code/', { mobile, captcha_id: cap.captcha_id, captcha: cap.answer });
  expect(sent.statusCode).toBe(200);
  const code = await lastCode(mobile, 'sms');
  return c.post('/accounts/register/', { username: name, password: 'newpass123', email: `${name}@qq.com`, mobile, code, ...extra });
}

describe('captcha', () => {
  it('draws a PNG that differs every time', () => {
    const a = drawCaptcha('1234');
    const b = drawCaptcha('1234');
    expect(a.subarray(1, 4).toString()).toBe('PNG');
    expect(a.equals(b)).toBe(false);
  });

  it('a wrong answer is 21102 验证码错误 and spends the challenge; a right one works once', async () => {
    const c = anon();
    const cap = await captcha(c);
    const wrong = String((Number(cap.answer) + 1) % 10000).padStart(4, '0');
    const res = await c.put('/accounts/verify_mobile/code/', { mobile: '13700000099', captcha_id: cap.captcha_id, captcha: wrong });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error_code: 21102, message: '验证码错误' });
    const again = await c.put('/accounts/verify_mobile/code/', { mobile: '13700000099', captcha_id: cap.captcha_id, captcha: cap.answer });
    expect(again.json().error_code).toBe(21102);
  });

  it('an expired challenge is 21130', async () => {
    const c = anon();
    const cap = await captcha(c);
    await s.db.updateTable('captchas').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', cap.captcha_id).execute();
    const res = await c.put('/accounts/verify_mobile/code/', { mobile: '13700000098', captcha_id: cap.captcha_id, captcha: cap.answer });
    expect(res.json().error_code).toBe(21130);
  });
});

describe('GET /accounts/register_check/', () => {
  it.each([
    ['username', 'demo', true],
    ['username', 'DEMO', true],
    ['username', 'nobody_here', false],
    ['email', 'demo@example.com', true],
    ['mobile', '13800138000', true],
    ['mobile', '13000000000', false],
  ])('%s %s → %s', async (type, value, taken) => {
    const res = await anon().get(`/accounts/register_check/?check_type=${type}&check_value=${encodeURIComponent(value)}`);
    expect(res.json()).toEqual({ result: taken, error_code: 0 });
  });

  it('refuses an unknown type', async () => {
    expect((await anon().get('/accounts/register_check/?check_type=qq&check_value=1')).statusCode).toBe(400);
  });
});

describe('registration and activation', () => {
  it('registers with an invite code and a referer, refuses sign-in until the e-mail link is opened, then signs in', async () => {
    const demo = await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow();
    const res = await register('fresh_user', '13700000001', { invite: inviteCodeOf(demo.id), referer: 'https://www.example.com/pricing/?from=ad' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ email: 'fresh_user@qq.com', maiLoginUrl: 'https://mail.qq.com' });
    const u = await s.db.selectFrom('users').selectAll().where('username', '=', 'fresh_user').executeTakeFirstOrThrow();
    expect(u).toMatchObject({ status: 'inactive', email_verified: false, mobile_verified: true, invited_by: demo.id, verify_status: 'not', register_referer: 'https://www.example.com/pricing/?from=ad' });

    const early = await anon().post('/accounts/signin/', { username: 'fresh_user', password: 'newpass123' });
    expect(early.statusCode).toBe(403);
    expect(early.json()).toMatchObject({ error_code: 21113, message: errorText(21113) });

    const mail = await s.db.selectFrom('email_outbox').selectAll().where('email', '=', 'fresh_user@qq.com').executeTakeFirstOrThrow();
    const link = new URL(/https?:\/\/\S+/.exec(mail.text)![0]);
    expect(link.pathname).toBe('/register/activate/');
    const token = link.searchParams.get('token')!;
    const id = Number(link.searchParams.get('account_id'));
    expect(id).toBe(u.id);

    const bad = await anon().post('/accounts/authentication/email/', { token: 'nope', account_id: id });
    expect(bad.json().error_code).toBe(21117);
    const okRes = await anon().post('/accounts/authentication/email/', { token, account_id: id });
    expect(okRes.json()).toMatchObject({ result: true, data: { email: 'fresh_user@qq.com', username: 'fresh_user' } });
    const reuse = await anon().post('/accounts/authentication/email/', { token, account_id: id });
    expect(reuse.json().error_code).toBe(21117);

    // the user name is trimmed before sign-in
    const signin = await anon().post('/accounts/signin/', { username: '  fresh_user ', password: 'newpass123' });
    expect(signin.statusCode).toBe(200);
    expect(signin.json().user).toMatchObject({ username: 'fresh_user', verify_status: 'not' });
  });

  it('refuses taken names and contacts with their codes', async () => {
    const c = anon();
    const res = await c.post('/accounts/register/', { username: 'demo2fa', password: 'newpass123', email: 'DEMO@example.com', mobile: '13800138000', code: '123456' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_code).toBe(21100);
    expect(res.json().errors.map((e: any) => e.path)).toEqual(['/username', '/email', '/mobile']);
  });

  it('refuses a wrong SMS code (21102), an unknown invite code (21119) and the declaration rules (20001)', async () => {
    const c = anon();
    const cap = await captcha(c);
    await c.put('/accounts/verify_mobile/code/', { mobile: '13700000002', captcha_id: cap.captcha_id, captcha: cap.answer });
    const wrong = await c.post('/accounts/register/', { username: 'second_user', password: 'newpass123', email: 'second@example.com', mobile: '13700000002', code: '000000' === (await lastCode('13700000002', 'sms')) ? '111111' : '000000' });
    expect(wrong.json().error_code).toBe(21102);
    const invite = await c.post('/accounts/register/', { username: 'second_user', password: 'newpass123', email: 'second@example.com', mobile: '13700000002', code: await lastCode('13700000002', 'sms'), invite: 'ZZZZZZZZ' });
    expect(invite.json().error_code).toBe(21119);
    const digits = await c.post('/accounts/register/', { username: 'second_user', password: '12345678', email: 'second@example.com', mobile: '13700000002', code: '123456' });
    expect(digits.json()).toMatchObject({ error_code: 20001, errors: [{ path: '/password', message: '为了账号安全，不允许使用全数字密码' }] });
    // the referer is a console path or a URL of at most 500 characters
    for (const referer of ['javascript:alert(1)', `/${'a'.repeat(500)}`]) {
      const bad = await c.post('/accounts/register/', { username: 'second_user', password: 'newpass123', email: 'second@example.com', mobile: '13700000002', code: '123456', referer });
      expect(bad.json()).toMatchObject({ error_code: 20001, errors: [{ path: '/referer', message: '来源地址无效' }] });
    }
  });

  it('sends one code a minute per number (23701) and refuses a taken number (21116)', async () => {
    const c = anon();
    let cap = await captcha(c);
    expect((await c.put('/accounts/verify_mobile/code/', { mobile: '13700000003', captcha_id: cap.captcha_id, captcha: cap.answer })).statusCode).toBe(200);
    cap = await captcha(c);
    const again = await c.put('/accounts/verify_mobile/code/', { mobile: '13700000003', captcha_id: cap.captcha_id, captcha: cap.answer });
    expect(again.json().error_code).toBe(23701);
    cap = await captcha(c);
    const taken = await c.put('/accounts/verify_mobile/code/', { mobile: '13800138000', captcha_id: cap.captcha_id, captcha: cap.answer });
    expect(taken.json().error_code).toBe(21116);
  });
});

describe('lost password', () => {
  it('by SMS: code to the bound mobile, new password, old sessions end', async () => {
    await register('lost_sms', '13700000011');
    await s.db.updateTable('users').set({ status: 'normal', email_verified: true }).where('username', '=', 'lost_sms').execute();
    const session = await new Client(s.app).signIn('lost_sms', 'newpass123');
    await ageOutbox();
    const c = anon();
    const cap = await captcha(c);
    const sent = await c.put('/accounts/resetpwd/code/', { account: ' lost_sms ', via: 'sms', captcha_id: cap.captcha_id, captcha: cap.answer });
    expect(sent.json()).toMatchObject({ result: true, mobile: '137****0011' });
    const code = await lastCode('13700000011', 'sms');
    const wrong = await c.post('/accounts/resetpwd/', { account: 'lost_sms', code: code === '000000' ? '111111' : '000000', password: 'another123' });
    expect(wrong.json().error_code).toBe(21102);
    const res = await c.post('/accounts/resetpwd/', { account: 'lost_sms', code, password: 'another123' });
    expect(res.json()).toMatchObject({ result: true });
    expect((await session.get('/api/accounts/v2/usage/')).statusCode).toBe(401);
    await new Client(s.app).signIn('lost_sms', 'another123');
  });

  it('by e-mail, with the e-mail address as the account', async () => {
    const c = anon();
    const cap = await captcha(c);
    const sent = await c.put('/accounts/resetpwd/code/', { account: 'demo2fa@example.com', via: 'email', captcha_id: cap.captcha_id, captcha: cap.answer });
    expect(sent.json()).toMatchObject({ result: true, email: 'demo***********.com' });
    const code = await lastCode('demo2fa@example.com', 'email');
    // the code is bound to the account's address: not usable with another account
    expect((await c.post('/accounts/resetpwd/', { account: 'demo', via: 'email', code, password: 'another123' })).json().error_code).toBe(21102);
    expect((await c.post('/accounts/resetpwd/', { account: 'demo2fa', via: 'email', code, password: 'demo123456' })).json().result).toBe(true);
  });

  it('an unknown account answers as if a code were sent (no 21120: src/server/accounts/decoy.ts); a wrong captcha 21102', async () => {
    const c = anon();
    let cap = await captcha(c);
    expect((await c.put('/accounts/resetpwd/code/', { account: 'nobody_at_all', captcha_id: cap.captcha_id, captcha: cap.answer })).json()).toMatchObject({ result: true, mobile: expect.stringMatching(/^1\d\d\*{4}\d{4}$/) });
    cap = await captcha(c);
    expect((await c.put('/accounts/resetpwd/code/', { account: 'demo', captcha_id: cap.captcha_id, captcha: 'abcd' })).json().error_code).toBe(21102);
  });
});

describe('sign-in around the edges', () => {
  it('a test login needs the sales permission (21001)', async () => {
    const res = await anon().post('/accounts/signin/?test_login=1', { username: 'demo', password: 'demo123456' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error_code: 21001, message: '测试登录需要销售权限' });
  });
});
