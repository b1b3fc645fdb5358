/**
 * An account's price configuration (spec 001 §3 price_config): the rows of account_price_config
 * (statistics created the table; billing added period_bill_type, charge_dimension, storage_deduction,
 * discount and the ladders in `prices`) over the defaults of src/shared/billing/price.ts.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type {} from './tables';
import {
  DEFAULT_BANDWIDTH_LADDER,
  PRICE_SERVICE_TYPES,
  REGIONS,
  MEDIA_KEY_RE,
  defaultPriceConfig,
  isBandwidthMode,
  ladderProblem,
  periodOf,
  regionOf,
  type AmountCalType,
  type Ladder,
  type PriceServiceType,
  type Region,
  type ServicePriceConfig,
  type GuaranteedDomainPrice,
} from '../../shared/billing/price';

export interface StoredPrices {
  regions?: Partial<Record<Region, Ladder>>;
  cheap?: Ladder | null;
  /** media: unit prices per usage key over DEFAULT_PROCESSING_PRICES */
  processing?: Record<string, number>;
  /** overseas: guaranteed domains over the default (disabled, DEFAULT_GUARANTEED_DOMAIN_PRICE) */
  guaranteed?: { enabled?: boolean; price_month?: number };
}

/** Merges a stored row over the default of its service type; period and dimension follow the mode. */
export function mergeConfig(type: PriceServiceType, row: { amount_cal_type: string; storage_deduction?: boolean; discount?: number; prices?: StoredPrices | null } | undefined): ServicePriceConfig {
  const base = defaultPriceConfig()[type];
  if (!row) return base;
  const mode = row.amount_cal_type as AmountCalType;
  const bandwidth = isBandwidthMode(mode) && base.charge_dimension === 'discharge';
  const fallback = bandwidth ? (periodOf(mode) === 'DAY' ? DEFAULT_BANDWIDTH_LADDER.day : DEFAULT_BANDWIDTH_LADDER.month) : null;
  const regions = { ...base.regions } as Record<Region, Ladder>;
  for (const r of REGIONS) {
    const stored = row.prices?.regions?.[r];
    if (stored && !ladderProblem(stored)) regions[r] = stored;
    else if (fallback) regions[r] = fallback;
  }
  const cheap = row.prices?.cheap === null ? null : row.prices?.cheap && !ladderProblem(row.prices.cheap) ? row.prices.cheap : bandwidth ? null : base.cheap_unit_price_ladder;
  return {
    ...base,
    amount_cal_type: mode,
    period_bill_type: periodOf(mode),
    charge_dimension: bandwidth ? 'bandwidth' : base.charge_dimension,
    storage_deduction: row.storage_deduction ?? base.storage_deduction,
    discount: row.discount ?? base.discount,
    // the ladder the type's usage pays, as in the defaults (overseas: asia_pacific)
    unit_price_ladder: regions[regionOf(type)],
    regions,
    cheap_unit_price_ladder: cheap,
    ...(base.processing ? { processing: { ...base.processing, ...validProcessing(row.prices?.processing) } } : {}),
    ...(base.guaranteed_domain ? { guaranteed_domain: validGuaranteed(base.guaranteed_domain, row.prices?.guaranteed) } : {}),
  };
}

/** The stored guaranteed-domain settings over the default, where valid. */
function validGuaranteed(base: GuaranteedDomainPrice, g: StoredPrices['guaranteed']): GuaranteedDomainPrice {
  return {
    enabled: typeof g?.enabled === 'boolean' ? g.enabled : base.enabled,
    price_month: typeof g?.price_month === 'number' && g.price_month >= 0 ? g.price_month : base.price_month,
  };
}

/** The stored processing prices that are valid (a key of MEDIA_KEY_RE, a price ≥ 0). */
function validProcessing(p: unknown): Record<string, number> {
  if (!p || typeof p !== 'object') return {};
  return Object.fromEntries(Object.entries(p as Record<string, unknown>).filter(([k, v]) => MEDIA_KEY_RE.test(k) && typeof v === 'number' && v >= 0)) as Record<string, number>;
}

/** The full configuration of an account: every price service type, stored or default. */
export async function loadPriceConfig(db: Kysely<Database>, accountId: number): Promise<Record<PriceServiceType, ServicePriceConfig>> {
  const rows = await db.selectFrom('account_price_config').select(['service_type', 'amount_cal_type', 'storage_deduction', 'discount', 'prices']).where('account_id', '=', accountId).execute();
  const byType = new Map(rows.map((r) => [r.service_type, r]));
  const out = {} as Record<PriceServiceType, ServicePriceConfig>;
  for (const t of PRICE_SERVICE_TYPES) out[t] = mergeConfig(t, byType.get(t) as any);
  return out;
}

