/**
 * Sign-in, two-step verification, throttling, sessions and sign-out, against a real app and database.
 */
import { startTestServer, Client, type TestServer } from './helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const PASSWORD = 'demo123456';

async function signin(c: Client, body: Record<string, unknown>, url = '/accounts/signin/') {
  return c.post(url, body);
}

/** The newest sign-in SMS to a mobile number, and the 6-digit code in it. */
async function lastSms(mobile: string) {
  const row = await s.db.selectFrom('sms_outbox').selectAll().where('mobile', '=', mobile).orderBy('id', 'desc').executeTakeFirst();
  const m = row ? /\b(\d{6})\b/.exec(row.text) : null;
  return { row, code: m ? m[1] : undefined };
}

describe('sign-in with account name and password', () => {
  it('signs demo in and answers with the public user', async () => {
    const c = new Client(s.app);
    const res = await signin(c, { username: 'demo', password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ result: true, error_code: 0 });
    expect(body.user).toMatchObject({ username: 'demo', email: 'demo@example.com', mobile: '138****8000', two_step: false, verify_status: 'yes', status: 'normal' });
    expect(body.user).not.toHaveProperty('password_hash');
    expect(body).not.toHaveProperty('from');
    expect(c.cookie).toMatch(/^sid=.+/);
  });

  it('trims spaces around the account name', async () => {
    const c = new Client(s.app);
    const res = await signin(c, { username: '  demo  ', password: PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.username).toBe('demo');
    const usage = await c.get('/api/accounts/v2/usage/');
    expect(usage.statusCode).toBe(200);
    expect(usage.json().user.username).toBe('demo');
  });

  it('accepts the e-mail address as the account name', async () => {
    const c = new Client(s.app);
    const res = await signin(c, { username: 'demo@example.com', password: PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.username).toBe('demo');
  });

  it('accepts the mobile number as the account name', async () => {
    const c = new Client(s.app);
    const res = await signin(c, { username: '13800138000', password: PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.username).toBe('demo');
  });

  it('refuses a wrong password with 21108 and sets no cookie', async () => {
    const c = new Client(s.app);
    const res = await signin(c, { username: 'demo', password: 'wrong-password' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ result: false, error_code: 21108, message: '账号或密码错误' });
    expect(res.headers['set-cookie']).toBeUndefined();
    const usage = await c.get('/api/accounts/v2/usage/');
    expect(usage.statusCode).toBe(401);
  });

  it('refuses an unknown account with the same answer as a wrong password', async () => {
    const res = await signin(new Client(s.app), { username: 'nobody-here', password: PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ result: false, error_code: 21108, message: '账号或密码错误' });
  });

  it('records a failed attempt for the trimmed, lower-cased name', async () => {
    await signin(new Client(s.app), { username: '  Ghost-User ', password: 'x' });
    const rows = await s.db.selectFrom('signin_attempts').select(['username', 'ok']).where('username', '=', 'ghost-user').execute();
    expect(rows).toEqual([{ username: 'ghost-user', ok: false }]);
  });

  it('passes a safe "from" path back, and drops another site', async () => {
    const good = await signin(new Client(s.app), { username: 'demo', password: PASSWORD }, '/accounts/signin/?from=/services/cdn/');
    expect(good.statusCode).toBe(200);
    expect(good.json().from).toBe('/services/cdn/');
    for (const from of ['//evil.example/x', 'https://evil.example/']) {
      const bad = await signin(new Client(s.app), { username: 'demo', password: PASSWORD }, `/accounts/signin/?from=${encodeURIComponent(from)}`);
      expect(bad.statusCode).toBe(200);
      expect(bad.json()).not.toHaveProperty('from');
    }
  });
});

describe('sign-in form validation', () => {
  it('asks for the account name when it is missing', async () => {
    const res = await signin(new Client(s.app), { password: PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      result: false,
      error_code: 20001,
      message: '提交的数据不符合要求，请检查后重试',
      errors: [{ path: '/username', message: '请输入账号/邮箱/手机号' }],
    });
  });

  it('asks for the account name when it is only spaces', async () => {
    const res = await signin(new Client(s.app), { username: '   ', password: PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_code).toBe(20001);
    expect(res.json().errors).toEqual([{ path: '/username', message: '请输入账号/邮箱/手机号' }]);
  });

  it('asks for the password when it is missing', async () => {
    const res = await signin(new Client(s.app), { username: 'demo' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      result: false,
      error_code: 20001,
      message: '提交的数据不符合要求，请检查后重试',
      errors: [{ path: '/password', message: '请输入密码' }],
    });
  });

  it('asks for the password when it is empty', async () => {
    const res = await signin(new Client(s.app), { username: 'demo', password: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ path: '/password', message: '请输入密码' }]);
  });

  it('lists both fields when both are missing', async () => {
    const res = await signin(new Client(s.app), {});
    expect(res.statusCode).toBe(400);
    const errors = [...res.json().errors].sort((a: any, b: any) => a.path.localeCompare(b.path));
    expect(errors).toEqual([
      { path: '/password', message: '请输入密码' },
      { path: '/username', message: '请输入账号/邮箱/手机号' },
    ]);
  });

  it('refuses a code that is not 6 digits', async () => {
    for (const code of ['12ab', '12345', '1234567']) {
      const res = await signin(new Client(s.app), { username: 'demo', password: PASSWORD, code });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        result: false,
        error_code: 20001,
        message: '提交的数据不符合要求，请检查后重试',
        errors: [{ path: '/code', message: '请输入 6 位数字验证码' }],
      });
    }
  });

  it('does not count a refused form as a failed attempt', async () => {
    const before = await s.db.selectFrom('signin_attempts').select('id').where('username', '=', 'form-only').execute();
    await signin(new Client(s.app), { username: 'form-only', password: PASSWORD, code: '12ab' });
    const after = await s.db.selectFrom('signin_attempts').select('id').where('username', '=', 'form-only').execute();
    expect(before).toHaveLength(0);
    expect(after).toHaveLength(0);
  });
});

describe('two-step verification', () => {
  it('reports which accounts use it', async () => {
    const anon = new Client(s.app);
    const on = await anon.get('/accounts/two_step_verify/status/?username=demo2fa');
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ result: true, error_code: 0 });
    const off = await anon.get('/accounts/two_step_verify/status/?username=demo');
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ result: false, error_code: 0 });
    const spaced = await anon.get('/accounts/two_step_verify/status/?username=%20demo2fa%20');
    expect(spaced.json().result).toBe(true);
    // an unknown name answers as an account would, the same each time (src/server/accounts/decoy.ts)
    const unknown = await anon.get('/accounts/two_step_verify/status/?username=nobody-here');
    expect(unknown.json()).toEqual({ result: expect.any(Boolean), error_code: 0 });
    expect((await anon.get('/accounts/two_step_verify/status/?username=nobody-here')).json()).toEqual(unknown.json());
    const empty = await anon.get('/accounts/two_step_verify/status/');
    expect(empty.json()).toEqual({ result: false, error_code: 0 });
  });

  it('refuses a code request for an account without two-step verification', async () => {
    const before = await s.db.selectFrom('sms_outbox').select('id').where('mobile', '=', '13800138000').execute();
    const res = await new Client(s.app).put('/accounts/two_step_verify/code', { username: 'demo', password: PASSWORD, verify_type: 'sms' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ result: false, error_code: 21111, message: '您没有权限进行此操作' });
    const after = await s.db.selectFrom('sms_outbox').select('id').where('mobile', '=', '13800138000').execute();
    expect(after).toHaveLength(before.length);
  });

  it('refuses a code request with a wrong password and sends nothing', async () => {
    const res = await new Client(s.app).put('/accounts/two_step_verify/code', { username: 'demo2fa', password: 'wrong-password', verify_type: 'sms' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_code).toBe(21108);
    expect((await lastSms('13912345678')).row).toBeUndefined();
  });

  it('refuses an unknown verification type', async () => {
    const res = await new Client(s.app).put('/accounts/two_step_verify/code', { username: 'demo2fa', password: PASSWORD, verify_type: 'email' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_code).toBe(20001);
    expect(res.json().errors).toEqual([{ path: '/verify_type', message: '不支持的验证方式' }]);
    expect((await lastSms('13912345678')).row).toBeUndefined();
  });

  it('runs the whole code flow for demo2fa', async () => {
    const c = new Client(s.app);

    // the password alone is not enough
    const noCode = await signin(c, { username: 'demo2fa', password: PASSWORD });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json()).toEqual({ result: false, error_code: 21109, message: '请输入验证码' });
    expect(noCode.headers['set-cookie']).toBeUndefined();

    // a code is sent to the masked mobile number, one outbox row with a 6-digit code
    const sent = await c.put('/accounts/two_step_verify/code', { username: 'demo2fa', password: PASSWORD, verify_type: 'sms' });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ result: true, error_code: 0, mobile: '139****5678' });
    const rows = await s.db.selectFrom('sms_outbox').selectAll().where('mobile', '=', '13912345678').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].purpose).toBe('signin');
    expect(rows[0].text).toMatch(/\b\d{6}\b/);
    const code = /\b(\d{6})\b/.exec(rows[0].text)![1];
    const stored = await s.db.selectFrom('verification_codes').selectAll().where('user_id', '=', rows[0].user_id!).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0].code_hash).not.toContain(code);

    // a second request within 60 s is refused and sends nothing
    const again = await c.put('/accounts/two_step_verify/code', { username: 'demo2fa', password: PASSWORD, verify_type: 'sms' });
    expect(again.statusCode).toBe(429);
    expect(again.json()).toEqual({ result: false, error_code: 23701, message: '验证码发送过于频繁，请 60 秒后再试' });
    expect(await s.db.selectFrom('sms_outbox').select('id').where('mobile', '=', '13912345678').execute()).toHaveLength(1);

    // a wrong code
    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await signin(c, { username: 'demo2fa', password: PASSWORD, code: wrongCode });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ result: false, error_code: 21102, message: '验证码错误' });
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect((await c.get('/api/accounts/v2/usage/')).statusCode).toBe(401);

    // the right code still works after one wrong try
    const right = await signin(c, { username: 'demo2fa', password: PASSWORD, code });
    expect(right.statusCode).toBe(200);
    expect(right.json().user).toMatchObject({ username: 'demo2fa', two_step: true, mobile: '139****5678' });
    const usage = await c.get('/api/accounts/v2/usage/');
    expect(usage.statusCode).toBe(200);
    expect(usage.json().user.username).toBe('demo2fa');
    expect(usage.json().data).toMatchObject({ money: 100, actual_charge: 100, gift: 0 });

    // a used code cannot be used again
    const reuse = await signin(new Client(s.app), { username: 'demo2fa', password: PASSWORD, code });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().error_code).toBe(21102);
    expect(reuse.headers['set-cookie']).toBeUndefined();
  });

  it('needs the right password together with the code', async () => {
    const res = await signin(new Client(s.app), { username: 'demo2fa', password: 'wrong-password', code: '123456' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_code).toBe(21108);
  });
});

