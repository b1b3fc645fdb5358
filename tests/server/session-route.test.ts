/**
 * GET /api/accounts/session/ (issue 20 item 13): the console's first question. A visitor is an answer
 * (200, data and user null), so the login page logs no 401; a signed-in user gets the usage answer; a
 * session ended by sign-out is a visitor again.
 */
import { startTestServer, Client, type TestServer } from './helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

test('a visitor is answered 200 with no user', async () => {
  const res = await new Client(s.app).get('/api/accounts/session/');
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ result: true, error_code: 0, data: null, user: null });
});

test('a signed-in user gets the same answer as usage, without secrets; after sign-out a visitor again', async () => {
  const c = new Client(s.app);
  expect((await c.post('/accounts/signin/', { username: 'demo', password: 'demo123456' })).statusCode).toBe(200);
  const session = (await c.get('/api/accounts/session/')).json();
  const usage = (await c.get('/api/accounts/v2/usage/')).json();
  expect(session).toEqual(usage);
  expect(session.user).toMatchObject({ username: 'demo' });
  expect(JSON.stringify(session)).not.toMatch(/password|session_id|secret/);
  await c.post('/accounts/signout/', {});
  expect((await c.get('/api/accounts/session/')).json()).toEqual({ result: true, error_code: 0, data: null, user: null });
});