export interface PriceChange {
  amount_cal_type?: AmountCalType;
  storage_deduction?: boolean;
  discount?: number;
  regions?: Partial<Record<Region, Ladder>>;
  cheap?: Ladder | null;
  /** media: yuan per minute (per task for thumbnails and probes) per usage key */
  processing?: Record<string, number>;
  /** overseas: guaranteed domains on or off and their price per domain-month */
  guaranteed?: { enabled?: boolean; price_month?: number };
}

/** Validates and stores a change of one service type (the platform command). Returns problems, or []. */
export async function setPriceConfig(db: Kysely<Database>, accountId: number, type: PriceServiceType, change: PriceChange): Promise<string[]> {
  const problems: string[] = [];
  if (!(PRICE_SERVICE_TYPES as readonly string[]).includes(type)) problems.push(`未知的服务类型 ${type}`);
  const current = await db.selectFrom('account_price_config').selectAll().where('account_id', '=', accountId).where('service_type', '=', type).executeTakeFirst();
  const mode = change.amount_cal_type ?? ((current?.amount_cal_type as AmountCalType) || defaultPriceConfig()[type]?.amount_cal_type);
  if (isBandwidthMode(mode) && !['cdn', 'file', 'fusion', 'scdn', 'live', 'websocket', 'overseas'].includes(type)) problems.push(`${type} 不能按带宽计费`);
  if (type === 'media' && !['DAILY', 'MONTHLY'].includes(mode)) problems.push('media 只能按日（DAILY）或按月（MONTHLY）计费');
  if (change.processing && type !== 'media') problems.push('处理单价只属于 media');
  for (const [k, v] of Object.entries(change.processing ?? {})) {
    if (!MEDIA_KEY_RE.test(k)) problems.push(`未知的用量键 ${k}`);
    if (!(typeof v === 'number' && v >= 0)) problems.push(`${k} 的单价应为不小于 0 的数`);
  }
  if (change.guaranteed && type !== 'overseas') problems.push('保底加速域名只属于 overseas');
  if (change.guaranteed?.price_month !== undefined && !(typeof change.guaranteed.price_month === 'number' && change.guaranteed.price_month >= 0)) problems.push('保底加速域名的月单价应为不小于 0 的数');
  if (change.discount !== undefined && !(Number.isInteger(change.discount) && change.discount >= 1 && change.discount <= 100)) problems.push('折扣为 1 到 100 的整数（100 表示不打折）');
  for (const [r, l] of Object.entries(change.regions ?? {})) {
    if (!(REGIONS as readonly string[]).includes(r)) problems.push(`未知的区域 ${r}`);
    const p = ladderProblem(l);
    if (p) problems.push(`${r}：${p}`);
  }
  if (change.cheap) {
    const p = ladderProblem(change.cheap);
    if (p) problems.push(`cheap：${p}`);
  }
  if (problems.length) return problems;
  const prices: StoredPrices = { ...((current?.prices as StoredPrices) ?? {}) };
  if (change.regions) prices.regions = { ...(prices.regions ?? {}), ...change.regions };
  if (change.cheap !== undefined) prices.cheap = change.cheap;
  if (change.processing) prices.processing = { ...(prices.processing ?? {}), ...change.processing };
  if (change.guaranteed) prices.guaranteed = { ...(prices.guaranteed ?? {}), ...change.guaranteed };
  // a change of mode between traffic and bandwidth drops ladders of the other dimension
  if (change.amount_cal_type && current && isBandwidthMode(change.amount_cal_type) !== isBandwidthMode(current.amount_cal_type) && !change.regions) delete prices.regions;
  const values = {
    account_id: accountId,
    service_type: type,
    amount_cal_type: mode,
    period_bill_type: periodOf(mode),
    charge_dimension: mergeConfig(type, { amount_cal_type: mode }).charge_dimension,
    storage_deduction: change.storage_deduction ?? current?.storage_deduction ?? false,
    discount: change.discount ?? current?.discount ?? 100,
    prices: JSON.stringify(prices),
    updated_at: new Date(),
  };
  await db
    .insertInto('account_price_config')
    .values(values)
    .onConflict((oc) => oc.columns(['account_id', 'service_type']).doUpdateSet({ ...values }))
    .execute();
  return [];
}