describe('usage and the session cookie', () => {
  it('returns the usage of demo', async () => {
    const c = await new Client(s.app).signIn('demo');
    const res = await c.get('/api/accounts/v2/usage/');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.result).toBe(true);
    expect(body.error_code).toBe(0);
    expect(body.data).toMatchObject({ money: 1288.5, actual_charge: 1000, gift: 288.5 });
    expect(body.data.resource_flow_remain).toBe(500 * 1024 ** 3);
    expect(body.user).toMatchObject({ username: 'demo', two_step: false });
  });

  it('answers 401 with 21110 without a session, and with an unknown session id', async () => {
    const anon = await new Client(s.app).get('/api/accounts/v2/usage/');
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toEqual({ result: false, error_code: 21110, message: '登录已失效，请重新登录' });
    const forged = await s.app.inject({ method: 'GET', url: '/api/accounts/v2/usage/', headers: { cookie: 'sid=not-a-session' } });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().error_code).toBe(21110);
  });

  it('sets an HttpOnly, SameSite=Lax session cookie for the whole site', async () => {
    const res = await signin(new Client(s.app), { username: 'demo', password: PASSWORD });
    const set = res.headers['set-cookie'];
    const cookies = Array.isArray(set) ? set : [set!];
    const sid = cookies.find((c) => c.startsWith('sid='));
    expect(sid).toBeDefined();
    expect(sid).toMatch(/;\s*HttpOnly/i);
    expect(sid).toMatch(/;\s*SameSite=Lax/i);
    expect(sid).toMatch(/;\s*Path=\/(;|$)/);
    expect(sid).toMatch(/;\s*Expires=/i);
    expect(sid!.split(';')[0].length).toBeGreaterThan('sid='.length + 20);
  });

  it('signs out: redirects to /login/, clears the cookie and ends the session on the server', async () => {
    const c = await new Client(s.app).signIn('demo');
    const oldCookie = c.cookie;
    expect((await c.get('/api/accounts/v2/usage/')).statusCode).toBe(200);

    const out = await c.get('/accounts/signout/');
    expect(out.statusCode).toBe(302);
    expect(out.headers.location).toBe('/login/');
    const set = out.headers['set-cookie'];
    const cleared = (Array.isArray(set) ? set : [set!]).find((x) => x.startsWith('sid='));
    expect(cleared).toMatch(/^sid=;/);

    const after = await c.get('/api/accounts/v2/usage/');
    expect(after.statusCode).toBe(401);
    expect(after.json().error_code).toBe(21110);

    // the old session id no longer works either
    const replay = await s.app.inject({ method: 'GET', url: '/api/accounts/v2/usage/', headers: { cookie: oldCookie } });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error_code).toBe(21110);
  });

  it('signs out with POST too, answering the success envelope', async () => {
    const c = await new Client(s.app).signIn('demo');
    const oldCookie = c.cookie;
    const out = await c.post('/accounts/signout/', {});
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ result: true, error_code: 0 });
    const replay = await s.app.inject({ method: 'GET', url: '/api/accounts/v2/usage/', headers: { cookie: oldCookie } });
    expect(replay.statusCode).toBe(401);
  });

  it('keeps other sessions of the same user after one signs out', async () => {
    const a = await new Client(s.app).signIn('demo');
    const b = await new Client(s.app).signIn('demo');
    await a.get('/accounts/signout/');
    expect((await b.get('/api/accounts/v2/usage/')).statusCode).toBe(200);
  });
});

