/**
 * Issue 19, items 12–15 (money) on hand-written statistics rows of last month, through the stored tables:
 * overseas traffic from Europe and the Americas at the `other` ladder (traffic_geo_1d); a traffic package
 * bought mid-month covers only the days after its purchase; the 95 the statistics page draws equals the
 * 95 the month bill charges; storage billed per day on that day's bytes (storage_daily).
 */
import { Client, startTestServer, type TestServer } from './helpers';
import { computeBill } from '../../src/server/billing/bills/make';
import { setPriceConfig } from '../../src/server/billing/price';
import { grantPackage } from '../../src/server/billing/resources/grant';
import { parseLadder } from '../../src/server/billing/commands';
import { addDays, dayOf, dayStart } from '../../src/shared/stats/time';

jest.setTimeout(120_000);

let s: TestServer;
let demo: Client;
let demoId: number;
const GB = 1024 ** 3;
const bytesOf = (mbps: number) => Math.round((mbps * 1e6 * 300) / 8);
const today = dayOf(Math.floor(Date.now() / 1000));
/** the first day of last month, and its number of days */
const L1 = `${addDays(`${today.slice(0, 7)}-01`, -1).slice(0, 7)}-01`;
const LAST = addDays(`${today.slice(0, 7)}-01`, -1);
const DAYS = Number(LAST.slice(8));
const at = (day: string) => dayStart(day) as number;

async function serviceOf(kind: string) {
  const b = await s.db.selectFrom('buckets').select(['id', 'name']).where('owner_id', '=', demoId).where('kind', '=', kind).orderBy('id').executeTakeFirstOrThrow();
  const d = await s.db.selectFrom('bucket_domains').select(['id']).where('bucket_id', '=', b.id).orderBy('id').executeTakeFirstOrThrow();
  return { bucket: b.id, name: b.name, domain: d.id };
}

async function write5m(svc: { bucket: number; domain: number }, flow: string, day: string, mbps: (i: number) => number) {
  const rows = Array.from({ length: 288 }, (_, i) => ({ account_id: demoId, bucket_id: svc.bucket, domain_id: svc.domain, flow_type: flow, direction: '', slot: new Date((at(day) + i * 300) * 1000), bytes: bytesOf(mbps(i)) }));
  for (let i = 0; i < rows.length; i += 100) await s.db.insertInto('traffic_5m').values(rows.slice(i, i + 100)).execute();
  const bytes = rows.reduce((x, r) => x + r.bytes, 0);
  const peak = rows.reduce((p, r) => (r.bytes > p.bytes ? r : p), rows[0]!);
  await s.db.insertInto('traffic_1d').values({ account_id: demoId, bucket_id: svc.bucket, domain_id: svc.domain, flow_type: flow, direction: '', day: new Date(at(day) * 1000), bytes, peak_bytes: peak.bytes, peak_at: peak.slot }).execute();
}

