/**
 * Producing and settling bills (docs/billing.md "Settling"): a bill is computed from the stored usage,
 * written once (its id is deterministic, so a second run changes nothing), and settled in the same
 * transaction: traffic packages were already deducted from the usage, then vouchers (earliest expiry
 * first), then the balance (users.money: the gift first, then the recharge balance actual_charge).
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db';
import type { Database } from '../../db/schema';
import type { SmsSender } from '../../sms/outbox';
import type {} from '../tables';
import type {} from '../consumption/tables';
import { DAY_S, addDays, dayOf, dayStart } from '../../../shared/stats/time';
import { PRICE_SERVICE_TYPES, type PriceServiceType, periodOf } from '../../../shared/billing/price';
import { billId, round3, type BillDetail, type BillType, type ServiceBill } from '../../../shared/billing/bills';
import { loadPriceConfig } from '../price';
import { computeService, monthDays, type PackageWindow } from './compute';
import { loadUsage, storeDaySamples } from './usage';
import { checkThreshold } from './threshold';
import { syncFlowRemain } from '../resources/remain';
import { renewPackages } from '../resources/renew';
import { debit } from '../ledger/ledger';
import { tickOnce } from '../../jobs/once';

export interface MadeBill {
  id: string;
  created: boolean;
  original: number;
}

/** The period of a bill: a day, or the calendar month holding `day`. */
export function periodOfBill(type: BillType, day: string): { first: string; nDays: number; daysInMonth: number; start: number; end: number } {
  const m = monthDays(day);
  const first = type === 'DAY_BILL' ? day : m.first;
  const nDays = type === 'DAY_BILL' ? 1 : m.days;
  const start = dayStart(first) as number;
  return { first, nDays, daysInMonth: m.days, start, end: start + nDays * DAY_S };
}

/** Computes a bill without writing anything: its detail and what it charges. */
export async function computeBill(db: Kysely<Database>, accountId: number, type: BillType, day: string) {
  const p = periodOfBill(type, day);
  const config = await loadPriceConfig(db, accountId);
  const usage = await loadUsage(db as DB, accountId, p.start, p.nDays, { stored: type === 'MONTH_BILL' });
  const packages = await db
    .selectFrom('resource_packages')
    .select(['id', 'remain', 'unit', 'starts_at', 'expires_at'])
    .where('account_id', '=', accountId)
    .where('kind', '=', 'resources')
    .where('remain', '>', '0')
    .where('starts_at', '<', new Date(p.end * 1000))
    .where('expires_at', '>', new Date(p.start * 1000))
    .orderBy('expires_at')
    .orderBy('id')
    .execute();
  // each package with its validity: from its purchase day's CST midnight to its expiry (docs/billing.md "Settling")
  const windows: PackageWindow[] = packages.map((x) => ({
    id: x.id,
    remain: Number(x.remain),
    from: dayStart(dayOf(Math.floor(new Date(x.starts_at).getTime() / 1000))) as number,
    to: new Date(x.expires_at as Date).getTime() / 1000,
  }));
  let packageGB = packages.reduce((a, x) => a + Number(x.remain), 0);
  const packageTotal = packageGB;
  // transcode packages (minutes), only when there is processing to cover
  const transcodePackages = usage.byType.has('media')
    ? await db
        .selectFrom('resource_packages')
        .select(['id', 'remain', 'unit'])
        .where('account_id', '=', accountId)
        .where('kind', '=', 'transcode')
        .where('remain', '>', '0')
        .where('starts_at', '<', new Date(p.end * 1000))
        .where('expires_at', '>', new Date(p.start * 1000))
        .orderBy('expires_at')
        .orderBy('id')
        .execute()
    : [];
  let transcodeMinutes = transcodePackages.reduce((a, x) => a + Number(x.remain), 0);
  const transcodeTotal = transcodeMinutes;
  const used: BillDetail['used'] = {};
  // month bills show the services charged per day as the sum of their day bills
  const dayTotals = new Map<string, { amount: number; total: number; count: number }>();
  if (type === 'MONTH_BILL') {
    const rows = await db
      .selectFrom('bills')
      .select(['detail'])
      .where('account_id', '=', accountId)
      .where('type', '=', 'DAY_BILL')
      .where('start_time', '>=', new Date(p.start * 1000))
      .where('start_time', '<', new Date(p.end * 1000))
      .execute();
    for (const r of rows) {
      for (const [t, s] of Object.entries((r.detail as BillDetail).used ?? {})) {
        if (!s?.charged) continue;
        const acc = dayTotals.get(t) ?? { amount: 0, total: 0, count: 0 };
        acc.amount += s.amount;
        acc.total += s.total;
        acc.count++;
        dayTotals.set(t, acc);
      }
    }
  }
  for (const t of PRICE_SERVICE_TYPES) {
    const days = usage.byType.get(t);
    if (!days) continue;
    const { bill, packageUsed, transcodeUsed } = computeService(t, config[t], days, { type, daysInMonth: p.daysInMonth, packageGB, packages: windows, transcodeMinutes });
    packageGB -= packageUsed;
    transcodeMinutes -= transcodeUsed;
    if (type === 'MONTH_BILL' && periodOf(config[t].amount_cal_type) === 'DAY') {
      const d = dayTotals.get(t);
      bill.amount = round3(d?.amount ?? 0);
      bill.total = round3(d?.total ?? 0);
      bill.note = `已按日结算：${d?.count ?? 0} 张日账单合计，不在本账单重复扣费`;
    }
    used[t] = bill;
  }
  const original = round3(Object.values(used).reduce((a, s) => a + (s && (s as ServiceBill).charged ? (s as ServiceBill).total : 0), 0));
  const price_config = Object.fromEntries(Object.keys(used).map((t) => [t, config[t as PriceServiceType]]));
  const packageTakes = new Map(windows.map((w, i) => [w.id, Number(packages[i]!.remain) - w.remain]));
  return { period: p, detail: { used, price_config } as BillDetail, original, packageUsedGB: packageTotal - packageGB, packages, packageTakes, transcodeUsedMinutes: transcodeTotal - transcodeMinutes, transcodePackages, usage };
}

