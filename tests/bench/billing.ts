/**
 * Billing figures (docs/billing.md "Figures"); prints, asserts nothing. An account with 50 CDN domains
 * (50 services) and a month (April 2026, 30 days) of 5-minute traffic (432,000 rows) on PGlite:
 *  1. its month bill summed straight from traffic_5m (no day bills yet);
 *  2. one day bill;
 *  3. the job for the whole month: 30 day bills and the month bill, written and settled;
 *  4. the month bill again, from the samples the day bills stored (monthly 95 over 8,640 samples) — goal ≤ 200 ms;
 *  5. usage reports of an external product (receiveReport: the report's row, the packages locked and
 *     counted down): 2,000 reports of 1–50 条 against 3 SMS packages, one after another.
 * Run alone with `npx tsx tests/bench/billing.ts`; `npm run bench` runs it with the other figures.
 */
// first: stops at once on another Node.js than package.json engines.node (scripts/require-node.cjs)
import '../../scripts/require-node.cjs';
import { sql } from 'kysely';
import { openDatabase } from '../../src/server/db';
import { computeBill, runBilling } from '../../src/server/billing/bills/make';
import { setPriceConfig } from '../../src/server/billing/price';
import { parseLadder } from '../../src/server/billing/commands';
import { dayStart } from '../../src/shared/stats/time';
import { grantPackage } from '../../src/server/billing/resources/grant';
import { receiveReport } from '../../src/server/billing/consumption/report';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const DOMAINS = 50;

export async function billingBench(): Promise<void> {
  const db = await openDatabase({ dataDir: 'memory://' });
  try {
    const user = await db.insertInto('users').values({ username: 'bench', password_hash: 'x', permissions: '[]', money: '100000.00', actual_charge: '100000.00' }).returning('id').executeTakeFirstOrThrow();
    for (let i = 0; i < DOMAINS; i++) {
      const b = await db.insertInto('buckets').values({ name: `bench-${i}`, owner_id: user.id, kind: 'cdn' }).returning('id').executeTakeFirstOrThrow();
      await db.insertInto('bucket_domains').values({ bucket_id: b.id, domain: `d${i}.bench.example.com`, cname: `bench-${i}.cdn-cname.example.net` } as any).execute();
    }
    await setPriceConfig(db, user.id, 'cdn', { amount_cal_type: 'MONTHLY_95', regions: { domestic: parseLadder('0-100:30,100-500:26,500-:22') } });
    const start = dayStart('2026-04-01') as number;
    const end = start + 30 * 86400;
    const t0 = performance.now();
    // a daily curve per domain, different phases, in bytes per 5 minutes
    await sql`
      insert into traffic_5m (account_id, bucket_id, domain_id, flow_type, direction, slot, bytes, reqs, https_reqs, dyn_reqs)
      select ${user.id}, d.bucket_id, d.id, 'cdn', '', to_timestamp(s),
             (2e8 * (1.2 + sin((s / 86400.0) * 2 * pi() + d.id)))::bigint, 1000, 300, 50
      from bucket_domains d join buckets b on b.id = d.bucket_id and b.owner_id = ${user.id},
           generate_series(${start}::bigint, ${end - 300}::bigint, 300) s`.execute(db);
    await sql`
      insert into traffic_1d (account_id, bucket_id, domain_id, flow_type, direction, day, bytes, reqs, https_reqs, dyn_reqs, peak_bytes, peak_at)
      select account_id, bucket_id, domain_id, flow_type, direction,
             to_timestamp(floor((extract(epoch from slot) + 28800) / 86400) * 86400 - 28800) as day,
             sum(bytes), sum(reqs), sum(https_reqs), sum(dyn_reqs), max(bytes), min(slot)
      from traffic_5m where account_id = ${user.id} group by 1, 2, 3, 4, 5, 6`.execute(db);
    console.log(`\n账单：${DOMAINS} 个域名、30 天 5 分钟数据（${DOMAINS * 8640} 行）写入 ${Math.round(performance.now() - t0)} ms`);

    let t = performance.now();
    const cold = await computeBill(db, user.id, 'MONTH_BILL', '2026-04-01');
    console.log(`  月账单直接从 traffic_5m 汇总（没有日账单时）：${Math.round(performance.now() - t)} ms；CDN 月 95 带宽 ${cold.detail.used.cdn?.used.bandwidth} Mbps，${cold.original} 元`);
    const day: number[] = [];
    for (let i = 0; i < 5; i++) {
      t = performance.now();
      await computeBill(db, user.id, 'DAY_BILL', `2026-04-${String(10 + i).padStart(2, '0')}`);
      day.push(performance.now() - t);
    }
    console.log(`  计算一张日账单：中位数 ${median(day).toFixed(0)} ms`);
    t = performance.now();
    const made = await runBilling(db, { now: new Date((end + 3600) * 1000), from: '2026-04-01', accountIds: [user.id] });
    console.log(`  生成并结算整月账单（${made.length} 张：30 张日账单 + 1 张月账单）：${Math.round(performance.now() - t)} ms`);
    const month: number[] = [];
    let warm = cold;
    for (let i = 0; i < 5; i++) {
      t = performance.now();
      warm = await computeBill(db, user.id, 'MONTH_BILL', '2026-04-01');
      month.push(performance.now() - t);
    }
    console.log(`  计算一张月账单（读日账单保存的 30 × 288 个采样点，月 95）：中位数 ${median(month).toFixed(0)} ms（目标 ≤ 200 ms），各次 ${month.map((m) => m.toFixed(0)).join(' / ')} ms；结果 ${warm.original} 元（与直接汇总${warm.original === cold.original ? '一致' : '不一致'}）`);
    const packs = [] as number[];
    for (const days of [30, 90, 365]) packs.push(await grantPackage(db, user.id, { kind: 'sms', spec: 'bench', amount: 20_000, unit: '条', validDays: days }));
    const each: number[] = [];
    let covered = 0;
    let sent = 0;
    t = performance.now();
    for (let i = 0; i < 2000; i++) {
      const q = 1 + (i % 50);
      const s = performance.now();
      covered += (await receiveReport(db, { product: 'sms', report_id: `bench-${i}`, account_id: user.id, quantity: q })).covered;
      each.push(performance.now() - s);
      sent += q;
    }
    const all = performance.now() - t;
    console.log(`  外部产品用量上报（短信，3 个资源包先抵扣）：2000 次共 ${sent} 条，抵扣 ${covered} 条；每次中位数 ${median(each).toFixed(2)} ms，合计 ${Math.round(all)} ms（约 ${Math.round(2000 / (all / 1000))} 次/秒）`);
  } finally {
    await db.destroy();
  }
}

if (require.main === module) {
  billingBench().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
