/**
 * Demo data of the billing centre's bills, vouchers and packages (docs/billing.md "The demo"):
 *   seedBilling (from seedDemo): a price configuration for every demo main account (demo: CDN by
 *     monthly 95 bandwidth with a ladder, storage traffic by the hour with a ladder; demo2fa: daily peak
 *     average; demokey: the 4th daily peak; demonew: the list prices; demo's processing prices with a
 *     contracted 720P/1080P transcode, and some processing last month in media_usage; demo's overseas
 *     guaranteed domains on at the default price), demo's packages (500 GB traffic,
 *     1,000 transcode minutes, 1,000 SMS used up by the SMS product's reports of the last 9 days, with
 *     one-click login reports too), voucher codes to activate, a bill threshold;
 *   seedDemoBills (after the traffic seed): demo's day bills from the first day of last month to
 *     yesterday and last month's month bill, each settled from the balance, the demo recharging before
 *     a bill it could not pay (every change a ledger row).
 */
import type { DB } from '../db';
import type {} from '../billing/tables';
import type {} from '../files/tables';
import type {} from '../billing/storage/tables';
import { setPriceConfig } from '../billing/price';
import { grantPackage } from '../billing/resources/grant';
import { createVoucherCode } from '../billing/vouchers/issue';
import { computeBill, makeBill, periodOfBill } from '../billing/bills/make';
import { seedRecharge } from './billing-money';
import { billId, type BillType } from '../../shared/billing/bills';
import { receiveReport } from '../billing/consumption/report';
import { parseLadder } from '../billing/commands';
import { addDays, dayOf, dayStart } from '../../shared/stats/time';

/** Codes a person (or a browser test) can activate on /billing/vouchers/. */
export const DEMO_VOUCHER_CODES = ['DEMO2026VOUCHER01', 'DEMO2026VOUCHER02', 'DEMO2026VOUCHER03', 'DEMO2026VOUCHER04', 'DEMO2026VOUCHER05'];

async function idOf(db: DB, username: string): Promise<number | null> {
  return (await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst())?.id ?? null;
}

export async function seedBilling(db: DB): Promise<void> {
  const demo = await idOf(db, 'demo');
  if (demo) {
    await setPriceConfig(db, demo, 'cdn', { amount_cal_type: 'MONTHLY_95', regions: { domestic: parseLadder('0-100:30,100-500:26,500-:22') } });
    await setPriceConfig(db, demo, 'file', { amount_cal_type: 'HOURLY', regions: { domestic: parseLadder('0-10:0.29,10-50:0.25,50-:0.21') } });
    await setPriceConfig(db, demo, 'storage', { amount_cal_type: 'DAILY' });
    await setPriceConfig(db, demo, 'https', { amount_cal_type: 'DAILY', discount: 80 });
    // overseas guaranteed acceleration domains, at the default 300 yuan per domain-month
    await setPriceConfig(db, demo, 'overseas', { guaranteed: { enabled: true } });
    // audio/video processing: the default table with a contracted price for 720P and 1080P transcoding
    await setPriceConfig(db, demo, 'media', { amount_cal_type: 'DAILY', processing: { video_transcode_gte720p: 0.09, video_transcode_gte1080p: 0.18 } });
    // given 40 days ago (a gift, so the promotional packages stay available), so last month's bills use it
    await grantPackage(db, demo, { kind: 'resources', spec: 'gift', amount: 500, unit: 'GB', validDays: 90, price: 0, startsAt: new Date(Date.now() - 40 * 86400_000) });
    await grantPackage(db, demo, { kind: 'transcode', spec: 'transcode_1000', amount: 1000, unit: '分钟', validDays: 365, price: 30 });
    await seedDemoProcessing(db, demo);
    await seedDemoReports(db, demo);
    await db.insertInto('bill_thresholds').values({ account_id: demo, threshold: '100.00', warned_at: null }).onConflict((oc) => oc.column('account_id').doNothing()).execute();
  }
  for (const [name, mode] of [['demo2fa', 'DAILY_BANDWIDTH'], ['demokey', 'TOP_4']] as const) {
    const id = await idOf(db, name);
    if (id) await setPriceConfig(db, id, 'cdn', { amount_cal_type: mode, regions: { domestic: parseLadder('0-:28') } });
  }
  const demonew = await idOf(db, 'demonew');
  if (demonew) await setPriceConfig(db, demonew, 'cdn', { amount_cal_type: 'DAILY' });
  for (const code of DEMO_VOUCHER_CODES) await createVoucherCode(db, code, { amount: 20, validDays: 90, source: 'activation', remark: '演示券码' });
}

/**
 * Some audio/video processing of demo last month (as the media worker records it in media_usage), so
 * its bills show the 音视频处理 group; the package bought today does not cover these earlier days.
 */
