/**
 * The statistics API (spec 001 §3, §5, §7–§9; docs/statistics.md): every parameter rule, the 95th
 * percentile on hand-computed 5-minute data, the choice of table, isolation between accounts and
 * sub-accounts, ingestion (token, idempotency, rollups) and the Excel workbook.
 */
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { startTestServer, Client, type TestServer } from './helpers';
import { hashPassword } from '../../src/server/accounts/passwords';
import { addDays, dayOf, dayStart, SLOT_S } from '../../src/shared/stats';

let s: TestServer;
let demo: Client;
const now = () => Math.floor(Date.now() / 1000);
const today = () => dayOf(now());
const yesterday = () => addDays(today(), -1);

/** A bucket with one domain for demo, whose 5-minute rows the test writes by hand. */
async function handBucket(name: string, domain: string, kind = 'cdn') {
  const owner = await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow();
  const b = await s.db.insertInto('buckets').values({ name, owner_id: owner.id, kind, remark: '手工数据' }).returning('id').executeTakeFirstOrThrow();
  const d = await s.db.insertInto('bucket_domains').values({ bucket_id: b.id, domain, cname: `${name}.cdn-cname.example.net` }).returning('id').executeTakeFirstOrThrow();
  return { account_id: owner.id, bucket_id: b.id, domain_id: d.id };
}

/** Writes 5-minute edge bytes for a domain from a day's midnight: bytes[i] at slot i. */
async function write5m(ids: { account_id: number; bucket_id: number; domain_id: number }, day: string, bytes: number[]) {
  const start = dayStart(day)!;
  const rows = bytes.map((b, i) => ({ ...ids, flow_type: 'cdn', direction: '', slot: new Date((start + i * SLOT_S) * 1000), bytes: b, reqs: b > 0 ? 10 : 0 }));
  for (let i = 0; i < rows.length; i += 300) await s.db.insertInto('traffic_5m').values(rows.slice(i, i + 300)).execute();
}

// seeding 5 days of traffic takes 25–70 s on a loaded 2-core machine: the limit guards against a hang, not speed
beforeAll(async () => {
  s = await startTestServer({ traffic: { days: 5, fiveMinuteDays: 3, geoHourlyDays: 2 } });
  demo = await new Client(s.app).signIn('demo');
}, 180_000);
afterAll(async () => {
  await s.close();
});

describe('parameters (spec 001 §5) and refusals', () => {
  it('defaults: one day ending now, 5-minute points, the 5-minute table', async () => {
    const r = await demo.get('/api/flow/statistic/');
    expect(r.statusCode).toBe(200);
    const d = r.json().data;
    expect(d).toMatchObject({ flow_type: 'cdn', period: 1, start_day: today(), end_day: today(), granularity: 300, tier: '5m' });
    expect(d.start).toBe(dayStart(today()));
    expect(Math.abs(d.end - now())).toBeLessThan(5);
    // only whole slots are drawn: the running one has no data yet
    expect(d.times.length).toBe(Math.floor((now() - d.start) / SLOT_S));
    expect(d.times.length).toBeLessThanOrEqual(288);
    expect(d._dataset.columns.yLeftData.data).toHaveLength(d.times.length);
    expect(d._dataset.unit.yLeftUnit).toMatch(/bps$/);
  });

  it('drops empty parameters', async () => {
    const r = await demo.get('/api/flow/statistic/?region=&isp=&flow_source=&ip_type=&query_type=&query_value=&period=&end_day=');
    expect(r.statusCode).toBe(200);
    expect(r.json().data).toMatchObject({ period: 1, tier: '5m' });
  });

  it('a past end day ends at the midnight after it; the start is end − (period − 1)', async () => {
    const r = (await demo.get(`/api/flow/statistic/?end_day=${yesterday()}&period=2`)).json().data;
    expect(r).toMatchObject({ start_day: addDays(today(), -2), end_day: yesterday(), period: 2, granularity: 3600 });
    expect(r.end).toBe(dayStart(today()));
    expect(r.times).toHaveLength(48);
    const withStart = (await demo.get(`/api/flow/statistic/?start_day=${addDays(today(), -2)}&end_day=${today()}&period=9`)).json().data;
    expect(withStart.period).toBe(3);
  });

  it.each([
    ['period=0', '/period'],
    ['period=x', '/period'],
    ['end_day=2026-13-01', '/end_day'],
    ['end_day=' + '2999-01-01', '/end_day'],
    ['period=32', '/period'],
    ['flow_type=ftp', '/flow_type'],
    ['flow_source=edge', '/flow_source'],
    ['ip_type=ipv4', '/ip_type'],
    ['query_value=demo-www', '/query_type'],
    ['region=atlantis', '/region'],
    ['isp=foo', '/isp'],
    ['flow_source=backsource&ip_type=ipv6', '/ip_type'],
  ])('refuses %s with 21000', async (qs, path) => {
    const r = await demo.get(`/api/flow/statistic/?${qs}`);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ result: false, error_code: 21000 });
    expect(r.json().errors.map((e: any) => e.path)).toContain(path);
  });

  it('182 days back at most', async () => {
    const ok = await demo.get(`/api/flow/amount/history/?start_day=${addDays(today(), -182)}&end_day=${addDays(today(), -160)}`);
    expect(ok.statusCode).toBe(200);
    const no = await demo.get(`/api/flow/amount/history/?start_day=${addDays(today(), -183)}&end_day=${addDays(today(), -160)}`);
    expect(no.json()).toMatchObject({ error_code: 21000 });
  });

  it('a variant refuses another flow type', async () => {
    expect((await demo.get('/api/flow/websocket/statistic?flow_type=cdn')).json().error_code).toBe(21000);
    expect((await demo.get('/api/flow/websocket/statistic?flow_type=websocket')).statusCode).toBe(200);
  });

  it('needs a session and the stats permission; another account’s service is 21905', async () => {
    const anon = await s.app.inject({ method: 'GET', url: '/api/flow/statistic/' });
    expect(anon.json().error_code).toBe(21110);
    const owner = await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow();
    await s.db.insertInto('users').values({ username: 'ops_nostats', email: null, mobile: null, password_hash: await hashPassword('demo123456'), parent_id: owner.id, permissions: JSON.stringify(['cdn']) }).execute();
    const child = await new Client(s.app).signIn('ops_nostats');
    expect((await child.get('/api/flow/statistic/')).json().error_code).toBe(21111);
    expect((await demo.get('/api/flow/statistic/?query_type=bucket&query_value=secure-www')).json().error_code).toBe(21905);
    expect((await demo.get('/api/flow/statistic/?query_type=domain&query_value=www.secure-example.com')).json().error_code).toBe(21905);
  });

  it('an authorized-service sub-account sees only its granted service', async () => {
    const ops = await new Client(s.app).signIn('demo_ops');
    const top = (await ops.get('/api/buckets/stats_top/')).json().data;
    expect(top.buckets.map((b: any) => b.bucket_name)).toEqual(['demo-www']);
    expect((await ops.get('/api/flow/statistic/?query_type=bucket&query_value=demo-static')).json().error_code).toBe(21905);
  });
});

