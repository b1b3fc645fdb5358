/**
 * The flow history (spec 001 §3 "Flow history record"; issue 19 item 16): several domains' bandwidth is
 * the peak of their summed 5-minute series, not the sum of each domain's own peak, with its time and the
 * day's billing 95; a day older than the 5-minute rows falls back to the sum of the peaks and says so.
 */
import { Client, startTestServer, type TestServer } from './helpers';
import { addDays, dayOf, dayStart } from '../../src/shared/stats/time';

jest.setTimeout(120_000);

let s: TestServer;
let demo: Client;
const bytesOf = (mbps: number) => Math.round((mbps * 1e6 * 300) / 8);
const today = dayOf(Math.floor(Date.now() / 1000));
const Y = addDays(today, -1);
const Y2 = addDays(today, -2);
const at = (day: string) => dayStart(day) as number;
let names: string[] = [];
/** each domain's bytes of a day */
const dayBytes: number[] = [];

beforeAll(async () => {
  s = await startTestServer();
  demo = await new Client(s.app).signIn('demo');
  const demoId = (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
  const doms = await s.db
    .selectFrom('bucket_domains')
    .innerJoin('buckets', 'buckets.id', 'bucket_domains.bucket_id')
    .select(['bucket_domains.id', 'bucket_domains.domain', 'bucket_domains.bucket_id'])
    .where('buckets.owner_id', '=', demoId)
    .where('buckets.kind', '=', 'cdn')
    .orderBy('bucket_domains.id')
    .limit(2)
    .execute();
  names = doms.map((d) => d.domain);
  // yesterday: A peaks at slot 10 and B at slot 200 (100 Mbps each), both 10 Mbps otherwise; A's
  // bodies were compressed (1.5 × its bytes before compression), B's bytes have no such figure (as sent)
  for (const [k, d] of doms.entries()) {
    const peakSlot = k === 0 ? 10 : 200;
    const bf = (b: number) => (k === 0 ? b * 1.5 : null);
    const rows = Array.from({ length: 288 }, (_, i) => ({ account_id: demoId, bucket_id: d.bucket_id, domain_id: d.id, flow_type: 'cdn', direction: '', slot: new Date((at(Y) + i * 300) * 1000), bytes: bytesOf(i === peakSlot ? 100 : 10), bf_cp_bytes: bf(bytesOf(i === peakSlot ? 100 : 10)) }));
    for (let i = 0; i < rows.length; i += 100) await s.db.insertInto('traffic_5m').values(rows.slice(i, i + 100)).execute();
    const total = rows.reduce((a, r) => a + r.bytes, 0);
    dayBytes.push(total);
    for (const day of [Y, Y2]) {
      await s.db.insertInto('traffic_1d').values({ account_id: demoId, bucket_id: d.bucket_id, domain_id: d.id, flow_type: 'cdn', direction: '', day: new Date(at(day) * 1000), bytes: total, bf_cp_bytes: bf(total), peak_bytes: bytesOf(100), peak_at: new Date((at(day) + peakSlot * 300) * 1000) }).execute();
    }
  }
  // the two domains are the demo's first CDN service's only ones
  expect(new Set(doms.map((d) => d.bucket_id)).size).toBe(1);
  expect(await s.db.selectFrom('bucket_domains').select('id').where('bucket_id', '=', doms[0].bucket_id).execute()).toHaveLength(2);
  // the 5-minute rows begin yesterday
  await s.db.insertInto('traffic_coverage').values({ account_id: demoId, tier: '5m', since: new Date(at(Y) * 1000) } as any).execute();
});
afterAll(() => s.close());

it('is the peak of the summed series with its time and the day’s 95; older days say they are an upper bound', async () => {
  const res = (await demo.get(`/api/flow/amount/history/?start_day=${Y2}&end_day=${Y}&query_type=domain&query_value=${names.join(',')}`)).json();
  expect(res.error_code).toBe(0);
  const [older, y] = res.data;
  // yesterday: 100 + 10 = 110 Mbps at slot 10 (00:50), not 100 + 100 = 200
  expect(y).toMatchObject({ date: Y, bandwidth: 110e6, peak_exact: true, time: at(Y) + 10 * 300, peak_time: `${Y} 00:50:00` });
  // the daily 95: 286 samples of 20 Mbps and two of 110; 14 dropped, the 15th highest is 20 Mbps
  expect(y.bill_bandwidth).toBe(20e6);
  // the day before: no 5-minute rows, the sum of the domains' peaks (an upper bound)
  expect(older).toMatchObject({ date: Y2, bandwidth: 200e6, peak_exact: false, bill_bandwidth: null });
});

it('says what compression saved: the bytes before compression, the saving and the peak before compression; a service total beside the selection', async () => {
  const [a, b] = dayBytes;
  const res = (await demo.get(`/api/flow/amount/history/?start_day=${Y2}&end_day=${Y}&query_type=domain&query_value=${names.join(',')}`)).json();
  const [older, y] = res.data;
  // A's bytes before compression are 1.5 × its bytes; B's were not measured and count as sent
  expect(y).toMatchObject({ bytes: a + b, bf_cp_bytes: a * 1.5 + b, cp_bytes: a * 0.5, bill_bytes: a + b });
  // the summed series before compression peaks at slot 10 too: 150 + 10 Mbps
  expect(y.bf_cp_bandwidth).toBe(160e6);
  expect(older).toMatchObject({ bf_cp_bytes: a * 1.5 + b, cp_bytes: a * 0.5, bf_cp_bandwidth: null });
  expect(y.service_flow_total).toBe(2 * (a + b));
  // one domain selected: flow_total counts it, service_flow_total its whole service
  const one = (await demo.get(`/api/flow/amount/history/?start_day=${Y2}&end_day=${Y}&query_type=domain&query_value=${names[0]}`)).json();
  expect(one.data[1]).toMatchObject({ bytes: a, bf_cp_bytes: a * 1.5, flow_total: 2 * a, service_flow_total: 2 * (a + b) });
  expect(one.summary).toEqual({ flow_total: 2 * a, service_flow_total: 2 * (a + b), days: 2 });
});
