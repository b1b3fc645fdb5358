/**
 * GET /api/dashboard/: the last 24 hours of the account's traffic, certificates about to expire,
 * unread messages, and the tech blog read from a real feed served on loopback.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { startTestServer, Client, type TestServer } from './helpers';
import { parseFeed, blogReader, BLOG_CACHE_MS } from '../../src/server/dashboard/blog';
import { notify } from '../../src/server/messages/notify';

const RSS = `<?xml version="1.0"?><rss version="2.0"><channel><title>技术博客</title>
<item><title><![CDATA[HTTP/3 在边缘节点的实践]]></title><link>https://blog.example.com/http3</link><pubDate>Mon, 16 Nov 2026 08:00:00 GMT</pubDate></item>
<item><title>刷新 &amp; 预热的配额</title><link>https://blog.example.com/purge</link></item>
<item><title>没有链接的条目</title></item>
<item><title>javascript 链接</title><link>javascript:alert(1)</link></item>
</channel></rss>`;
const ATOM = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>边缘规则</title><link href="https://blog.example.com/edge"/><updated>2026-11-20T10:00:00Z</updated></entry></feed>`;

let feed: http.Server;
let feedUrl = '';
let hits = 0;
let s: TestServer;

beforeAll(async () => {
  feed = http.createServer((req, res) => {
    hits++;
    if (req.url === '/atom') return res.writeHead(200, { 'content-type': 'application/atom+xml' }).end(ATOM);
    if (req.url === '/broken') return res.writeHead(500).end();
    res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' }).end(RSS);
  });
  await new Promise<void>((r) => feed.listen(0, '127.0.0.1', r));
  feedUrl = `http://127.0.0.1:${(feed.address() as AddressInfo).port}`;
  s = await startTestServer({ config: { techBlogFeed: `${feedUrl}/rss` }, traffic: { days: 2, fiveMinuteDays: 2, geoHourlyDays: 2 } });
}, 120_000);
afterAll(async () => {
  await s?.close();
  feed.close();
});

test('RSS and Atom entries, titles unescaped, only http(s) links', () => {
  expect(parseFeed(RSS)).toEqual([
    { title: 'HTTP/3 在边缘节点的实践', link: 'https://blog.example.com/http3', date: Date.parse('2026-11-16T08:00:00Z') / 1000 },
    { title: '刷新 & 预热的配额', link: 'https://blog.example.com/purge', date: null },
  ]);
  expect(parseFeed(ATOM)).toEqual([{ title: '边缘规则', link: 'https://blog.example.com/edge', date: Date.parse('2026-11-20T10:00:00Z') / 1000 }]);
});

test('the feed is read once an hour and a failure keeps the last entries', async () => {
  let clock = 1_000_000;
  const read = blogReader(`${feedUrl}/atom`, () => clock);
  const before = hits;
  expect(await read()).toHaveLength(1);
  expect(await read()).toHaveLength(1);
  expect(hits).toBe(before + 1);
  clock += BLOG_CACHE_MS;
  expect(await read()).toHaveLength(1);
  expect(hits).toBe(before + 2);
  expect(await blogReader(`${feedUrl}/broken`)()).toEqual([]);
  expect(await blogReader(null)()).toEqual([]);
});

test('the dashboard of demo: 24 hourly points of its own traffic, expiring certificates, unread messages, the blog', async () => {
  const demo = await new Client(s.app).signIn('demo');
  const demoId = (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
  const before = (await demo.get('/api/dashboard/')).json().data.messages.unread;
  await notify(s.db, demoId, { category: 'billing', title: '余额不足提醒', body: '您的账户余额已低于 100.00 元' });
  const res = await demo.get('/api/dashboard/');
  expect(res.statusCode).toBe(200);
  const d = res.json().data;
  expect(d.traffic.times).toHaveLength(24);
  expect(d.traffic.times[1] - d.traffic.times[0]).toBe(3600);
  // the sum of the points is the account's 5-minute traffic in those hours
  const start = d.traffic.times[0];
  const total = Number(
    (await sql<{ b: number }>`select coalesce(sum(bytes), 0)::bigint as b from traffic_5m where account_id = ${demoId} and slot >= to_timestamp(${start}) and slot < to_timestamp(${start + 24 * 3600})`.execute(s.db)).rows[0].b,
  );
  expect(total).toBeGreaterThan(0);
  expect(d.traffic.traffic.reduce((a: number, b: number) => a + b, 0)).toBe(total);
  expect(Math.max(...d.traffic.bandwidth)).toBeGreaterThan(0);
  expect(d.messages.unread).toBe(before + 1);
  expect(d.messages.latest[0].title).toBe('余额不足提醒');
  expect(d.blog.map((b: any) => b.title)).toEqual(['HTTP/3 在边缘节点的实践', '刷新 & 预热的配额']);
  expect(Array.isArray(d.certificates)).toBe(true);

  // another account sees none of demo's traffic or messages
  const o = (await (await new Client(s.app).signIn('demonew')).get('/api/dashboard/')).json().data;
  expect(o.messages.unread).toBe(0);
  expect(o.traffic.traffic.every((v: number) => v === 0)).toBe(true);
});

test('a certificate expiring within 30 days is listed with its days left', async () => {
  const demoId = (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
  const cert = await s.db.selectFrom('certificates').selectAll().where('account_id', '=', demoId).executeTakeFirstOrThrow();
  const soon = new Date(Date.now() + 10.5 * 86400_000);
  const { id } = await s.db
    .insertInto('certificates')
    .values({ ...cert, id: undefined as never, fingerprint: 'dashboard-test', common_name: 'soon.demo-example.com', valid_to: soon, domains: JSON.stringify(cert.domains) as never })
    .returning('id')
    .executeTakeFirstOrThrow();
  const demo = await new Client(s.app).signIn('demo');
  const d = (await demo.get('/api/dashboard/')).json().data;
  expect(d.certificates).toContainEqual({ id, common_name: 'soon.demo-example.com', valid_to: Math.floor(soon.getTime() / 1000), days_left: 10 });
});

test('a resource package expiring within 30 days is listed; one that lasts longer is not', async () => {
  const { grantPackage } = await import('../../src/server/billing/resources/grant');
  const demoId = (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
  const soon = await grantPackage(s.db, demoId, { kind: 'resources', spec: '看板测试 100 GB', amount: 100, unit: 'GB', validDays: 10 });
  const later = await grantPackage(s.db, demoId, { kind: 'resources', spec: '看板测试 1 TB', amount: 1, unit: 'TB', validDays: 200 });
  const d = (await (await new Client(s.app).signIn('demo')).get('/api/dashboard/')).json().data;
  const ids = d.packages.map((p: { id: number }) => p.id);
  expect(ids).toContain(soon);
  expect(ids).not.toContain(later);
  expect(d.packages.find((p: { id: number }) => p.id === soon)).toMatchObject({ label: expect.any(String), spec: '看板测试 100 GB', remain: 100, unit: 'GB' });
  expect(d.packages.find((p: { id: number }) => p.id === soon).days_left).toBeGreaterThanOrEqual(9);
});
