/**
 * Statistics and bills from the edge's own traffic (docs/statistics.md "Edge traffic"): real requests
 * through nginx, the agent reading its access log and reporting, the server's statistics and the day
 * bill. Bytes are counted at the client's socket (a raw HTTP/1.1 exchange): they are nginx's
 * $bytes_sent exactly.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import net from 'node:net';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { sql } from 'kysely';
import { startEdgeStack, type EdgeStack } from './harness';
import { Geo, CountryDb, GEOIP_V4 } from '../../src/edge/logs/geoip';
import { parseLine, STATE_FILE } from '../../src/edge/logs/shipper';
import { ACCESS_LOG_FLUSH_MS } from '../../src/edge/compile/main';
import { computeBill } from '../../src/server/billing/bills/make';
import { demoPipelineTick } from '../../src/server/seed/live-traffic';
import { GB } from '../../src/server/billing/bills/compute';
import { dayOf, midnightOf, SLOT_S } from '../../src/shared/stats/time';

jest.setTimeout(240_000);

let edge: EdgeStack;
let demoId: number;
/** bytes and requests sent to the demo's CDN services in this file (the day bill's cdn usage) */
const cdnSent = { bytes: 0, reqs: 0 };

interface Raw {
  status: number;
  bytes: number;
  cache: string;
  /** the status line and headers, with the blank line after them */
  head: number;
  encoding: string;
  /** the body as sent, de-chunked */
  body: Buffer;
}

/** One request over its own connection; every byte the edge sent is counted. */
function raw(host: string, p: string, localAddress?: string, acceptEncoding?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host: '127.0.0.1', port: edge.ports.http, localAddress });
    const chunks: Buffer[] = [];
    const ae = acceptEncoding ? `Accept-Encoding: ${acceptEncoding}\r\n` : '';
    sock.on('connect', () => sock.write(`GET ${p} HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: curl/8\r\n${ae}Connection: close\r\n\r\n`));
    sock.on('data', (c) => chunks.push(c));
    sock.on('error', reject);
    sock.on('end', () => {
      const all = Buffer.concat(chunks);
      const head = all.subarray(0, all.indexOf('\r\n\r\n')).toString('latin1');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const cache = /\r\nx-cache: *([^\r]*)/i.exec(head)?.[1] ?? '';
      const encoding = /\r\ncontent-encoding: *([^\r]*)/i.exec(head)?.[1] ?? '';
      if (host.startsWith('act')) {
        cdnSent.bytes += all.length;
        cdnSent.reqs += 1;
      }
      let body = all.subarray(head.length + 4);
      if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
        const parts: Buffer[] = [];
        for (let at = 0; ; ) {
          const eol = body.indexOf('\r\n', at);
          const size = parseInt(body.subarray(at, eol).toString('latin1'), 16);
          if (!size) break;
          parts.push(body.subarray(eol + 2, eol + 2 + size));
          at = eol + 2 + size + 2;
        }
        body = Buffer.concat(parts);
      }
      resolve({ status, bytes: all.length, cache, head: head.length + 4, encoding, body });
    });
  });
}

async function domainId(domain: string): Promise<number> {
  return (await edge.server.db.selectFrom('bucket_domains').select('id').where('domain', '=', domain).executeTakeFirstOrThrow()).id;
}

/** What the statistics tables hold for a domain (all slots). */
async function stored(domain: string) {
  const id = await domainId(domain);
  const r = await sql<Record<string, number>>`
    select coalesce(sum(bytes), 0)::float8 as bytes, coalesce(sum(reqs), 0)::float8 as reqs, coalesce(sum(hit_reqs), 0)::float8 as hit_reqs,
           coalesce(sum(s2xx), 0)::float8 as s2xx, coalesce(sum(s3xx), 0)::float8 as s3xx, coalesce(sum(s4xx), 0)::float8 as s4xx, coalesce(sum(s5xx), 0)::float8 as s5xx
    from traffic_5m where domain_id = ${id}`.execute(edge.server.db);
  return Object.fromEntries(Object.entries(r.rows[0]).map(([k, v]) => [k, Number(v)])) as Record<string, number>;
}