/** Makes (once) and settles a bill. Safe to call again: an existing bill is left as it is. */
export async function makeBill(db: DB, accountId: number, type: BillType, day: string, opts: { sms?: SmsSender; now?: Date } = {}): Promise<MadeBill> {
  const p = periodOfBill(type, day);
  const id = billId(p.first, type, accountId);
  const existing = await db.selectFrom('bills').select(['id', 'original']).where('id', '=', id).executeTakeFirst();
  if (existing) return { id, created: false, original: Number(existing.original) };
  const made = await db.transaction().execute(async (tx) => {
    const c = await computeBill(tx, accountId, type, day);
    const inserted = await tx
      .insertInto('bills')
      .values({ id, account_id: accountId, type, start_time: new Date(c.period.start * 1000), end_time: new Date(c.period.end * 1000), original: c.original, detail: JSON.stringify(c.detail) })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return { created: false, original: c.original };
    if (type === 'DAY_BILL') await storeDaySamples(tx, accountId, c.usage);
    // packages: the GB the computation deducted, from the earliest expiry on
    // and the transcode minutes likewise
    const pk: { id: number; amount: number; unit: string }[] = [];
    let flow = false;
    for (const [list, used] of [[c.packages, c.packageUsedGB], [c.transcodePackages, c.transcodeUsedMinutes]] as const) {
      let left = used;
      for (const x of list) {
        if (left <= 1e-9) break;
        // traffic packages: what the computation took from each (each covers only its validity)
        const take = list === c.packages ? Math.min(left, c.packageTakes.get(x.id) ?? 0) : Math.min(left, Number(x.remain));
        if (take <= 1e-12) continue;
        left -= take;
        await tx.updateTable('resource_packages').set({ remain: sql`greatest(remain - ${take.toFixed(6)}::numeric, 0)` as any }).where('id', '=', x.id).execute();
        pk.push({ id: x.id, amount: round3(take), unit: x.unit });
        if (list === c.packages) flow = true;
      }
    }
    if (flow) await syncFlowRemain(tx, accountId);
    const s = await settle(tx, accountId, c.original, opts.now ?? new Date(), id);
    c.detail.settlement = { vouchers: s.vouchers, money: s.money, packages: pk };
    await tx
      .updateTable('bills')
      .set({ status: 'SETTLED', settled_at: opts.now ?? new Date(), voucher_deduct: s.voucherTotal, settlement: s.money, detail: JSON.stringify(c.detail) })
      .where('id', '=', id)
      .execute();
    return { created: true, original: c.original };
  });
  if (made.created) await checkThreshold(db, accountId, opts.sms);
  return { id, ...made };
}