describe('the 95th percentile (billing definition) on hand-computed data', () => {
  let ids: Awaited<ReturnType<typeof handBucket>>;
  beforeAll(async () => {
    ids = await handBucket('hand-www', 'hand.demo-example.com');
    // yesterday: 288 samples of (i + 1) × 1000 bps → bytes = bps × 300 / 8
    await write5m(ids, yesterday(), Array.from({ length: 288 }, (_, i) => ((i + 1) * 1000 * 300) / 8));
  });
  const q = (extra = '') => `/api/flow/bandwidth95/?query_type=domain&query_value=hand.demo-example.com&end_day=${yesterday()}${extra}`;

  it('one day: 288 samples, 14 dropped (288 × 5 % = 14.4, floored), the 15th highest is billed', async () => {
    const r = (await demo.get(q())).json().data;
    expect(r).toMatchObject({ samples: 288, dropped: 14, valid_days: 1, bandwidth95: 274000, value: 274, unit: 'Kbps' });
    // the billed sample is slot 273: 22:45 CST
    expect(r.peak_time).toBe(`${yesterday()} 22:45:00`);
  });

  it('a day without usage is not valid: two days give the same 95', async () => {
    const r = (await demo.get(q('&period=2'))).json().data;
    expect(r).toMatchObject({ samples: 288, valid_days: 1, bandwidth95: 274000 });
  });

  it('several domains: the samples are per-slot sums', async () => {
    const other = await handBucket('hand-img', 'hand-img.demo-example.com');
    // a constant 100 000 bps on the second domain: every sum rises by 100 000
    await write5m(other, yesterday(), Array(288).fill((100_000 * 300) / 8));
    const r = (await demo.get(`/api/flow/bandwidth95/?query_type=bucket&query_value=hand-www,hand-img&end_day=${yesterday()}`)).json().data;
    expect(r.bandwidth95).toBe(374000);
    // and the chart of that query carries the same 95
    const chart = (await demo.get(`/api/flow/statistic/?query_type=bucket&query_value=hand-www,hand-img&end_day=${yesterday()}`)).json().data;
    expect(chart.bandwidth95.bandwidth95).toBe(374000);
    expect(chart.usageData.peak_bandwidth).toBe(388000);
    expect(Math.max(...chart.bandwidth)).toBe(388000);
    // axis maximum: 1.1 × 388 Kbps = 426.8 → 427
    expect(chart._dataset.unit.yLeftUnit).toBe('Kbps');
    expect(chart._dataset.columns.yLeftData.yAxisMax).toBe(427);
  });

  it('no 95 under a region, a carrier, another flow source or flow type', async () => {
    for (const extra of ['&region=guangdong', '&isp=ctn', '&flow_source=backsource']) {
      const d = (await demo.get(`/api/flow/statistic/?query_type=domain&query_value=hand.demo-example.com&end_day=${yesterday()}${extra}`)).json().data;
      expect(d.bandwidth95).toBeNull();
    }
    expect((await demo.get('/api/flow/websocket/statistic')).json().data.bandwidth95).toBeNull();
  });
});

