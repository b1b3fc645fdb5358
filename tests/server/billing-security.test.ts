/**
 * Security lines of the day bill (docs/billing.md "Security"): DDoS elastic protection from the DDoS
 * attack tables, SCDN attack protection from traffic_5m.attack_bytes, on the demo's seeded data and on
 * rows written by hand, read back through GET /api/bill/.
 */
import { sql } from 'kysely';
import { startTestServer, Client, type TestServer } from './helpers';
import { makeBill, runBilling } from '../../src/server/billing/bills/make';
import { hashPassword } from '../../src/server/accounts/passwords';
import { billingCommands } from '../../src/server/billing/commands';
import { addDays, dayOf, dayStart } from '../../src/shared/stats/time';
import { packageOf } from '../../src/shared/ddos';

jest.setTimeout(180_000);

let s: TestServer;
let demo: Client;
let demoId: number;

/** the default ladders worked out by hand: DDoS 80 / 60 / 40 above the guarantee; SCDN 0 to 10, 50 to 50, then 30 */
const ddosFee = (over: number) => Math.min(over, 20) * 80 + Math.max(0, Math.min(over, 50) - 20) * 60 + Math.max(0, over - 50) * 40;
const scdnFee = (g: number) => Math.max(0, Math.min(g, 50) - 10) * 50 + Math.max(0, g - 50) * 30;
const r3 = (v: number) => Math.round(v * 1000) / 1000;