beforeAll(async () => {
  s = await startTestServer();
  demo = await new Client(s.app).signIn('demo');
  demoId = (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
});
afterAll(() => s.close());

describe('the 95 line and the month bill (item 14)', () => {
  it('are the same number: the CDN services only, file services (drawn under cdn too) are billed by their own mode', async () => {
    const cdn = await serviceOf('cdn');
    const file = await serviceOf('file');
    // L1: the CDN service 1..288 Mbps (the 95: drop 14 of 288, the 15th highest = 274); the file service 1,000 Mbps flat
    await write5m(cdn, 'cdn', L1, (i) => i + 1);
    await write5m(file, 'cdn', L1, () => 1000);
    const bill = await computeBill(s.db, demoId, 'MONTH_BILL', L1);
    const billed = bill.detail.used.cdn!.lines[0]!;
    expect(billed).toMatchObject({ item: 'bandwidth', usage: 274 });
    const q = `start_day=${L1}&end_day=${LAST}&period=${DAYS}`;
    const line = (await demo.get(`/api/flow/bandwidth95/?${q}`)).json().data;
    expect(line).toMatchObject({ bandwidth95: 274e6, samples: 288, dropped: 14 });
    const chart = (await demo.get(`/api/flow/statistic/?flow_type=cdn&${q}`)).json().data;
    expect(chart.bandwidth95.bandwidth95 ?? chart.bandwidth95).toBe(274e6);
    // the same number, in the bill's Mbps (1000-based, spec 001 §9)
    expect(line.bandwidth95 / 1e6).toBe(billed.usage);
    // the chart itself still draws both services: the day's peak is 288 + 1000 Mbps
    expect(Math.max(...(chart.bandwidth as number[]))).toBe(1288e6);
  });
});

describe('overseas by region (item 12)', () => {
  it('bills the day’s Europe and Americas traffic at 0.39 and the rest at 0.89', async () => {
    const ov = await serviceOf('overseas');
    const day = addDays(L1, 1);
    await s.db.insertInto('traffic_1d').values({ account_id: demoId, bucket_id: ov.bucket, domain_id: ov.domain, flow_type: 'overseas', direction: '', day: new Date(at(day) * 1000), bytes: 100 * GB, peak_bytes: GB, peak_at: new Date(at(day) * 1000) }).execute();
    for (const [region, gb] of [['asia_pacific', 55], ['oceania', 5], ['europe', 30], ['north_america', 10]] as const) {
      await s.db.insertInto('traffic_geo_1d').values({ account_id: demoId, bucket_id: ov.bucket, domain_id: ov.domain, flow_type: 'overseas', direction: '', day: new Date(at(day) * 1000), region, carrier: 'other', bytes: gb * GB } as any).execute();
    }
    const bill = await computeBill(s.db, demoId, 'DAY_BILL', day);
    const lines = bill.detail.used.overseas!.lines.filter((l) => l.item.startsWith('discharge'));
    // 60 × 0.89 = 53.4 and 40 × 0.39 = 15.6
    expect(lines.map((l) => [l.label, l.usage, l.amount])).toEqual([
      ['流量（亚太地区）', 60, 53.4],
      ['流量（欧美及其他地区）', 40, 15.6],
    ]);
  });
});

describe('packages inside their validity (item 13)', () => {
  it('a package bought on the 25th does not cover the month’s traffic before it', async () => {
    const other = await s.db.selectFrom('users').select('id').where('username', '=', 'demo2fa').executeTakeFirstOrThrow();
    const b = await s.db.selectFrom('buckets').select(['id']).where('owner_id', '=', other.id).where('kind', '=', 'cdn').orderBy('id').executeTakeFirstOrThrow();
    const d = await s.db.selectFrom('bucket_domains').select(['id']).where('bucket_id', '=', b.id).executeTakeFirstOrThrow();
    await setPriceConfig(s.db, other.id, 'cdn', { amount_cal_type: 'MONTHLY', regions: { domestic: parseLadder('0-:0.29') } });
    // 10 GB on each of the 1st, the 24th and the 25th; a 100 GB package bought on the 25th at 15:00
    for (const day of [L1, addDays(L1, 23), addDays(L1, 24)]) {
      await s.db.insertInto('traffic_1d').values({ account_id: other.id, bucket_id: b.id, domain_id: d.id, flow_type: 'cdn', direction: '', day: new Date(at(day) * 1000), bytes: 10 * GB, peak_bytes: GB, peak_at: new Date(at(day) * 1000) }).execute();
    }
    await grantPackage(s.db, other.id, { kind: 'resources', spec: 'traffic_100g', amount: 100, unit: 'GB', validDays: 90, startsAt: new Date((at(addDays(L1, 24)) + 15 * 3600) * 1000) });
    // and one that expired on the 1st at 06:00: it covers the 1st only (the day began before it expired)
    await grantPackage(s.db, other.id, { kind: 'resources', spec: 'gift', amount: 50, unit: 'GB', validDays: 90, startsAt: new Date((at(L1) + 6 * 3600) * 1000 - 90 * 86400_000) });
    const bill = await computeBill(s.db, other.id, 'MONTH_BILL', L1);
    // the 24th pays: 30 GB − 10 (the 1st, the old package) − 10 (the 25th, the new one) = 10 × 0.29 = 2.9
    expect(bill.detail.used.cdn!.lines[0]).toMatchObject({ usage: 30, package: 20, billed: 10, amount: 2.9 });
    expect([...bill.packageTakes.values()].sort()).toEqual([10, 10]);
  });
});

describe('storage by the day (item 15)', () => {
  it('bills each day on the bytes stored at its end, not on what is stored when the bill is made', async () => {
    const file = await serviceOf('file');
    await setPriceConfig(s.db, demoId, 'storage', { amount_cal_type: 'DAILY', regions: { domestic: parseLadder('0-:31') } });
    // a change of storage_used is recorded as today's row by the trigger
    await s.db.updateTable('buckets').set({ storage_used: 500 * GB }).where('id', '=', file.bucket).execute();
    // the account's other file services store nothing (their rows: today's 0)
    await s.db.updateTable('buckets').set({ storage_used: 0 }).where('owner_id', '=', demoId).where('kind', '=', 'file').where('id', '<>', file.bucket).execute();
    const todayRow = await s.db.selectFrom('storage_daily').select(['bytes']).where('bucket_id', '=', file.bucket).where('day', '=', new Date(at(today) * 1000)).executeTakeFirstOrThrow();
    expect(Number(todayRow.bytes)).toBe(500 * GB);
    // the history: 10 GB at the end of the 3rd, 20 GB from the 5th
    await s.db.insertInto('storage_daily').values([
      { bucket_id: file.bucket, day: new Date(at(addDays(L1, 2)) * 1000), bytes: String(10 * GB) },
      { bucket_id: file.bucket, day: new Date(at(addDays(L1, 4)) * 1000), bytes: String(20 * GB) },
    ]).execute();
    const gbOn = async (day: string) => (await computeBill(s.db, demoId, 'DAY_BILL', day)).detail.used.storage!.lines[0]!;
    // the 3rd: 10 GB, priced 31 yuan per GB-month over a month of DAYS days: 10 × 31 / DAYS
    expect(await gbOn(addDays(L1, 2))).toMatchObject({ usage: 10, amount: Math.round((10 * 31 * 1000) / DAYS) / 1000 });
    // the 4th: nothing changed, still 10 GB; the 6th: 20 GB
    expect((await gbOn(addDays(L1, 3))).usage).toBe(10);
    expect((await gbOn(addDays(L1, 5))).usage).toBe(20);
    // before the first row: the first row known (what was stored when recording began), unless the day
    // ended before the service was created (the demo's services were created today)
    expect(await computeBill(s.db, demoId, 'DAY_BILL', L1).then((b) => b.detail.used.storage?.lines[0]?.usage ?? 0)).toBe(0);
    await s.db.updateTable('buckets').set({ created_at: new Date((at(L1) - 86400) * 1000) }).where('id', '=', file.bucket).execute();
    expect((await gbOn(L1)).usage).toBe(10);
  });
});