describe('which table answers', () => {
  it('1 day → 5-minute points; several days → hourly points from the 5-minute rows; a region → hourly region rows', async () => {
    expect((await demo.get('/api/flow/statistic/')).json().data.tier).toBe('5m');
    const week = (await demo.get('/api/flow/statistic/?period=2')).json().data;
    expect(week).toMatchObject({ tier: '5m', granularity: 3600 });
    const region = (await demo.get('/api/flow/statistic/?region=guangdong')).json().data;
    expect(region).toMatchObject({ tier: 'geo_1h', granularity: 3600 });
    const older = (await demo.get(`/api/flow/statistic/?region=guangdong&end_day=${addDays(today(), -2)}`)).json().data;
    expect(older).toMatchObject({ tier: 'geo_1d', granularity: 86400 });
  });

  it('before the 5-minute and hourly rows the daily table answers, and there is no 95', async () => {
    const end = addDays(today(), -3);
    const d = (await demo.get(`/api/flow/statistic/?end_day=${end}`)).json().data;
    expect(d).toMatchObject({ tier: '1d', granularity: 86400, bandwidth95: null });
    expect(d.times).toHaveLength(1);
    expect(d.traffic[0]).toBeGreaterThan(0);
  });

  it('the region shares add up to the total', async () => {
    const p = (await demo.get('/api/flow/proportion/?period=2')).json().data;
    const isp = p.isp_proportion.reduce((a: number, r: any) => a + r.bytes, 0);
    const region = p.region_proportion.reduce((a: number, r: any) => a + r.bytes, 0);
    expect(isp).toBeCloseTo(p.total_bytes, -3);
    expect(region).toBeCloseTo(p.total_bytes, -3);
    expect(p.region_proportion.length).toBeLessThanOrEqual(11);
    expect(p.isp_proportion.map((r: any) => r.isp)).toEqual(['ctn', 'cmn', 'cun', 'small_operator']);
    expect(p.top_of_region_and_proportion[0]).toEqual(expect.objectContaining({ province: expect.any(String), ctn: expect.any(Number), cmn: expect.any(Number) }));
    expect(Object.keys(p.region_top.columns)).toEqual(['ctn', 'cmn', 'cun', 'small_operator']);
    expect(p.ip_proportion.map((r: any) => r.ip_type)).toEqual(['ipv4', 'ipv6']);
  });

  it('the attack of the security CDN two days ago shows as inflow far above the filtered-out rest', async () => {
    const d = (await demo.get(`/api/flow/scdn/statistic?end_day=${addDays(today(), -2)}`)).json().data;
    const peak = Math.max(...d.attack);
    expect(peak).toBeGreaterThan(Math.max(...d.bandwidth) * 5);
    expect(d.attack_dataset.yAxisMax).toBeGreaterThanOrEqual(2);
  });

  it('the price config: MONTHLY_95 for demo', async () => {
    // the full price configuration is billing's (docs/billing.md "Prices"); statistics reads the CDN mode
    expect((await demo.get('/api/accounts/price_config')).json().data.cdn).toMatchObject({ amount_cal_type: 'MONTHLY_95' });
  });
});

