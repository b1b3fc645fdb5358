/**
 * The platform's billing commands (docs/billing.md "Platform commands"):
 *   npm run platform -- price-config --account demo
 *   npm run platform -- price-config --account demo --service cdn --mode MONTHLY_95 --domestic "0-100:30,100-:25" [--asia_pacific …] [--other …] [--cheap "0-:20"|none] [--discount 90] [--storage-deduction true]
 *   npm run platform -- price-config --account demo --service media [--mode DAILY|MONTHLY] --processing "video_transcode_gte1080p:0.18,probe:0"
 *   npm run platform -- price-config --account demo --service overseas --guaranteed true [--guaranteed-price 300]
 *   npm run platform -- voucher-issue --account demo --amount 50 --days 30 [--remark "补偿"]
 *   npm run platform -- voucher-code --ticket ABCD1234EFGH --amount 50 --days 30 [--activate-days 365]
 *   npm run platform -- package-grant --account demo --spec traffic_100g
 *   npm run platform -- bills-run [--account demo] [--from 2026-10-01]
 *   npm run platform -- balance-adjust --account demo --amount -100 --remark "…"   (a ledger row, kind adjust)
 *   npm run platform -- ledger-check [--account demo]
 *   npm run platform -- invoice-review --id 12 (--issue [--remark …] | --reject --reason "…")   (invoices/review.ts)
 */
import type { DB } from '../db';
import { required, type PlatformCommand } from '../platform/command';
import type {} from './tables';
import { PRICE_SERVICE_TYPES, UNBOUNDED, type AmountCalType, type Ladder, type PriceServiceType, AMOUNT_CAL_TYPES } from '../../shared/billing/price';
import { findSpec } from '../../shared/billing/resources';
import { loadPriceConfig, setPriceConfig, type PriceChange } from './price';
import { createVoucherCode, issueVoucher } from './vouchers/issue';
import { grantPackage } from './resources/grant';
import { daysForMonths } from './resources/routes';
import { runBilling } from './bills/make';
import { invoiceCommands } from './invoices/review';
import { adjustBalance, ledgerProblems } from './ledger/ledger';
import activateSchema from '../../../schemas/forms/voucher_activate/schema.json';

/** "0-100:30,100-:25" → a ladder (an empty max is unbounded); JSON arrays are accepted too. */
export function parseLadder(text: string): Ladder {
  const t = text.trim();
  if (t.startsWith('[')) return JSON.parse(t);
  return t.split(',').map((part) => {
    const m = /^\s*(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)?\s*:\s*(\d+(?:\.\d+)?)\s*$/.exec(part);
    if (!m) throw new Error(`无法识别的阶梯：${part}（格式 最小-最大:单价，最后一级的最大留空）`);
    return { min: Number(m[1]), max: m[2] === undefined ? UNBOUNDED : Number(m[2]), unit_price: Number(m[3]) };
  });
}

/** "video_transcode_gte1080p:0.18,probe:0" → unit prices per usage key (media processing). */
export function parseProcessing(text: string): Record<string, number> {
  return Object.fromEntries(
    text.split(',').map((part) => {
      const m = /^\s*([a-z0-9_]+)\s*:\s*(\d+(?:\.\d+)?)\s*$/.exec(part);
      if (!m) throw new Error(`无法识别的处理单价：${part}（格式 用量键:单价，如 video_transcode_gte1080p:0.18）`);
      return [m[1], Number(m[2])];
    }),
  );
}

async function accountId(db: DB, username: string): Promise<number> {
  const u = await db.selectFrom('users').select(['id', 'parent_id']).where('username', '=', username).executeTakeFirst();
  if (!u) throw new Error(`账号 ${username} 不存在`);
  if (u.parent_id !== null) throw new Error(`${username} 是子账号，费用属于其主账号`);
  return u.id;
}

const positive = (v: string, name: string) => {
  const n = Number(v);
  if (!(n > 0)) throw new Error(`--${name} 应为正数`);
  return n;
};

