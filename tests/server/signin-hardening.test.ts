/**
 * Sign-in and small things (issue 34 items 8–11):
 * - a lost-password code is used once and each wrong try counts once, under concurrency;
 * - failures of the SMS step count apart from the password's, so guessing the code meets the captcha;
 * - `from` after sign-in is only a path of this console; /api/operators/info/ answers for the caller's account;
 * - the sandbox payment page cannot be framed; API answers carry nosniff and Cache-Control: no-store.
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { hashCode } from '../../src/server/accounts/passwords';
import { SIGNIN_MAX_FAILURES } from '../../src/shared/security';
import { safeFrom } from '../../src/server/accounts/routes';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
}, 60_000);
afterAll(() => s.close());

const anon = () => new Client(s.app);
const resetCode = (target: string, code: string) =>
  s.db.insertInto('contact_codes').values({ target, purpose: 'resetpwd', code_hash: hashCode(code), expires_at: new Date(Date.now() + 600_000), used_at: null }).returning(['id']).executeTakeFirstOrThrow();

describe('lost-password codes under concurrency (item 8)', () => {
  test('8 concurrent resets with the same right code: exactly one succeeds', async () => {
    await resetCode('13800138000', '246810');
    const answers = await Promise.all(Array.from({ length: 8 }, () => anon().post('/accounts/resetpwd/', { account: 'demo', code: '246810', password: 'demo123456' })));
    expect(answers.map((a) => a.statusCode).filter((c) => c === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode !== 200).every((a) => a.json().error_code === 21102)).toBe(true);
  });

  test('60 concurrent wrong codes count 5 tries, and the right code is then refused', async () => {
    const { id } = await resetCode('13800138000', '135791');
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => anon().post('/accounts/resetpwd/', { account: 'demo', code: String(100000 + i), password: 'demo123456' })));
    expect(answers.every((a) => a.json().error_code === 21102)).toBe(true);
    const row = await s.db.selectFrom('contact_codes').select(['attempts', 'used_at']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ attempts: 5, used_at: null });
    expect((await anon().post('/accounts/resetpwd/', { account: 'demo', code: '135791', password: 'demo123456' })).json().error_code).toBe(21102);
  });
});

describe('the SMS step counts its failures apart (item 9)', () => {
  test(`after ${SIGNIN_MAX_FAILURES} wrong codes with the right password, the captcha is asked for`, async () => {
    const user = await s.db.selectFrom('users').select('id').where('username', '=', 'demo2fa').executeTakeFirstOrThrow();
    await s.db.insertInto('verification_codes').values({ user_id: user.id, purpose: 'signin', code_hash: hashCode('424242'), expires_at: new Date(Date.now() + 300_000) }).execute();
    const codes: number[] = [];
    for (let i = 0; i < SIGNIN_MAX_FAILURES; i++) codes.push((await anon().post('/accounts/signin/', { username: 'demo2fa', password: 'demo123456', code: String(200000 + i) })).json().error_code);
    expect(codes.every((c) => c === 21102)).toBe(true);
    const next = await anon().post('/accounts/signin/', { username: 'demo2fa', password: 'demo123456', code: '000001' });
    expect(next.statusCode).toBe(429);
    expect(next.json()).toMatchObject({ error_code: 21107, data: { captcha_required: true } });
  });
});

describe('from and operator names (item 10)', () => {
  test.each(['/\\evil.example/', '/\\\\evil.example', '//evil.example/', '/\t/evil.example', 'https://evil.example/', '/%0a/x\n'])('from %j is dropped', (from) => {
    expect(safeFrom(from)).toBeUndefined();
  });
  test.each(['/services/', '/account/profile/?realname', '/stats/?a=1#x'])('from %j is kept', (from) => {
    expect(safeFrom(from)).toBe(from);
  });
  test('sign-in answers no from for /\\evil.example/', async () => {
    const res = await anon().post(`/accounts/signin/?from=${encodeURIComponent('/\\evil.example/')}`, { username: 'demo', password: 'demo123456' });
    expect(res.statusCode).toBe(200);
    expect(res.json().from).toBeUndefined();
  });
  test('/api/operators/info/ answers for the caller\'s account only; creating a taken name is still refused', async () => {
    const demo = await new Client(s.app).signIn('demo');
    const other = await new Client(s.app).signIn('demokey');
    const op = { operator_name: 'only_demo_op', password: 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z', ak: 'K3y0fThirtyTwoLettersAndDigits12', operator_auth: { read: true, write: false, delete: false } };
    expect((await demo.put('/api/operators/', op)).statusCode).toBe(200);
    expect((await demo.get('/api/operators/info/?operator_name=only_demo_op')).json().result).toBe(true);
    expect((await other.get('/api/operators/info/?operator_name=only_demo_op')).json().result).toBe(false);
    expect((await other.put('/api/operators/', op)).json().error_code).toBe(21125);
  });
});

describe('headers (item 11)', () => {
  test('the sandbox payment page cannot be framed', async () => {
    const res = await anon().get(`/api/pay/sandbox/${'a'.repeat(48)}`);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
  });
  test('API answers carry nosniff and no-store, refusals too', async () => {
    const demo = await new Client(s.app).signIn('demo');
    for (const res of [await demo.get('/api/accounts/security/'), await anon().get('/api/accounts/security/')]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });
});
