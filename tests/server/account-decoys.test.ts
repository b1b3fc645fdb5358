/**
 * Unknown accounts answer like known ones before sign-in (issue 21; src/server/accounts/decoy.ts):
 * two_step_verify/status gives an unknown name a steady answer, true for about a quarter of names as
 * for accounts; resetpwd/code answers an unknown account as if a code went to a masked contact (and
 * sends nothing); resetpwd answers it 验证码错误 as a wrong code.
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { DECOY_TWO_STEP_SHARE } from '../../src/server/accounts/decoy';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ config: { smsOutboxApi: true } }); // the captcha's answer through /api/dev/captcha/
}, 60_000);
afterAll(async () => {
  await s.close();
});

const anon = () => new Client(s.app);
async function captcha(c: Client) {
  const { captcha_id } = (await c.post('/accounts/manmachine/next', {})).json().data;
  const answer = (await c.get(`/api/dev/captcha/?captcha_id=${captcha_id}`)).json().data.answer as string;
  return { captcha_id, captcha: answer };
}
const outbox = async () => Number((await s.db.selectFrom('sms_outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

it('two_step_verify/status: an unknown name gets a steady answer, true for about the share of accounts', async () => {
  const c = anon();
  const names = Array.from({ length: 400 }, (_, i) => `no_such_user_${i}`);
  const first: boolean[] = [];
  for (const n of names) {
    const r = (await c.get(`/accounts/two_step_verify/status/?username=${n}`)).json();
    expect(Object.keys(r).sort()).toEqual(['error_code', 'result']);
    first.push(r.result);
  }
  // the same answers again, and for the name with other case or spaces
  for (let i = 0; i < 20; i++) expect((await c.get(`/accounts/two_step_verify/status/?username=%20${names[i].toUpperCase()}%20`)).json().result).toBe(first[i]);
  const share = first.filter(Boolean).length / names.length;
  console.log(`unknown names answered true: ${(share * 100).toFixed(1)}% (target ${DECOY_TWO_STEP_SHARE * 100}%)`);
  expect(share).toBeGreaterThan(DECOY_TWO_STEP_SHARE - 0.1);
  expect(share).toBeLessThan(DECOY_TWO_STEP_SHARE + 0.1);
  // a true for an unknown name leads to the same refusal as a wrong password for a real account
  const decoy = names[first.indexOf(true)];
  const unknownCode = (await c.put('/accounts/two_step_verify/code', { username: decoy, password: 'whatever123', verify_type: 'sms' })).json();
  const wrongCode = (await c.put('/accounts/two_step_verify/code', { username: 'demo2fa', password: 'whatever123', verify_type: 'sms' })).json();
  expect(unknownCode.error_code).toBe(wrongCode.error_code);
  expect(unknownCode.message).toBe(wrongCode.message);
});

it('resetpwd/code: an unknown account answers as if a code went to a masked contact, and nothing is sent', async () => {
  const before = await outbox();
  const sms = (await anon().put('/accounts/resetpwd/code/', { account: 'ghost_account', via: 'sms', ...(await captcha(anon())) })).json();
  // shaped as a real account's answer (accounts-entry.test.ts: { result: true, mobile: '137****0011' })
  expect(sms).toMatchObject({ result: true, error_code: 0, mobile: expect.stringMatching(/^1\d\d\*{4}\d{4}$/) });
  const again = (await anon().put('/accounts/resetpwd/code/', { account: 'ghost_account', via: 'sms', ...(await captcha(anon())) })).json();
  expect(again.mobile).toBe(sms.mobile);
  const real = (await anon().put('/accounts/resetpwd/code/', { account: 'demo', via: 'sms', ...(await captcha(anon())) })).json();
  expect(Object.keys(sms).sort()).toEqual(Object.keys(real).sort());
  const email = (await anon().put('/accounts/resetpwd/code/', { account: 'ghost@example.org', via: 'email', ...(await captcha(anon())) })).json();
  expect(email).toMatchObject({ result: true, email: expect.stringMatching(/^.{4}\*+.{4}$/) });
  expect(await outbox()).toBe(before + 1); // demo's code only
});

it('resetpwd: an unknown account is a wrong code, as for a real account', async () => {
  const unknown = (await anon().post('/accounts/resetpwd/', { account: 'ghost_account', code: '123456', password: 'another123' })).json();
  const wrong = (await anon().post('/accounts/resetpwd/', { account: 'demo', code: '000001', password: 'another123' })).json();
  expect(unknown).toEqual(wrong);
  expect(unknown.error_code).toBe(21102);
});
