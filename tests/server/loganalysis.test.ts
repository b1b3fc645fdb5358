/** Log analysis: ingestion with the statistics token, the day's top lists, hourly gzip archives, the demo seed. */
import { gunzipSync } from 'node:zlib';
import { startTestServer, Client, type TestServer } from './helpers';
import { dayOf } from '../../src/shared/stats/time';

let s: TestServer;
let c: Client;
let token = '';
beforeAll(async () => {
  s = await startTestServer();
  c = await new Client(s.app).signIn('demo');
  token = (await c.post('/api/flow/ingest/token', {})).json().data.token;
});
afterAll(async () => {
  await s.close();
});

const ingest = (records: object[], auth = `Bearer ${token}`) => s.app.inject({ method: 'POST', url: '/api/analysis/ingest/', payload: { records }, headers: { authorization: auth } });
// an hour of yesterday (CST), so the records are inside the kept days whatever the time now
const yesterday = dayOf(Math.floor(Date.now() / 1000) - 86400);
const at = (hh: string, mm = '00') => `${yesterday} ${hh}:${mm}:00`;
const rec = (extra: object) => ({ domain: 'act1.demo-example.com', time: at('10'), ip: '198.51.100.1', url: '/a', status: 200, bytes: 100, ...extra });

it('seeds a day of access logs for demo', async () => {
  const n = await s.db.selectFrom('access_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  expect(Number(n.n)).toBeGreaterThan(1000);
  const today = (await c.get('/api/analysis/?bucket_name=demo-www')).json().data;
  const before = (await c.get(`/api/analysis/?bucket_name=demo-www&date=${yesterday}`)).json().data;
  expect(today.total + before.total).toBeGreaterThan(1000);
});

it('refuses ingestion without a valid token, for foreign domains and out-of-range times', async () => {
  expect((await ingest([rec({})], 'Bearer nope')).json().error_code).toBe(21110);
  expect((await ingest([rec({ domain: 'www.secure-example.com' })])).json().error_code).toBe(21905);
  const old = await ingest([rec({ time: '2020-01-01 00:00:00' })]);
  expect(old.json()).toMatchObject({ error_code: 21000, errors: [{ path: '/records/0/time' }] });
  expect((await ingest([rec({ url: 'no-slash' })])).json().error_code).toBe(20001);
});

it('answers the day\'s top URLs, referers, client addresses and status codes from the ingested records', async () => {
  const records = [
    ...Array.from({ length: 5 }, () => rec({ url: '/hot.js', ip: '198.51.100.7', referer: 'https://ref.example/', bytes: 1000 })),
    ...Array.from({ length: 3 }, () => rec({ url: '/warm.css', ip: '198.51.100.8', status: 404, time: at('11', '30') })),
    rec({ url: '/cold.png', ip: '198.51.100.7', status: 502, time: at('11', '59') }),
  ];
  const stored = await ingest(records);
  expect(stored.json()).toMatchObject({ data: { stored: 9 } });
  const res = await c.get(`/api/analysis/?bucket_name=demo-cdn-01&date=${yesterday}&top=2`);
  expect(res.statusCode).toBe(200);
  const d = res.json().data;
  expect(d).toMatchObject({ date: yesterday, total: 9, bytes: 5000 + 300 + 100 });
  expect(d.urls).toEqual([{ key: '/hot.js', count: 5, bytes: 5000 }, { key: '/warm.css', count: 3, bytes: 300 }]);
  expect(d.referers).toEqual([{ key: 'https://ref.example/', count: 5, bytes: 5000 }]);
  expect(d.ips).toEqual([{ key: '198.51.100.7', count: 6, bytes: 5100 }, { key: '198.51.100.8', count: 3, bytes: 300 }]);
  expect(d.status.map((r: { key: string; count: number }) => [r.key, r.count])).toEqual([['200', 5], ['404', 3], ['502', 1]]);
});

it('lists hourly archives and downloads one as gzip in the combined log format', async () => {
  const list = (await c.get(`/api/analysis/archives/?bucket_name=demo-cdn-01&date=${yesterday}`)).json().data;
  expect(list.map((a: { hour: string; records: number }) => [a.hour, a.records])).toEqual([[`${yesterday} 10:00`, 5], [`${yesterday} 11:00`, 4]]);
  const res = await c.get(list[1].url);
  expect(res.headers['content-type']).toBe('application/gzip');
  expect(res.headers['content-disposition']).toContain('.log.gz');
  const lines = gunzipSync(res.rawPayload).toString('utf8').trim().split('\n');
  expect(lines).toHaveLength(4);
  const [y, m, dd] = yesterday.split('-');
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][Number(m) - 1];
  expect(lines[0]).toBe(`198.51.100.8 - - [${dd}/${month}/${y}:11:30:00 +0800] "GET /warm.css HTTP/1.1" 404 100 "-" "-" "act1.demo-example.com"`);
});

it('refuses a day outside the kept days, and a service of another account', async () => {
  expect((await c.get('/api/analysis/?bucket_name=demo-www&date=2020-01-01')).json()).toMatchObject({ error_code: 21000, errors: [{ path: '/date' }] });
  expect((await c.get('/api/analysis/?bucket_name=secure-www')).json().error_code).toBe(21905);
  expect((await c.get('/api/analysis/archives/?bucket_name=secure-www')).json().error_code).toBe(21905);
});

it('needs the log permission', async () => {
  const ops = await new Client(s.app).signIn('demo_ops'); // cdn + stats, no log
  expect((await ops.get('/api/analysis/?bucket_name=demo-www')).json().error_code).toBe(21111);
});

it('deletes access logs past the kept days', async () => {
  const { purgeAccessLogs } = await import('../../src/server/loganalysis/retention');
  const one = await s.db.selectFrom('access_logs').select('id').orderBy('id').executeTakeFirstOrThrow();
  await s.db.updateTable('access_logs').set({ at: new Date(Date.now() - 40 * 86_400_000) }).where('id', '=', one.id).execute();
  expect(await purgeAccessLogs(s.db)).toBe(1);
  expect(await s.db.selectFrom('access_logs').select('id').where('id', '=', one.id).executeTakeFirst()).toBeUndefined();
});