export const billingCommands: PlatformCommand[] = [
  {
    name: 'price-config',
    summary: '查看或修改账号的价格配置（计费方式、阶梯单价、区域、低价节点、折扣）',
    usage: '--account 用户名 [--service cdn --mode MONTHLY_95 --domestic "0-100:30,100-:25" --asia_pacific … --other … --cheap "0-:20"|none --discount 90 --storage-deduction true|false] | --service media --processing "video_transcode_gte1080p:0.18,probe:0" | --service overseas --guaranteed true|false [--guaranteed-price 300]',
    async run(db, args) {
      const id = await accountId(db, required(args, 'account'));
      if (args.service) {
        const service = args.service as PriceServiceType;
        if (!(PRICE_SERVICE_TYPES as readonly string[]).includes(service)) throw new Error(`--service 为 ${PRICE_SERVICE_TYPES.join('、')} 之一`);
        if (args.mode && !(AMOUNT_CAL_TYPES as readonly string[]).includes(args.mode)) throw new Error(`--mode 为 ${AMOUNT_CAL_TYPES.join('、')} 之一`);
        const change: PriceChange = {};
        if (args.mode) change.amount_cal_type = args.mode as AmountCalType;
        if (args.discount) change.discount = Number(args.discount);
        if (args['storage-deduction']) change.storage_deduction = args['storage-deduction'] === 'true';
        for (const r of ['domestic', 'asia_pacific', 'other'] as const) if (args[r]) (change.regions ??= {})[r] = parseLadder(args[r]);
        if (args.cheap) change.cheap = args.cheap === 'none' ? null : parseLadder(args.cheap);
        if (args.processing) change.processing = parseProcessing(args.processing);
        if (args.guaranteed) change.guaranteed = { enabled: args.guaranteed === 'true' };
        if (args['guaranteed-price']) change.guaranteed = { ...change.guaranteed, price_month: Number(args['guaranteed-price']) };
        const problems = await setPriceConfig(db, id, service, change);
        if (problems.length) throw new Error(problems.join('\n'));
        return (await loadPriceConfig(db, id))[service];
      }
      return loadPriceConfig(db, id);
    },
  },
  {
    name: 'voucher-issue',
    summary: '向账号发放代金券（立即可用）',
    usage: '--account 用户名 --amount 50 --days 30 [--remark 说明]',
    async run(db, args) {
      const id = await accountId(db, required(args, 'account'));
      const vid = await issueVoucher(db, id, { amount: positive(required(args, 'amount'), 'amount'), validDays: Math.floor(positive(required(args, 'days'), 'days')), source: 'platform', remark: args.remark });
      return { voucher_id: vid };
    },
  },
  {
    name: 'voucher-code',
    summary: '生成代金券券号，由用户在代金券页面激活',
    usage: '--ticket 8 到 32 位字母数字 --amount 50 --days 30 [--activate-days 365]',
    async run(db, args) {
      const ticket = required(args, 'ticket');
      if (!new RegExp(activateSchema.properties.ticket_id.pattern).test(ticket)) throw new Error(`--ticket：${activateSchema.properties.ticket_id.errorMessage.pattern}（8 到 32 位字母或数字）`);
      const vid = await createVoucherCode(db, ticket, { amount: positive(required(args, 'amount'), 'amount'), validDays: Math.floor(positive(required(args, 'days'), 'days')), source: 'activation', activateDays: args['activate-days'] ? Math.floor(positive(args['activate-days'], 'activate-days')) : undefined });
      return { voucher_id: vid, ticket_id: ticket };
    },
  },
  {
    name: 'package-grant',
    summary: '向账号赠送资源包（按规格，或自定义类型、数量、单位、天数）',
    usage: '--account 用户名 --spec traffic_100g | --kind resources --amount 100 --unit GB --days 90',
    async run(db, args) {
      const id = await accountId(db, required(args, 'account'));
      const spec = args.spec ? findSpec(args.spec) : undefined;
      if (args.spec && !spec) throw new Error(`规格 ${args.spec} 不存在`);
      const pid = spec
        ? await grantPackage(db, id, { kind: spec.kind, spec: spec.id, amount: spec.amount, unit: spec.unit, validDays: daysForMonths(spec.valid_months) })
        : await grantPackage(db, id, { kind: required(args, 'kind'), spec: 'platform', amount: positive(required(args, 'amount'), 'amount'), unit: required(args, 'unit'), validDays: Math.floor(positive(required(args, 'days'), 'days')) });
      return { package_id: pid };
    },
  },
  {
    name: 'bills-run',
    summary: '立即生成并结算到昨天为止的账单（与每小时运行的任务相同）',
    usage: '[--account 用户名] [--from YYYY-MM-DD]',
    async run(db, args) {
      const ids = args.account ? [await accountId(db, args.account)] : undefined;
      const made = await runBilling(db, { accountIds: ids, from: args.from });
      return { created: made.filter((m) => m.created).map((m) => ({ id: m.id, original: m.original })) };
    },
  },
  {
    name: 'balance-adjust',
    summary: '人工调账：按金额增减账号余额，写一条收支明细（正数计为赠送金，负数先扣赠送金）',
    usage: '--account 用户名 --amount 100|-100 --remark "说明"',
    async run(db, args) {
      const id = await accountId(db, required(args, 'account'));
      const amount = Number(required(args, 'amount'));
      if (!Number.isFinite(amount) || amount === 0 || Math.round(amount * 100) !== amount * 100) throw new Error('--amount 为非 0 的金额，最多两位小数');
      const remark = required(args, 'remark');
      return { balance: await adjustBalance(db, id, amount, remark) };
    },
  },
  {
    name: 'ledger-check',
    summary: '核对余额与收支明细：余额是否等于明细合计、每张已结算账单与每笔充值和余额支付是否有明细',
    usage: '[--account 用户名]',
    async run(db, args) {
      const ids = args.account ? [await accountId(db, args.account)] : undefined;
      const problems = await ledgerProblems(db, ids);
      return { ok: problems.length === 0, problems };
    },
  },
  ...invoiceCommands,
];