async function seedDemoProcessing(db: DB, accountId: number, now = new Date()) {
  const today = dayOf(Math.floor(now.getTime() / 1000));
  const first = `${addDays(`${today.slice(0, 7)}-01`, -1).slice(0, 7)}-01`;
  const rows: [number, string, number, number][] = [
    [2, 'video_transcode_gte1080p', 42.5, 3],
    [2, 'video_thumbnail', 0, 20],
    [9, 'video_transcode_gte720p', 120, 8],
    [9, 'video_hls_gte720p', 60, 2],
    [16, 'audio_transcode_async', 35, 4],
    [16, 'probe', 0, 12],
  ];
  for (const [offset, usage_key, minutes, tasks] of rows) {
    await db
      .insertInto('media_usage')
      .values({ account_id: accountId, day: addDays(first, offset), usage_key, minutes, tasks })
      .onConflict((oc) => oc.columns(['account_id', 'day', 'usage_key']).doNothing())
      .execute();
  }
}

/**
 * The external products' usage of demo over the last 9 days, received the way a product reports it
 * (receiveReport, docs/billing.md "Usage reported by the external products"): an SMS package of 1,000
 * bought 10 days ago runs out on the last day, whose rest goes to that day's bill; one-click login has
 * no package, so all of it is billed.
 */
async function seedDemoReports(db: DB, accountId: number, now = new Date()) {
  const day = 86400_000;
  await grantPackage(db, accountId, { kind: 'sms', spec: 'sms_1000', amount: 1000, unit: '条', validDays: 365, price: 45, startsAt: new Date(now.getTime() - 10 * day) });
  const sms = [96, 130, 88, 152, 120, 104, 140, 117, 163];
  for (let i = 0; i < sms.length; i++) {
    const at = new Date(now.getTime() - (sms.length - i) * day);
    await receiveReport(db, { product: 'sms', report_id: `demo-sms-${i}`, account_id: accountId, quantity: sms[i]! }, at);
    if (i % 3 === 2) await receiveReport(db, { product: 'oneclicklogin', report_id: `demo-login-${i}`, account_id: accountId, quantity: 300 + i * 20 }, at);
  }
}

/** What the demo keeps in reserve: before a bill it could not pay with this much left, it recharges. */
export const DEMO_RESERVE = 2000;
/** The demo recharges in multiples of this. */
export const DEMO_RECHARGE_STEP = 10000;

/**
 * demo's bills since the first day of last month (run after the traffic seed; does nothing twice), each
 * settled when the job would have settled it (00:05 CST the next day, the month bill after the month's
 * last day bill). The demo behaves as a customer of its size does: before a bill that would leave less
 * than DEMO_RESERVE, it recharges (multiples of DEMO_RECHARGE_STEP, through the sandbox Alipay, an hour
 * before), so every bill is paid from a balance that holds it and the ledger tells the whole story
 * (docs/billing-money.md "The ledger").
 */
export async function seedDemoBills(db: DB, now = new Date()): Promise<number> {
  const demo = await db.selectFrom('users').select(['id']).where('username', '=', 'demo').executeTakeFirst();
  if (!demo) return 0;
  const today = dayOf(Math.floor(now.getTime() / 1000));
  const yesterday = addDays(today, -1);
  const first = `${addDays(`${today.slice(0, 7)}-01`, -1).slice(0, 7)}-01`;
  // what the demo's file services stored at the end of each day of the period (storage bills are per
  // day, docs/billing.md "Storage by the day"): growing steadily to what they store now
  const files = await db.selectFrom('buckets').select(['id', 'storage_used']).where('owner_id', '=', demo.id).where('kind', '=', 'file').where('storage_used', '>', '0' as any).execute();
  const span = Math.max(1, Math.round(((dayStart(today) as number) - (dayStart(first) as number)) / 86400));
  for (const f of files) {
    const rows = [];
    for (let i = 0, day = first; day < today; i++, day = addDays(day, 1)) {
      rows.push({ bucket_id: f.id, day: new Date((dayStart(day) as number) * 1000), bytes: String(Math.round(Number(f.storage_used) * (0.7 + (0.3 * i) / span))) });
    }
    if (rows.length) await db.insertInto('storage_daily').values(rows).onConflict((oc) => oc.columns(['bucket_id', 'day']).doNothing()).execute();
  }
  let n = 0;
  const bill = async (type: BillType, day: string, at: Date) => {
    const p = periodOfBill(type, day);
    if (await db.selectFrom('bills').select('id').where('id', '=', billId(p.first, type, demo.id)).executeTakeFirst()) return;
    const { original } = await computeBill(db, demo.id, type, day);
    const u = await db.selectFrom('users').select('money').where('id', '=', demo.id).executeTakeFirstOrThrow();
    const short = original + DEMO_RESERVE - Number(u.money);
    if (original > 0 && short > 0) await seedRecharge(db, demo.id, Math.ceil(short / DEMO_RECHARGE_STEP) * DEMO_RECHARGE_STEP, new Date(at.getTime() - 3600_000));
    if ((await makeBill(db, demo.id, type, day, { now: at })).created) n++;
  };
  for (let day = first; day <= yesterday; day = addDays(day, 1)) {
    const next = addDays(day, 1);
    const at = new Date(((dayStart(next) as number) + 300) * 1000);
    await bill('DAY_BILL', day, at);
    if (next.endsWith('-01')) await bill('MONTH_BILL', day, new Date(at.getTime() + 60_000));
  }
  return n;
}