describe('ingestion', () => {
  let token: string;
  let ids: Awaited<ReturnType<typeof handBucket>>;
  beforeAll(async () => {
    ids = await handBucket('ingest-www', 'ingest.demo-example.com');
    token = (await demo.post('/api/flow/ingest/token', {})).json().data.token;
  });
  const post = (body: unknown, tok = token) => s.app.inject({ method: 'POST', url: '/api/flow/ingest/', payload: body as object, headers: { authorization: `Bearer ${tok}` } });
  const slot = () => Math.floor(now() / 3600) * 3600 - 3600; // the start of the previous hour

  it('refuses a missing or wrong token, a misaligned slot and a foreign domain', async () => {
    expect((await post({ slot: slot(), records: [] }, 'nope')).statusCode).toBe(401);
    expect((await post({ slot: slot() + 7, records: [] })).json().error_code).toBe(21000);
    expect((await post({ slot: slot(), records: [{ domain: 'www.secure-example.com', bytes: 1, reqs: 1 }] })).json().error_code).toBe(21905);
  });

  it('stores a slot, builds every rollup, and a repeated call changes nothing', async () => {
    const records = [
      { domain: 'ingest.demo-example.com', region: 'guangdong', isp: 'ctn', bytes: 3_000_000, reqs: 100, hit_reqs: 90, s2xx: 99, s5xx: 1 },
      { domain: 'ingest.demo-example.com', region: 'beijing', isp: 'cun', ip_type: 'ipv6', bytes: 1_000_000, reqs: 50 },
      { domain: 'ingest.demo-example.com', region: 'beijing', isp: 'cun', flow_source: 'backsource', bytes: 400_000, reqs: 10 },
    ];
    for (let i = 0; i < 2; i++) {
      const r = await post({ slot: slot(), records });
      expect(r.json()).toMatchObject({ result: true, data: { domains: 1, records: 3 } });
    }
    const five = await s.db.selectFrom('traffic_5m').selectAll().where('domain_id', '=', ids.domain_id).execute();
    expect(five).toHaveLength(1);
    expect(five[0]).toMatchObject({ bytes: 4_000_000, reqs: 150, bytes_v6: 1_000_000, bs_bytes: 400_000, hit_reqs: 90, s2xx: 99, s5xx: 1 });
    const hour = await s.db.selectFrom('traffic_1h').selectAll().where('domain_id', '=', ids.domain_id).execute();
    expect(hour).toHaveLength(1);
    expect(hour[0]).toMatchObject({ bytes: 4_000_000, peak_bytes: 4_000_000 });
    const day = await s.db.selectFrom('traffic_1d').selectAll().where('domain_id', '=', ids.domain_id).execute();
    expect(day[0]).toMatchObject({ bytes: 4_000_000 });
    const geo = await sql<{ region: string; carrier: string; bytes: number }>`select region, carrier, bytes::float8 as bytes from traffic_geo_1d where domain_id = ${ids.domain_id} order by region`.execute(s.db);
    expect(geo.rows).toEqual([
      { region: 'beijing', carrier: 'cun', bytes: 1_000_000 },
      { region: 'guangdong', carrier: 'ctn', bytes: 3_000_000 },
    ]);
    // a corrected slot replaces the old one
    await post({ slot: slot(), records: [{ domain: 'ingest.demo-example.com', region: 'guangdong', isp: 'ctn', bytes: 600_000, reqs: 6 }] });
    const after = await s.db.selectFrom('traffic_1d').select(['bytes', 'reqs']).where('domain_id', '=', ids.domain_id).executeTakeFirstOrThrow();
    expect(after).toEqual({ bytes: 600_000, reqs: 6 });
    const geo2 = await sql<{ region: string; bytes: number }>`select region, bytes::float8 as bytes from traffic_geo_1h where domain_id = ${ids.domain_id} order by region`.execute(s.db);
    expect(geo2.rows).toEqual([{ region: 'beijing', bytes: 0 }, { region: 'guangdong', bytes: 600_000 }]);
    // and the API reads it
    const d = (await demo.get('/api/flow/statistic/?query_type=domain&query_value=ingest.demo-example.com&period=2')).json().data;
    expect(d.traffic.reduce((a: number, b: number) => a + b, 0)).toBe(600_000);
  });
});

describe('the Excel download', () => {
  it('is a workbook of the chart’s query: one sheet per series, 5-minute rows, times and units in the header', async () => {
    const r = await demo.get(`/api/flow/statistic/download/?query_type=domain&query_value=hand.demo-example.com&end_day=${yesterday()}`);
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(String(r.headers['content-disposition'])).toContain('attachment');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(r.rawPayload as any);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['带宽', '流量', '请求数']);
    const bw = wb.getWorksheet('带宽')!;
    expect(String(bw.getRow(2).getCell(1).value)).toContain(`${yesterday()} 00:00:00`);
    expect(bw.getRow(3).values).toEqual([undefined, '时间', '带宽（Kbps）']);
    expect(bw.rowCount).toBe(3 + 288);
    expect(bw.getRow(4).values).toEqual([undefined, `${yesterday()} 00:00:00`, 1]);
    expect(bw.getRow(3 + 288).values).toEqual([undefined, `${yesterday()} 23:55:00`, 288]);
    // an hourly interval gives 24 rows
    const h = await demo.get(`/api/flow/statistic/download/?query_type=domain&query_value=hand.demo-example.com&end_day=${yesterday()}&interval=3600`);
    const wb2 = new ExcelJS.Workbook();
    await wb2.xlsx.load(h.rawPayload as any);
    expect(wb2.getWorksheet('流量')!.rowCount).toBe(3 + 24);
  });

  it('refuses a malformed download like the chart', async () => {
    expect((await demo.get('/api/flow/statistic/download/?period=0')).json().error_code).toBe(21000);
  });
});