async function until<T>(what: string, f: () => Promise<T | null | undefined | false>, ms = 60_000, every = 500): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`等待超时：${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

const logFile = () => path.join(edge.dir, 'logs', 'access.log');
/** nginx buffers the access log (ACCESS_LOG_FLUSH_MS): wait until the last lines are on disk, then report. */
const flushLog = async () => {
  await new Promise((r) => setTimeout(r, ACCESS_LOG_FLUSH_MS + 150));
  await edge.agent.traffic.flush();
};

beforeAll(async () => {
  edge = await startEdgeStack();
  await edge.waitLive();
  demoId = (await edge.server.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await edge?.close();
});

describe('client places from the country database', () => {
  const geo = new Geo();
  const have = fs.existsSync(GEOIP_V4);
  (have ? test : test.skip)('a country where the database knows it; China without its province, private addresses: other; loopback: local', () => {
    expect(CountryDb.open(GEOIP_V4)).not.toBeNull();
    expect(geo.place('8.8.8.8')).toMatchObject({ country: 'US', region: 'north_america', isp: 'other', ip_type: 'ipv4', local: false });
    expect(geo.place('81.2.69.160')).toMatchObject({ country: 'GB', region: 'europe' });
    expect(geo.place('203.198.7.66')).toMatchObject({ country: 'HK', region: 'hongkong' });
    // a mainland address: the country only, so the province (the region) is not guessed
    expect(geo.place('114.114.114.114')).toMatchObject({ country: 'CN', region: 'other' });
    expect(geo.place('10.1.2.3')).toMatchObject({ country: null, region: 'other', local: false });
    expect(geo.place('127.0.0.1')).toMatchObject({ region: 'other', local: true });
    expect(geo.place('::1')).toMatchObject({ region: 'other', local: true, ip_type: 'ipv6' });
    expect(geo.place('::ffff:8.8.4.4')).toMatchObject({ country: 'US', ip_type: 'ipv4' });
  });
  test('log lines: what is read, what is refused', () => {
    expect(parseLine('{"t":"1764130000.123","host":"A.example.com","svc":"7","ip":"127.0.0.1","scheme":"https","status":200,"bytes":512,"cache":"HIT","rt":0.004,"ub":""}')).toMatchObject({ host: 'a.example.com', svc: 7, https: true, bytes: 512, cache: 'HIT', ub: 0 });
    expect(parseLine('{"t":"1764130000.1","host":"x","svc":"","status":404,"bytes":10,"ub":"100, 200"}')).toMatchObject({ svc: null, ub: 300 });
    expect(parseLine('{"t":"1764130000.1","host":"x","svc":"3","status":200,"bytes":10,"pre":"1"}')).toMatchObject({ svc: 3, preheat: true });
    expect(parseLine('{"t":"1764130000.1","host":"x","svc":"3","status":200,"bytes":10,"pre":"0"}')).toMatchObject({ preheat: false });
    // compressed by gzip or Brotli: the body at its size before compression (headers as sent)
    expect(parseLine('{"t":"1","host":"x","svc":"3","status":200,"bytes":1200,"body_bytes":1000,"gz":"3.50","br":""}')).toMatchObject({ bytes: 1200, bfCpBytes: 3700 });
    expect(parseLine('{"t":"1","host":"x","svc":"3","status":200,"bytes":1200,"body_bytes":1000,"gz":"","br":"2.25"}')).toMatchObject({ bfCpBytes: 2450 });
    // not compressed, or a line of an earlier format: as sent
    expect(parseLine('{"t":"1","host":"x","svc":"3","status":200,"bytes":1200,"body_bytes":1000,"gz":"","br":""}')).toMatchObject({ bfCpBytes: 1200 });
    expect(parseLine('{"t":"1","host":"x","svc":"3","status":200,"bytes":10}')).toMatchObject({ bfCpBytes: 10 });
    for (const bad of ['not json', '{"t":"x","host":"h","status":200,"bytes":1}', '{"t":"1","host":"h","status":"ok","bytes":1}', '[]', '{"t":"1","status":200,"bytes":-1,"host":"h"}']) expect(parseLine(bad)).toBeNull();
  });
});

test('curl-like requests show in /api/flow/statistic/ within a minute: domain, bytes, requests, status classes, hit ratio; loopback marked local', async () => {
  const host = 'act1.demo-example.com';
  const answers: Raw[] = [];
  for (const p of ['/echo/one', '/big.txt', '/big.txt', '/status/404', '/status/503', '/css/site.css']) answers.push(await raw(host, p));
  const sent = answers.reduce((a, r) => a + r.bytes, 0);
  const hits = answers.filter((r) => r.cache === 'HIT').length;
  expect(hits).toBeGreaterThanOrEqual(1);
  const t0 = Date.now();
  // nothing is flushed by hand: the agent's own timer reports
  const data = await until('统计接口出现边缘流量', async () => {
    const r = (await edge.client.get(`/api/flow/statistic/?query_type=domain&query_value=${host}`)).json();
    return r.data?.usageData?.reqs_total === answers.length ? r.data : null;
  });
  console.log(`请求到出现在统计接口：${Date.now() - t0} ms`);
  expect(data.usageData.flow_total).toBe(sent);
  // the point of the slot the requests were made in
  const slot = Math.floor(Date.now() / 1000 / SLOT_S) * SLOT_S;
  const i = data.times.findIndex((t: number) => t === slot || t === slot - SLOT_S);
  expect(i).toBeGreaterThanOrEqual(0);
  expect(data.requests.reduce((a: number, x: number) => a + x, 0)).toBe(answers.length);
  const s = await stored(host);
  const cls = (c: number) => answers.filter((r) => Math.floor(r.status / 100) === c).length;
  expect(s).toMatchObject({ bytes: sent, reqs: answers.length, hit_reqs: hits, s2xx: cls(2), s3xx: cls(3), s4xx: cls(4), s5xx: cls(5) });
  // status classes through the API as well
  const st = (await edge.client.get(`/api/flow/status/history/?query_type=domain&query_value=${host}`)).json().data;
  const total = (k: string) => (st[k] as number[]).reduce((a, x) => a + x, 0);
  expect([total('s2xx'), total('s4xx'), total('s5xx')]).toEqual([cls(2), cls(4), cls(5)]);
  // the hit ratio of the health view
  const health = (await edge.client.get(`/api/flow/health_degree/detail/?query_type=domain&query_value=${host}`)).json().data;
  expect(JSON.stringify(health)).toContain('hit_degree');
  // loopback: counted for the domain, region and carrier 其他, marked local in the edge's sums
  const id = await domainId(host);
  const geo = await edge.server.db.selectFrom('traffic_geo_1h').select(['region', 'carrier', 'reqs']).where('domain_id', '=', id).execute();
  expect(geo.map((g) => [g.region, g.carrier, Number(g.reqs)])).toEqual([['other', 'other', answers.length]]);
  const local = await edge.server.db.selectFrom('edge_traffic').select(['local', sql<number>`sum(reqs)::int`.as('n')]).where('domain_id', '=', id).groupBy('local').execute();
  expect(local).toEqual([{ local: true, n: answers.length }]);
});

test('a body the edge compressed: its bytes as sent, and before compression (bf_cp_bytes) at its size before gzip or Brotli, into the flow history', async () => {
  const host = 'act8.demo-example.com';
  const plain = await raw(host, '/big.txt');
  expect(plain.encoding).toBe('');
  const gz = await raw(host, '/big.txt', undefined, 'gzip');
  const br = await raw(host, '/big.txt', undefined, 'br');
  expect([gz.encoding, br.encoding]).toEqual(['gzip', 'br']);
  expect(zlib.gunzipSync(gz.body).equals(plain.body)).toBe(true);
  expect(gz.bytes).toBeLessThan(plain.bytes / 2);
  await flushLog();
  const id = await domainId(host);
  const row = await until('边缘流量入库', async () => {
    const r = await sql<{ bytes: number; bf: number; reqs: number }>`select sum(bytes)::float8 as bytes, sum(bf_cp_bytes)::float8 as bf, sum(reqs)::float8 as reqs from traffic_5m where domain_id = ${id}`.execute(edge.server.db);
    return Number(r.rows[0]?.reqs) === 3 ? r.rows[0] : null;
  });
  const sent = plain.bytes + gz.bytes + br.bytes;
  expect(Number(row.bytes)).toBe(sent);
  // each compressed body counted at the plain body's size (nginx's ratio has two decimals: within 1 %)
  const before = plain.bytes + gz.head + plain.body.length + br.head + plain.body.length;
  expect(Math.abs(Number(row.bf) - before)).toBeLessThan(plain.body.length * 0.02);
  // the flow history (spec 001 §3): before compression, what compression saved, the peak before compression
  const h = (await edge.client.get(`/api/flow/amount/history/?query_type=domain&query_value=${host}`)).json();
  expect(h.result).toBe(true);
  const today = h.data.find((d: { date: string }) => d.date === dayOf(Math.floor(Date.now() / 1000)));
  expect(today).toMatchObject({ bytes: sent, bf_cp_bytes: Number(row.bf), cp_bytes: Number(row.bf) - sent, reqs: 3 });
  expect(today.bf_cp_bandwidth).toBeGreaterThan(today.bandwidth);
  // the service's whole traffic beside the selected domain's: demo-cdn-08 has only this domain
  expect(today.service_flow_total).toBe(h.data.reduce((a: number, d: { bytes: number }) => a + d.bytes, 0));
  expect(h.summary.service_flow_total).toBe(today.service_flow_total);
});

test('a log line the agent cannot read is counted and skipped; ingestion goes on', async () => {
  await flushLog();
  const before = edge.agent.traffic.totals;
  fs.appendFileSync(logFile(), 'this is not json\n{"t":"yesterday","host":"act2.demo-example.com","status":200,"bytes":5}\n');
  const r = await raw('act2.demo-example.com', '/echo/after-garbage');
  await flushLog();
  const after = edge.agent.traffic.totals;
  expect(after.bad - before.bad).toBe(2);
  expect(after.lines - before.lines).toBe(3);
  expect(await stored('act2.demo-example.com')).toMatchObject({ reqs: 1, bytes: r.bytes });
  const bad = await sql<{ n: number }>`select sum(bad)::int as n from edge_traffic_batches`.execute(edge.server.db);
  expect(Number(bad.rows[0].n)).toBeGreaterThanOrEqual(2);
});

test('log rotation (rename + USR1): every request counted once, before, during and after', async () => {
  const host = 'act3.demo-example.com';
  let bytes = 0;
  let n = 0;
  const send = async (k: number) => {
    for (let i = 0; i < k; i++) {
      bytes += (await raw(host, `/echo/rot${n}`)).bytes;
      n++;
    }
  };
  await send(3);
  await flushLog();
  await send(2);
  fs.renameSync(logFile(), `${logFile()}.1`);
  await send(2); // still written to the renamed file
  await flushLog(); // the agent follows the renamed file by its inode
  const pid = Number(fs.readFileSync(path.join(edge.dir, 'run', 'nginx.pid'), 'utf8'));
  process.kill(pid, 'SIGUSR1');
  await until('nginx 重新打开 access.log', async () => fs.existsSync(logFile()), 10_000, 50);
  await new Promise((r) => setTimeout(r, 300));
  await send(4);
  await flushLog();
  await flushLog();
  expect(await stored(host)).toMatchObject({ reqs: n, bytes });
  const state = JSON.parse(fs.readFileSync(path.join(edge.dir, STATE_FILE), 'utf8'));
  expect(state.pending).toBeNull();
});

test('a batch the server refuses as malformed is skipped, not retried forever; what follows is counted', async () => {
  await flushLog();
  await edge.agent.traffic.stop();
  const file = path.join(edge.dir, STATE_FILE);
  const state = JSON.parse(fs.readFileSync(file, 'utf8'));
  state.pending = { id: 'malformed-1', offsets: {}, lines: 1, bad: 0, unknown: 0, records: [{ host: 'act6.demo-example.com', svc: 1, slot: 0, region: 'x'.repeat(100), isp: 'other', ip_type: 'ipv4', local: false, bytes: -1, reqs: 1 }] };
  fs.writeFileSync(file, JSON.stringify(state));
  edge.agent.traffic.start();
  const r = await raw('act6.demo-example.com', '/echo/after-refusal');
  await flushLog();
  expect(edge.agent.traffic.totals.refused).toBe(1);
  expect(JSON.parse(fs.readFileSync(file, 'utf8')).pending).toBeNull();
  expect(await stored('act6.demo-example.com')).toMatchObject({ reqs: 1, bytes: r.bytes });
});

describe('killing the reporter', () => {
  const children: ChildProcess[] = [];
  const startChild = (env: Record<string, string> = {}) => {
    // node itself with tsx's loader (the tsx command would run node as its own child, which a kill leaves running)
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/edge/logs/main.ts'], {
      env: { ...process.env, NODE_OPTIONS: '', EDGE_DIR: edge.dir, EDGE_CONTROL_URL: edge.url, EDGE_NODE_KEY: edge.key, EDGE_NODE_NAME: 'test', EDGE_TRAFFIC_INTERVAL_MS: '300', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr!.on('data', () => undefined);
    children.push(child);
    return child;
  };
  const kill = async (c: ChildProcess) => {
    if (c.exitCode !== null || c.signalCode) return;
    const gone = new Promise((r) => c.once('exit', r));
    c.kill('SIGKILL');
    await gone;
  };
  afterAll(async () => {
    for (const c of children) await kill(c);
  });

  test('killed after the server had a batch and before it saved its offsets, and at random moments: every request counted exactly once', async () => {
    // the agent's own reporter steps aside; the same reporter runs as a process we can kill
    await edge.agent.traffic.stop();
    const host = 'act4.demo-example.com';
    let bytes = 0;
    let n = 0;
    const send = async (k: number) => {
      for (let i = 0; i < k; i++) {
        bytes += (await raw(host, `/echo/k${n}`)).bytes;
        n++;
      }
    };
    const db = edge.server.db;
    const batches = async () => Number((await sql<{ n: number }>`select count(*)::int as n from edge_traffic_batches`.execute(db)).rows[0].n);

    // 1. the exact moment: the server has counted the batch, the reporter has not moved its offsets
    await send(20);
    const before = await batches();
    let child = startChild({ EDGE_TRAFFIC_PAUSE_AFTER_SEND_MS: '5000' });
    await until('服务器收到批次', async () => (await batches()) > before, 30_000, 20);
    await kill(child);
    const state = JSON.parse(fs.readFileSync(path.join(edge.dir, STATE_FILE), 'utf8'));
    expect(state.pending).not.toBeNull();
    expect((await stored(host)).reqs).toBe(20);

    // 2. random kills while requests keep coming
    for (let round = 0; round < 4; round++) {
      child = startChild();
      // the agent's reporter tries too: one of the two holds traffic.lock, the other stays quiet
      if (round === 1) {
        await new Promise((r) => setTimeout(r, 1500));
        edge.agent.traffic.start();
        await flushLog();
      }
      await send(10);
      await new Promise((r) => setTimeout(r, 200 + Math.floor(Math.random() * 1500)));
      await kill(child);
    }
    await send(5);
    await edge.agent.traffic.stop();
    child = startChild();
    await until('全部请求入库', async () => (await stored(host)).reqs >= n, 60_000, 200);
    await new Promise((r) => setTimeout(r, 1500));
    await kill(child);
    expect(await stored(host)).toMatchObject({ reqs: n, bytes });
    // the batch sent again after the kill was recognised, not counted again
    const repeats = await sql<{ n: number }>`select coalesce(sum(repeats), 0)::int as n from edge_traffic_batches`.execute(db);
    expect(Number(repeats.rows[0].n)).toBeGreaterThanOrEqual(1);
    // the agent's reporter takes over from the state on disk
    edge.agent.traffic.start();
    await send(1);
    await flushLog();
    expect(await stored(host)).toMatchObject({ reqs: n, bytes });
  });
});

test('force-HTTPS 301s are counted for their domain and service, bytes and a 3xx each (issue 34 item 15), and billed', async () => {
  const host = 'act10.demo-example.com';
  await edge.enableHttps(host, { forceHttps: true });
  await edge.waitLive();
  const answers: Raw[] = [];
  for (const p of ['/echo/f1', '/echo/f2?a=1', '/css/site.css']) answers.push(await raw(host, p));
  expect(answers.map((r) => r.status)).toEqual([301, 301, 301]);
  await flushLog();
  const sent = answers.reduce((a, r) => a + r.bytes, 0);
  await until('301 入库', async () => ((await stored(host)).reqs >= 3 ? true : null));
  expect(await stored(host)).toMatchObject({ reqs: 3, bytes: sent, s3xx: 3, s2xx: 0 });
  const data = (await edge.client.get(`/api/flow/statistic/?query_type=domain&query_value=${host}`)).json().data;
  expect(data.usageData).toMatchObject({ reqs_total: 3, flow_total: sent });
});

test("the agent's preheat fills the cache but is not the customer's traffic; the node's own headers never reach the origin", async () => {
  const host = 'act7.demo-example.com';
  const res = await edge.client.post('/api/preheat', { urls: [`http://${host}/css/site.css?t=preheat`] });
  expect(res.statusCode).toBe(200);
  const [id] = res.json().data.task_ids as number[];
  await until('预热完成', async () => {
    const log = (await edge.client.get('/api/purge/list?limit=100')).json().data as { id: number; status: string }[];
    const t = log.find((x) => x.id === id);
    return t && t.status !== 'waiting' ? t : null;
  });
  // the node's key in its own headers (as the preheat and the rule tester send them) goes no further
  const echo = await edge.request(host, '/echo/own-headers', { headers: { 'x-edge-preheat': `Bearer ${edge.key}`, 'x-edge-trace': `Bearer ${edge.key}` } });
  const seen = JSON.parse(echo.text).headers as Record<string, string>;
  expect(seen['x-edge-preheat']).toBeUndefined();
  expect(seen['x-edge-trace']).toBeUndefined();
  // the customer's request: a HIT the preheat made, the only request counted for the domain
  const r = await raw(host, '/css/site.css?t=preheat');
  expect(r.cache).toBe('HIT');
  await flushLog();
  await until('边缘流量入库', async () => ((await stored(host)).reqs >= 1 ? true : null));
  expect(await stored(host)).toMatchObject({ reqs: 1, bytes: r.bytes });
});

