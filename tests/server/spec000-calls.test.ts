/**
 * The calls of spec 000 §7 that the console reaches by another path still answer by the documented one:
 * GET /accounts/captcha/image and PUT /accounts/captcha/image/, POST /accounts/verify_mobile/code/,
 * POST /api/accounts/authentication/mobile/ and /api/accounts/invitations without its trailing slash.
 */
import { startTestServer, Client, type TestServer } from './helpers';

jest.setTimeout(120_000);
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ config: { smsOutboxApi: true } });
});
afterAll(async () => {
  await s.close();
});

const answerOf = async (c: Client, id: string) => (await c.get(`/api/dev/captcha/?captcha_id=${id}`)).json().data.answer as string;

describe('the image captcha by its documented paths', () => {
  it('GET /accounts/captcha/image gives a new PNG challenge that POST /accounts/verify_mobile/code/ accepts', async () => {
    const c = new Client(s.app);
    const res = await c.get('/accounts/captcha/image');
    expect(res.statusCode).toBe(200);
    const { captcha_id, image } = res.json().data;
    expect(image).toMatch(/^data:image\/png;base64,/);
    const sent = await c.post('/accounts/verify_mobile/code/', { mobile: '13700001111', captcha_id, captcha: await answerOf(c, captcha_id) });
    expect(sent.statusCode).toBe(200);
    expect(sent.json().mobile).toBe('137****1111');
    expect(await s.db.selectFrom('sms_outbox').select('id').where('mobile', '=', '13700001111').executeTakeFirst()).toBeDefined();
    // spent: the same answer again is 验证码错误
    const again = await c.post('/accounts/verify_mobile/code/', { mobile: '13700001112', captcha_id, captcha: await answerOf(c, captcha_id) });
    expect(again.json()).toEqual(expect.objectContaining({ error_code: 21102, message: '验证码错误' }));
  });

  it('PUT /accounts/captcha/image/ replaces a challenge: the old one can no longer be answered', async () => {
    const c = new Client(s.app);
    const first = (await c.get('/accounts/captcha/image')).json().data.captcha_id as string;
    const oldAnswer = await answerOf(c, first);
    const res = await c.put('/accounts/captcha/image/', { captcha_id: first });
    expect(res.statusCode).toBe(200);
    const second = res.json().data.captcha_id as string;
    expect(second).not.toBe(first);
    const stale = await c.put('/accounts/verify_mobile/code/', { mobile: '13700002222', captcha_id: first, captcha: oldAnswer });
    expect(stale.json().error_code).toBe(21102);
    const fresh = await c.put('/accounts/verify_mobile/code/', { mobile: '13700002222', captcha_id: second, captcha: await answerOf(c, second) });
    expect(fresh.statusCode).toBe(200);
  });
});

describe('signed-in calls by their documented paths', () => {
  it('POST /api/accounts/authentication/mobile/ sends the binding code like PUT', async () => {
    const demo = await new Client(s.app).signIn('demo');
    const res = await demo.post('/api/accounts/authentication/mobile/', { mobile: '13700003333' });
    expect(res.statusCode).toBe(200);
    expect(res.json().mobile).toBe('137****3333');
    const taken = await demo.post('/api/accounts/authentication/mobile/', { mobile: '13912345678' });
    expect(taken.json().error_code).toBe(21116);
  });

  it('/api/accounts/invitations answers with and without its trailing slash, alike', async () => {
    const demo = await new Client(s.app).signIn('demo');
    const a = await demo.get('/api/accounts/invitations/?limit=5');
    const b = await demo.get('/api/accounts/invitations?limit=5');
    expect(b.statusCode).toBe(200);
    expect(b.json()).toEqual(a.json());
    const p = await demo.post('/api/accounts/invitations', { limit: 5 });
    expect(p.json()).toEqual(a.json());
  });
});