beforeAll(async () => {
  s = await startTestServer();
  demo = await new Client(s.app).signIn('demo');
  demoId = (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await s.close();
});

describe('DDoS elastic protection', () => {
  it('bills the peak above the guaranteed protection of the seeded instance, with its time and steps', async () => {
    const inst = await s.db.selectFrom('ddos_instances').select(['id', 'name', 'package']).where('account_id', '=', demoId).executeTakeFirstOrThrow();
    const protect = packageOf(inst.package)!.protect_gbps;
    // 2026-03-10 09:30 CST: an 80 Gbps attack; the flow series shows 62 Gbps five minutes later
    const day = '2026-03-10';
    const t0 = (dayStart(day) as number) + 9.5 * 3600;
    await s.db.insertInto('ddos_attacks').values({ instance_id: inst.id, ip: '203.0.113.9', type: 'udp_flood', start_time: new Date(t0 * 1000), end_time: new Date((t0 + 1200) * 1000), peak_bps: 80e9, peak_pps: 1e8 }).execute();
    await s.db.insertInto('ddos_flow_5m').values({ instance_id: inst.id, type: 3, ts: new Date((t0 + 300) * 1000), value: 62e9 }).execute();
    const made = await makeBill(s.db, demoId, 'DAY_BILL', day);
    const bill = (await demo.get(`/api/bill/?id=${made.id}`)).json().data;
    const ddos = bill.detail.used.ddos;
    expect(ddos.charged).toBe(true);
    expect(ddos.used.ddos_attack).toEqual([{ code: inst.name, max_peak: 80e9 }]);
    const line = ddos.lines[0];
    // standard: 50 Gbps guaranteed → 30 over: 20 × 80 + 10 × 60 = 2200
    expect(protect).toBe(50);
    expect(line).toMatchObject({ item: `ddos_attack:${inst.name}`, usage: 80, package: 50, billed: 30, unit: 'Gbps', amount: 2200 });
    expect(line.steps.map((x: { used: number; amount: number }) => [x.used, x.amount])).toEqual([[20, 1600], [10, 600], [0, 0]]);
    expect(line.note).toBe(`攻击峰值 80 Gbps（${day} 09:30），保底防护 50 Gbps，超出 30 Gbps 按阶梯计费`);
    expect(ddos.used.ddos_price).toBe(2200);
    expect(ddos.total).toBe(2200);
    expect(bill.detail.price_config.ddos).toMatchObject({ amount_cal_type: 'DAILY_HIGHEST', charge_dimension: 'attack_peak' });
    // the bill's total includes it
    expect(bill.original).toBeGreaterThanOrEqual(2200);
  });

  it("the seeded week of attacks: each day's highest of the attacks and the attack flow", async () => {
    const inst = await s.db.selectFrom('ddos_instances').select(['id', 'name']).where('account_id', '=', demoId).executeTakeFirstOrThrow();
    const top = await s.db.selectFrom('ddos_attacks').select(['start_time', 'peak_bps']).where('instance_id', '=', inst.id).orderBy('peak_bps', 'desc').executeTakeFirstOrThrow();
    const day = dayOf(Math.floor(new Date(top.start_time).getTime() / 1000));
    const start = dayStart(day) as number;
    const peaks = await sql<{ v: number }>`
      select greatest(
        (select coalesce(max(peak_bps), 0)::float8 from ddos_attacks where instance_id = ${inst.id} and start_time >= to_timestamp(${start}) and start_time < to_timestamp(${start + 86400})),
        (select coalesce(max(value), 0)::float8 from ddos_flow_5m where instance_id = ${inst.id} and type = 3 and ts >= to_timestamp(${start}) and ts < to_timestamp(${start + 86400}))) as v`.execute(s.db);
    const gbps = Number(peaks.rows[0].v) / 1e9;
    expect(gbps).toBeGreaterThan(0);
    const made = await makeBill(s.db, demoId, 'DAY_BILL', day);
    const ddos = (await demo.get(`/api/bill/?id=${made.id}`)).json().data.detail.used.ddos;
    expect(ddos.used.ddos_attack).toEqual([{ code: inst.name, max_peak: Math.round(gbps * 1e9) }]);
    expect(ddos.total).toBeCloseTo(ddosFee(Math.max(0, gbps - 50)), 2);
  });
});

it('the daily job bills an account whose only product is a DDoS instance', async () => {
  const user = await s.db
    .insertInto('users')
    .values({ username: 'ddosonly', email: null, mobile: null, password_hash: await hashPassword('demo123456'), verify_status: 'yes', two_step: false, parent_id: null, permissions: '[]', money: '1000.00', actual_charge: '1000.00' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const demoInst = await s.db.selectFrom('ddos_instances').selectAll().where('account_id', '=', demoId).executeTakeFirstOrThrow();
  await s.db.insertInto('ddos_instances').values({ ...demoInst, id: undefined as never, account_id: user.id, name: 'ddosonly-1' } as never).execute();
  const made = await runBilling(s.db, { accountIds: [user.id], catchUpDays: 1 });
  expect(made.length).toBeGreaterThan(0);
  const bills = await s.db.selectFrom('bills').select(['account_id', 'type']).where('account_id', '=', user.id).execute();
  expect(bills.length).toBe(made.length);
  expect(bills.some((b) => b.type === 'DAY_BILL')).toBe(true);
});

describe('SCDN attack protection', () => {
  it("bills each service's highest 5-minute attack bandwidth of the seeded traffic by the peak ladder", async () => {
    const yesterday = addDays(dayOf(Math.floor(Date.now() / 1000)), -1);
    const start = dayStart(yesterday) as number;
    const rows = await sql<{ name: string; s: number; a: number }>`
      select b.name, extract(epoch from t.slot)::float8 as s, sum(t.attack_bytes::float8) as a
      from traffic_5m t join buckets b on b.id = t.bucket_id
      where b.owner_id = ${demoId} and t.flow_type = 'scdn' and t.slot >= to_timestamp(${start}) and t.slot < to_timestamp(${start + 86400})
      group by b.name, t.slot having sum(t.attack_bytes::float8) > 0`.execute(s.db);
    // add a 30 Gbps attack slot at 21:00 to the first SCDN service so the ladder's paid step is reached
    const b = await s.db.selectFrom('buckets').select(['id', 'name']).where('owner_id', '=', demoId).where('kind', '=', 'scdn').orderBy('id').executeTakeFirstOrThrow();
    const d = await s.db.selectFrom('bucket_domains').select('id').where('bucket_id', '=', b.id).orderBy('id').executeTakeFirstOrThrow();
    const at = start + 21 * 3600;
    const extra = (30e9 * 300) / 8;
    await s.db.insertInto('traffic_5m').values({ account_id: demoId, bucket_id: b.id, domain_id: d.id, flow_type: 'scdn', direction: '', slot: new Date(at * 1000), bytes: 0, attack_bytes: extra } as any).execute();
    const best = new Map<string, number>();
    for (const r of rows.rows) best.set(r.name, Math.max(best.get(r.name) ?? 0, Number(r.a)));
    // the new row is a second row of the slot when the seed already had one there: the slot sums them
    const same = rows.rows.find((r) => r.name === b.name && Number(r.s) === at);
    best.set(b.name, Math.max(best.get(b.name) ?? 0, extra + (same ? Number(same.a) : 0)));
    const made = await makeBill(s.db, demoId, 'DAY_BILL', yesterday);
    const scdn = (await demo.get(`/api/bill/?id=${made.id}`)).json().data.detail.used.scdn;
    const gbpsOf = (bytes: number) => (bytes * 8) / 300 / 1e9;
    const expected = [...best].map(([name, bytes]) => ({ bucket_name: name, peak: r3(gbpsOf(bytes)) }));
    expect([...scdn.used.scdn_attack].sort((x: { bucket_name: string }, y: { bucket_name: string }) => x.bucket_name.localeCompare(y.bucket_name))).toEqual(expected.sort((x, y) => x.bucket_name.localeCompare(y.bucket_name)));
    const line = scdn.lines.find((l: { item: string }) => l.item === `scdn_attack:${b.name}`);
    const g = gbpsOf(best.get(b.name)!);
    expect(g).toBeGreaterThanOrEqual(30);
    expect(line).toMatchObject({ unit: 'Gbps', usage: r3(g) });
    expect(line.amount).toBeCloseTo(scdnFee(g), 2);
    if (!same || g === 30) expect(line.note).toBe(`攻击峰值 30 Gbps（${yesterday} 21:00 的 5 分钟），按攻击峰值阶梯计费`);
    const total = [...best.values()].reduce((a, x) => a + scdnFee(gbpsOf(x)), 0);
    expect(scdn.used.scdn_price).toBeCloseTo(total, 2);
  });
});

describe('overseas guaranteed domains', () => {
  it("the seeded demo has them on: the overseas services' domains of the day × 300 / 31 per domain-day", async () => {
    const cfg = (await demo.get('/api/accounts/price_config')).json().data;
    expect(cfg.overseas.guaranteed_domain).toEqual({ enabled: true, price_month: 300 });
    const day = '2026-03-12';
    const dayEnd = ((dayStart(day) as number) + 86400) * 1000;
    const global = await s.db.selectFrom('buckets').select(['id']).where('owner_id', '=', demoId).where('kind', '=', 'overseas').orderBy('id').executeTakeFirstOrThrow();
    // two domains before the day, one added the day after (not counted)
    await s.db
      .insertInto('bucket_domains')
      .values([
        { bucket_id: global.id, domain: 'g1.sec-test.example.com', cname: 'g1.sec-test.example.com.cdn.test', created_at: new Date('2026-01-05T00:00:00Z') },
        { bucket_id: global.id, domain: 'g2.sec-test.example.com', cname: 'g2.sec-test.example.com.cdn.test', created_at: new Date(dayEnd - 1000) },
        { bucket_id: global.id, domain: 'g3.sec-test.example.com', cname: 'g3.sec-test.example.com.cdn.test', created_at: new Date(dayEnd) },
      ] as any)
      .execute();
    const all = await s.db.selectFrom('bucket_domains').innerJoin('buckets', 'buckets.id', 'bucket_domains.bucket_id').select(['bucket_domains.created_at']).where('buckets.owner_id', '=', demoId).where('buckets.kind', '=', 'overseas').execute();
    const count = all.filter((x) => new Date(x.created_at).getTime() < dayEnd).length;
    expect(count).toBeGreaterThanOrEqual(2);
    const made = await makeBill(s.db, demoId, 'DAY_BILL', day);
    const ov = (await demo.get(`/api/bill/?id=${made.id}`)).json().data.detail.used.overseas;
    const price = r3((count * 300) / 31);
    expect(ov.used).toMatchObject({ overseas_acceleration_guaranteed_domain_count: count, overseas_acceleration_guaranteed_price: price });
    expect(ov.lines.find((l: { item: string }) => l.item === 'guaranteed_domain')).toMatchObject({ usage: count, unit: '域名·天', amount: price, note: `当日域名 ${count} 个，每域名每月 300 元，按 1/31 月计每域名每天` });
  });

  it('accounts whose configuration does not enable it have no such line; the platform command turns it on', async () => {
    const key = await s.db.selectFrom('users').select('id').where('username', '=', 'demokey').executeTakeFirstOrThrow();
    const cmd = billingCommands.find((c) => c.name === 'price-config')!;
    const before = (await cmd.run(s.db, { account: 'demokey', service: 'overseas' } as any)) as { guaranteed_domain: unknown };
    expect(before.guaranteed_domain).toEqual({ enabled: false, price_month: 300 });
    // a bucket of kind overseas for demokey with one domain, then a day bill: no guaranteed line
    const b = await s.db.insertInto('buckets').values({ name: 'key-sec-overseas', owner_id: key.id, kind: 'overseas' } as any).returning('id').executeTakeFirstOrThrow();
    await s.db.insertInto('bucket_domains').values({ bucket_id: b.id, domain: 'k1.sec-test.example.com', cname: 'k1.sec-test.example.com.cdn.test', created_at: new Date('2026-01-05T00:00:00Z') } as any).execute();
    const first = await makeBill(s.db, key.id, 'DAY_BILL', '2026-03-12');
    const bill1 = (await s.db.selectFrom('bills').select('detail').where('id', '=', first.id).executeTakeFirstOrThrow()).detail as any;
    expect(bill1.used.overseas.lines.map((l: { item: string }) => l.item)).not.toContain('guaranteed_domain');
    expect(bill1.used.overseas.used.overseas_acceleration_guaranteed_price).toBeUndefined();
    const after = (await cmd.run(s.db, { account: 'demokey', service: 'overseas', guaranteed: 'true', 'guaranteed-price': '620' } as any)) as { guaranteed_domain: unknown };
    expect(after.guaranteed_domain).toEqual({ enabled: true, price_month: 620 });
    const second = await makeBill(s.db, key.id, 'DAY_BILL', '2026-03-13');
    const bill2 = (await s.db.selectFrom('bills').select('detail').where('id', '=', second.id).executeTakeFirstOrThrow()).detail as any;
    // 1 domain × 620 / 31 = 20
    expect(bill2.used.overseas.used).toMatchObject({ overseas_acceleration_guaranteed_domain_count: 1, overseas_acceleration_guaranteed_price: 20 });
    await expect(cmd.run(s.db, { account: 'demokey', service: 'cdn', guaranteed: 'true' } as any)).rejects.toThrow('保底加速域名只属于 overseas');
  });
});
