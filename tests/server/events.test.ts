/** The statistics events (spec 000 §7): counted per family, type, day and account; read by the platform command. */
import { startTestServer, Client, type TestServer } from './helpers';
import { eventCounts } from '../../src/server/events/repo';
import { eventCommands } from '../../src/server/events/commands';
import { eventNumber, VERIFY_EVENTS, USAGE_EVENTS, BURIED_EVENTS } from '../../src/shared/events';
import dayjs from 'dayjs';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const today = () => dayjs().format('YYYY-MM-DD');

test('the spec numbers its lists 1–21, 1–12 and 1–16', () => {
  expect(VERIFY_EVENTS).toHaveLength(21);
  expect(USAGE_EVENTS).toHaveLength(12);
  expect(BURIED_EVENTS).toHaveLength(16);
  expect(eventNumber('verify', 'dashboard_icon')).toBe(1);
  expect(eventNumber('verify', 'blockchain_intro')).toBe(21);
  expect(eventNumber('usage', 'websocket')).toBe(12);
});

test('posts are counted per type and day, for the main account of a sub-account', async () => {
  const demo = await new Client(s.app).signIn('demo');
  const ops = await new Client(s.app).signIn('demo_ops');
  const visitor = new Client(s.app);
  for (const c of [demo, demo, ops, visitor]) {
    const r = await c.post('/accounts/verify/statistics', { type: eventNumber('verify', 'account_profile') });
    expect(r.json()).toMatchObject({ result: true, error_code: 0 });
  }
  expect((await demo.post('/accounts/usage/statistics', { type: eventNumber('usage', 'cdn') })).statusCode).toBe(200);
  expect((await demo.post('/api/buried', { event: 16 })).statusCode).toBe(200);

  const rows = await eventCounts(s.db, { from: today(), to: today() });
  expect(rows).toEqual([
    { family: 'buried', type: 16, day: today(), count: 1, accounts: 1 },
    { family: 'usage', type: 1, day: today(), count: 1, accounts: 1 },
    // demo twice and demo_ops once are demo's three; the visitor is account 0
    { family: 'verify', type: 3, day: today(), count: 4, accounts: 2 },
  ]);
  const demoId = (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
  const own = await s.db.selectFrom('event_counts').select(['account_id', 'count']).where('family', '=', 'verify').orderBy('account_id').execute();
  expect(own).toEqual([{ account_id: 0, count: 1 }, { account_id: demoId, count: 3 }]);
});

test('a number outside the list, or none, is refused and nothing is counted', async () => {
  const c = new Client(s.app);
  const before = await eventCounts(s.db, { from: today(), to: today() });
  for (const [url, body] of [
    ['/accounts/verify/statistics', { type: 22 }],
    ['/accounts/verify/statistics', { type: 0 }],
    ['/accounts/usage/statistics', { type: 13 }],
    ['/api/buried', { event: 17 }],
    ['/api/buried', { type: 1 }],
  ] as const) {
    const r = await c.post(url, body);
    expect(r.statusCode).toBe(400);
    expect(r.json().error_code).toBe(20001);
  }
  expect(await eventCounts(s.db, { from: today(), to: today() })).toEqual(before);
});

test('the platform command prints the counts by name', async () => {
  const out = (await eventCommands[0].run(s.db, { family: 'verify' })) as string;
  expect(out).toContain('account_profile');
  expect(out).toMatch(/verify\s+3 account_profile\s+4 次\s+2 个账号/);
  expect(await eventCommands[0].run(s.db, { from: '2001-01-01', to: '2001-01-02' })).toBe('这段时间没有统计事件');
  await expect(eventCommands[0].run(s.db, { family: 'nope' })).rejects.toThrow('--family');
});