describe('sign-in throttling (own server)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  it('asks the 11th attempt after 10 failures for the image captcha, even with the right password', async () => {
    for (let i = 0; i < 10; i++) {
      // failures count for the trimmed name, however it is spaced
      const username = i % 2 ? 'demo' : ' demo ';
      const res = await new Client(t.app).post('/accounts/signin/', { username, password: `wrong-${i}` });
      expect(res.statusCode).toBe(400);
      expect(res.json().error_code).toBe(21108);
    }
    const c = new Client(t.app);
    const res = await c.post('/accounts/signin/', { username: 'demo', password: PASSWORD });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ result: false, error_code: 21107, message: '登录尝试过于频繁，请输入图形验证码后再登录', data: { captcha_required: true } });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await c.get('/api/accounts/v2/usage/')).statusCode).toBe(401);

    // the code request is throttled the same way
    const code = await new Client(t.app).put('/accounts/two_step_verify/code', { username: 'demo', password: PASSWORD, verify_type: 'sms' });
    expect(code.statusCode).toBe(429);
    expect(code.json().error_code).toBe(21107);
  });

  it('counts failures per account, so its e-mail or mobile does not get fresh attempts', async () => {
    for (const login of ['demo@example.com', '13800138000']) {
      const res = await new Client(t.app).post('/accounts/signin/', { username: login, password: PASSWORD });
      expect(res.statusCode).toBe(429);
      expect(res.json().error_code).toBe(21107);
    }
  });

  it('does not throttle another account name', async () => {
    const res = await new Client(t.app).post('/accounts/signin/', { username: 'demo2fa', password: PASSWORD });
    // demo2fa is not throttled: it gets as far as asking for its code
    expect(res.statusCode).toBe(400);
    expect(res.json().error_code).toBe(21109);
  });

  it('lets the account in again once the failures are older than 15 minutes', async () => {
    await t.db
      .updateTable('rate_limits')
      .set({ window_start: new Date(Date.now() - 16 * 60_000) })
      .where('key', '=', 'signin:demo')
      .execute();
    const res = await new Client(t.app).post('/accounts/signin/', { username: 'demo', password: PASSWORD });
    expect(res.statusCode).toBe(200);
  });
});