test('a day bill of a service that only ever had edge traffic charges the bytes sent through the edge', async () => {
  // enough bytes to show in GB with three decimals
  for (let i = 0; i < 48; i++) await raw('act5.demo-example.com', '/big.txt');
  await flushLog();
  const act5 = await stored('act5.demo-example.com');
  expect(act5.reqs).toBe(48);
  const today = dayOf(Math.floor(Date.now() / 1000));
  const bill = await computeBill(edge.server.db, demoId, 'DAY_BILL', today);
  const day = bill.usage.byType.get('cdn')![0];
  // every byte the demo's CDN services sent through the edge in this file, and nothing invented
  expect(day.bytes).toBe(cdnSent.bytes);
  const cdn = bill.detail.used.cdn!;
  expect(cdn.used.discharge).toBeCloseTo(Math.round((cdnSent.bytes / GB) * 1000) / 1000, 3);
  expect(cdn.used.discharge).toBeGreaterThan(0);
  expect(cdn.lines.find((l) => l.item === 'bandwidth')).toBeDefined();
  // the 5-minute samples the bandwidth is billed on are the edge's slots, adding up to the same bytes
  expect(Array.from(day.slots ?? []).reduce((a, x) => a + x, 0)).toBe(cdnSent.bytes);
});

test('the demo replay leaves the edge domains alone', async () => {
  const db = edge.server.db;
  const edgeId = await domainId('act1.demo-example.com');
  const otherId = await domainId('act9.demo-example.com');
  const b = await db.selectFrom('bucket_domains').select(['id', 'bucket_id']).where('id', 'in', [edgeId, otherId]).execute();
  const now = Math.floor(Date.now() / 1000);
  const slot = Math.floor(now / SLOT_S) * SLOT_S - SLOT_S; // the newest slot that has ended
  // yesterday's same slot for both domains, as the seed would have written it
  for (const d of b) {
    await db
      .insertInto('traffic_5m')
      .values({ domain_id: d.id, flow_type: 'cdn', direction: '', slot: new Date((slot - 86400) * 1000), account_id: demoId, bucket_id: d.bucket_id, bytes: 1_000_000, reqs: 100 } as never)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  const before = await stored('act1.demo-example.com');
  await demoPipelineTick(db, { now: slot + SLOT_S + 10, random: () => 0.5 });
  // the other domain got its invented slot; the edge domain kept only what the edge counted
  const other = await db.selectFrom('traffic_5m').select('reqs').where('domain_id', '=', otherId).where('slot', '=', new Date(slot * 1000)).executeTakeFirst();
  expect(Number(other?.reqs)).toBe(100);
  expect(await stored('act1.demo-example.com')).toEqual(before);
  // the running slot is drawn for the edge's domain alone, not beside a replayed one (its point would drop)
  const running = Math.floor(Date.now() / 1000 / SLOT_S) * SLOT_S;
  const last = async (v: string) => {
    const t = (await edge.client.get(`/api/flow/statistic/?query_type=domain&query_value=${v}`)).json().data.times as number[];
    return t[t.length - 1];
  };
  // (only when the two slots are of one day (UTC+8): the page's default query is today's; a CI rehearsal at
  // 16:00 UTC, midnight there, drew today's first slot alone)
  if (running === slot + SLOT_S && midnightOf(slot) === midnightOf(running)) {
    expect(await last('act1.demo-example.com')).toBe(running);
    expect(await last('act1.demo-example.com,act9.demo-example.com')).toBe(slot);
  }
});