/** Charges an amount (yuan): vouchers first, then the balance. Returns what each paid. */
export async function settle(tx: Kysely<Database>, accountId: number, amount: number, now: Date, billRef?: string) {
  let due = Math.round(amount * 100) / 100;
  const vouchers: { id: number; amount: number }[] = [];
  if (due > 0) {
    const rows = await tx
      .selectFrom('vouchers')
      .select(['id', 'remain'])
      .where('account_id', '=', accountId)
      .where('remain', '>', '0')
      .where('expired_at', '>', now)
      .orderBy('expired_at')
      .orderBy('id')
      .forUpdate()
      .execute();
    for (const v of rows) {
      if (due <= 0) break;
      const take = Math.min(due, Number(v.remain));
      due = Math.round((due - take) * 100) / 100;
      await tx.updateTable('vouchers').set({ remain: sql`remain - ${take.toFixed(2)}::numeric` as any }).where('id', '=', v.id).execute();
      vouchers.push({ id: v.id, amount: take });
    }
  }
  if (due > 0) {
    // one ledger row, the gift (money − actual_charge) first as debitBalance of the payments does; the
    // balance may go below 0 (docs/billing-money.md "The ledger")
    await debit(tx, accountId, due, { kind: 'bill', ref: billRef ?? null, memo: billRef ? `账单 ${billRef} 结算` : '账单结算', at: now });
  }
  const voucherTotal = Math.round(vouchers.reduce((a, v) => a + v.amount, 0) * 100) / 100;
  return { vouchers, voucherTotal, money: due };
}

/**
 * The daily job: for every main account with services, the day bills from the day after its last day
 * bill (at most `catchUpDays` back, or from `from`) to yesterday, and the month bill after a month's
 * last day. Returns the bills made.
 */
export async function runBilling(db: DB, opts: { now?: Date; from?: string; sms?: SmsSender; catchUpDays?: number; accountIds?: number[] } = {}): Promise<MadeBill[]> {
  const now = opts.now ?? new Date();
  const today = dayOf(Math.floor(now.getTime() / 1000));
  const yesterday = addDays(today, -1);
  const floor = opts.from ?? addDays(today, -(opts.catchUpDays ?? 31));
  // every main account with something to bill: a service, a DDoS instance (attack peaks), or usage an external product reported
  let q = db
    .selectFrom('users')
    .select(['users.id'])
    .where('users.parent_id', 'is', null)
    .where(({ exists, or, selectFrom }) =>
      or([
        exists(selectFrom('buckets').select('buckets.id').whereRef('buckets.owner_id', '=', 'users.id')),
        exists(selectFrom('ddos_instances').select('ddos_instances.id').whereRef('ddos_instances.account_id', '=', 'users.id')),
        exists(selectFrom('external_usage').select('external_usage.id').whereRef('external_usage.account_id', '=', 'users.id')),
      ]),
    );
  if (opts.accountIds) q = q.where('users.id', 'in', opts.accountIds.length ? opts.accountIds : [-1]);
  const accounts = await q.orderBy('users.id').execute();
  const made: MadeBill[] = [];
  for (const a of accounts) {
    const last = await db.selectFrom('bills').select((eb) => eb.fn.max('start_time').as('t')).where('account_id', '=', a.id).where('type', '=', 'DAY_BILL').executeTakeFirst();
    let day = last?.t ? addDays(dayOf(Math.floor(new Date(last.t as any).getTime() / 1000)), 1) : opts.from ?? yesterday;
    if (day < floor) day = floor;
    for (; day <= yesterday; day = addDays(day, 1)) {
      made.push(await makeBill(db, a.id, 'DAY_BILL', day, { sms: opts.sms, now }));
      if (addDays(day, 1).endsWith('-01')) made.push(await makeBill(db, a.id, 'MONTH_BILL', day, { sms: opts.sms, now }));
    }
  }
  return made;
}

/**
 * One run of the billing job, on one server at a time (../../jobs/once.ts): auto-renewals due, then
 * the bills. `undefined` when another server is running it.
 */
export function billingJob(db: DB, opts: { sms?: SmsSender; now?: Date; from?: string } = {}): Promise<MadeBill[] | undefined> {
  return tickOnce(db, 'billing', () => renewPackages(db, { sms: opts.sms, now: opts.now }).then(() => runBilling(db, opts)));
}

/** Runs the job at start and then every hour: auto-renewals due, then the bills (a day's bills appear in the first run after midnight). */
export function scheduleBilling(db: DB, log: { error: (e: unknown, m: string) => void; info: (m: string) => void }, sms?: SmsSender, everyMs = 3600_000): () => void {
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    billingJob(db, { sms })
      .then((m) => {
        const n = (m ?? []).filter((b) => b.created).length;
        if (n) log.info(`已生成账单 ${n} 张`);
      })
      .catch((e) => log.error(e, 'billing job failed'))
      .finally(() => (running = false));
  };
  const first = setTimeout(run, 5000);
  first.unref();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
