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
 *     yesterday and last month's month bill, settled; the balance is then set back to the demo's.
 */
import type { DB } from '../db';
import type {} from '../billing/tables';
import type {} from '../files/tables';
import { setPriceConfig } from '../billing/price';
import { grantPackage } from '../billing/resources/grant';
import { createVoucherCode } from '../billing/vouchers/issue';
import { runBilling } from '../billing/bills/make';
import { receiveReport } from '../billing/consumption/report';
import { parseLadder } from '../billing/commands';
import { addDays, dayOf } from '../../shared/stats/time';

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

/** demo's bills since the first day of last month (run after the traffic seed; does nothing twice). */
export async function seedDemoBills(db: DB, now = new Date()): Promise<number> {
  const demo = await db.selectFrom('users').select(['id', 'money', 'actual_charge']).where('username', '=', 'demo').executeTakeFirst();
  if (!demo) return 0;
  const today = dayOf(Math.floor(now.getTime() / 1000));
  const first = `${addDays(`${today.slice(0, 7)}-01`, -1).slice(0, 7)}-01`;
  const made = await runBilling(db, { now, from: first, accountIds: [demo.id] });
  // the demo's history is settled; its balance stays the demo's
  await db.updateTable('users').set({ money: demo.money, actual_charge: demo.actual_charge }).where('id', '=', demo.id).execute();
  return made.filter((m) => m.created).length;
}
