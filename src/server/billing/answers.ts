/**
 * The success answers of the billing routes (issue 23 item 2): see src/server/http/answers.ts.
 * Each entity is named once; the price configuration is also the statistics section's answer
 * (GET /api/accounts/price_config), which uses `priceConfig` from here.
 */
import infoSchema from '../../../schemas/forms/invoice_info/schema.json';
import addressSchema from '../../../schemas/forms/invoice_address/schema.json';
import payeeSchema from '../../../schemas/forms/payee/schema.json';
import { PRICE_SERVICE_TYPES, REGIONS } from '../../shared/billing/price';
import { RESOURCE_KINDS } from '../../shared/billing/resources';
import { ok, str, num, bool, any, obj, map, arr, cursorPager, fieldsOf, type AnswerTable } from '../http/answers';

/** An object with one field per price service type (src/shared/billing/price.ts PRICE_SERVICE_TYPES). */
const byServiceType = (value: Record<string, unknown>) => obj(Object.fromEntries(PRICE_SERVICE_TYPES.map((t) => [t, value])));

/** A price ladder (src/shared/billing/price.ts Ladder). */
const ladder = arr(obj({ min: num, max: num, unit_price: num }));

/** One service type's prices (src/shared/billing/price.ts ServicePriceConfig); the last three only for media, scdn, overseas. */
const servicePrice = obj({
  service_type: str,
  period_bill_type: str,
  amount_cal_type: str,
  charge_dimension: str,
  storage_deduction: bool,
  discount: num,
  unit_price_ladder: ladder,
  regions: obj(Object.fromEntries(REGIONS.map((r) => [r, ladder]))),
  cheap_unit_price_ladder: ladder,
  processing: map(num),
  attack_ladder: ladder,
  guaranteed_domain: obj({ enabled: bool, price_month: num }),
});

/** An account's price configuration (src/shared/billing/price.ts PriceConfig), keyed by service type. */
export const priceConfig = byServiceType(servicePrice);

/** The billing mode (amount_cal_type) of each service type (GET /api/flow/billing_mode/). */
export const billingMode = byServiceType(str);

/** A page of a page-numbered list (the bills and packages: page, limit, total). */
const pageLimitPager = { pager: obj({ page: num, limit: num, total: num }) };
/** A page of a page-numbered list (orders, invoices, payouts, the ledger: page, size, total). */
const pageSizePager = { pager: obj({ total: num, page: num, size: num }) };

/** A bill in the list (src/shared/billing/bills.ts BillSummary): `bandwidth` is the billed Mbps per service type. */
const billFields = {
  bandwidth: map(num),
  id: str,
  type: str,
  start_time: num,
  end_time: num,
  original: num,
  voucher_deduct: num,
  settlement: num,
  status: str,
};

/** One charge of a service with its explanation (src/shared/billing/bills.ts BillLine). */
const billLine = obj({
  item: str,
  label: str,
  usage: num,
  unit: str,
  package: num,
  billed: num,
  steps: arr(obj({ min: num, max: num, unit_price: num, used: num, amount: num })),
  amount: num,
  sample: obj({ time: num, value: num, rank: num, count: num, dropped: num }),
  daily: arr(obj({ day: str, value: num, time: num })),
  factor: obj({ value: num, reason: str }),
  note: str,
});

/** A bill's detail (src/shared/billing/bills.ts BillDetail): each service's usage keys (spec 001 §3, free) and lines, the prices, the settlement. */
const billDetail = obj({
  used: map(obj({ service_type: str, charged: bool, used: map(any), lines: arr(billLine), amount: num, discount: num, total: num, note: str })),
  price_config: priceConfig,
  settlement: obj({
    vouchers: arr(obj({ id: num, amount: num })),
    money: num,
    packages: arr(obj({ id: num, amount: num, unit: str })),
  }),
});

/** An order of the account (src/shared/billing OrderRow; recharge/routes.ts `toOrderRow`). */
const order = obj({
  order_no: str,
  kind: str,
  title: str,
  amount: num,
  gift: num,
  pay_method: str,
  status: str,
  created_at: num,
  paid_at: num,
});

/** An invoice title and a delivery address as their declarations hold them (schemas/forms/invoice_info, invoice_address). */
const invoiceInfo = obj(fieldsOf(infoSchema));
const invoiceAddress = obj(fieldsOf(addressSchema));

/** An invoice (invoices/routes.ts `toInvoice`): the title and address as they were when it was applied for. */
const invoice = obj({
  invoice_id: num,
  amount: num,
  info: invoiceInfo,
  address: invoiceAddress,
  remark: str,
  status: str,
  reason: str,
  create_at: num,
  update_at: num,
});

/** The rebate amounts (rebates/totals.ts `rebateTotals`). */
const rebateAmounts = obj({ total: num, freeze: num, available: num });

/** A voucher (src/shared/billing Voucher; vouchers/routes.ts `voucherOf`). */
const voucher = obj({
  id: num,
  value: num,
  remain: num,
  used: num,
  expired_at: num,
  created_at: num,
  source: str,
  remark: str,
  status: str,
});

/** A resource package of the account (src/shared/billing/resources.ts ResourcePackage; resources/routes.ts `packageOf`). */
const resourcePackage = obj({
  id: num,
  kind: str,
  spec: str,
  name: str,
  amount: num,
  remain: num,
  unit: str,
  price: num,
  auto_renew: bool,
  starts_at: num,
  expires_at: num,
  created_at: num,
  status: str,
});

/** The state of the payment SMS code (pay/routes.ts). */
const payCode = obj({ mobile: str, resend_in: num });

/** The donation addresses (donation/routes.ts `list`). */
const coinAddresses = arr(obj({ type: str, address: str, updated_at: num }));

export const billingAnswers: AnswerTable = {
  // src/server/billing/recharge/routes.ts ('GET|POST /api/pay/sandbox/:token' answer HTML)
  'GET /orders/recharge/discount': ok(obj({ discount: arr(obj({ min: num, rate: num })) })),
  'POST /api/orders/recharge': ok(obj({ order_no: str, amount: num, gift: num, method: str, pay_url: str, sandbox: bool })),
  'GET /api/orders/recharge': ok(order),
  'GET /api/v2/orders/': ok(arr(order), pageSizePager),
  // src/server/billing/pay/routes.ts: an order paid online answers its pay_url, one paid from the balance its status
  'GET /api/accounts/transaction/captcha': ok(payCode),
  'POST /api/accounts/transaction/captcha': ok(payCode),
  'POST /api/orders/pay': ok(obj({ order_no: str, pay_url: str, status: str })),
  // src/server/billing/invoices/routes.ts
  'GET /api/account/invoice/consume/': ok(obj({ total: num, freeze: num, invoiced: num, available: num })),
  'PUT /api/account/invoice': ok(obj({ invoice_id: num })),
  'GET /api/account/invoices': ok(obj({ invoices: arr(invoice) }), pageSizePager),
  'GET /api/account/invoice': ok(invoice),
  'DELETE /api/account/invoice': ok(),
  'GET /api/account/invoice/info': ok(obj({ infos: arr(invoiceInfo) })),
  'PUT /api/account/invoice/info': ok(obj({ info_id: num })),
  'POST /api/account/invoice/info': ok(obj({ info_id: num })),
  'DELETE /api/account/invoice/info': ok(),
  'GET /api/account/invoice/address': ok(obj({ addresses: arr(invoiceAddress) })),
  'PUT /api/account/invoice/address': ok(obj({ address_id: num })),
  'POST /api/account/invoice/address': ok(obj({ address_id: num })),
  'DELETE /api/account/invoice/address': ok(),
  // src/server/billing/invoices/pictures.ts ('GET /accounts/invoice/pic/:id' is the picture)
  'POST /accounts/invoice/pic/': ok(obj({ url: str, size: num, type: str })),
  // src/server/billing/rebates/routes.ts (src/shared/billing RebateRecord; a payee as the payee declaration holds it, `toPayee`)
  'GET /api/account/rebate': ok(obj({
      rebates: arr(obj({
        rebate_id: num,
        create_at: num,
        update_at: num,
        sum: num,
        draw_type: str,
        receive_type: str,
        status: str,
        reason: str,
        name: str,
        open_account: str,
        id_code: str,
      })),
      amounts: rebateAmounts,
    }), pageSizePager),
  'PUT /api/account/rebate': ok(obj({ rebate_id: num, amounts: rebateAmounts })),
  'DELETE /api/account/rebate': ok(),
  'GET /api/account/rebate/info': ok(obj({ rebate_infos: arr(obj(fieldsOf(payeeSchema))), max: num })),
  'PUT /api/account/rebate/info': ok(obj({ rebate_info_id: num })),
  'POST /api/account/rebate/info': ok(obj({ rebate_info_id: num })),
  'DELETE /api/account/rebate/info': ok(),
  // src/server/billing/header.ts (src/shared/billing/header.ts BillingUsage)
  'GET /api/billing/usage/': ok(obj({
      money: num,
      actual_charge: num,
      gift: num,
      money_int: str,
      money_decimal: str,
      total_rebate: num,
      freeze_rebate: num,
      ticket_count: num,
      resource_flow_remain: num,
      resource_flow_remain_value: num,
      resource_flow_remain_unit: str,
      transcode_remains: num,
      transcode_narrowband_remains: num,
      pcdn_open: bool,
      mingmou: bool,
      hidden: arr(str),
      redirect: str,
    })),
  // src/server/billing/bills/routes.ts
  'GET /api/bills/': ok(arr(obj(billFields)), pageLimitPager),
  'GET /api/bill/': ok(obj({ ...billFields, detail: billDetail })),
  'GET /api/bill_threshold': ok(obj({ threshold: num, warned: bool, money: num })),
  'POST /api/bill_threshold': ok(obj({ threshold: num, warned: bool })),
  'DELETE /api/bill_threshold': ok(obj({ threshold: num })),
  // src/server/billing/vouchers/routes.ts
  'GET /api/tickets/': ok(arr(voucher), { pager: cursorPager, count: num }),
  'POST /api/ticket/': ok(voucher),
  // src/server/billing/resources/routes.ts
  'GET /api/resources/specs/': ok(arr(obj({
      id: str,
      kind: str,
      name: str,
      amount: num,
      unit: str,
      price: num,
      valid_months: num,
      promo: bool,
      description: str,
      index: num,
      kind_label: str,
      available: bool,
    }))),
  // what is left of each kind of package (src/shared/billing/resources.ts RESOURCE_KINDS)
  'GET /api/resource': ok(obj(Object.fromEntries(RESOURCE_KINDS.map((k) => [k, obj({ remain: num, unit: str })])))),
  'GET /api/resources/account/': ok(arr(resourcePackage), pageLimitPager),
  'POST /api/resources/account/': ok(obj({ id: num, order_no: str, balance: num })),
  'PUT /api/resources/account/': ok(resourcePackage),
  'DELETE /api/resources/account/': ok(obj({ id: num })),
  // src/server/billing/consumption/routes.ts (src/shared/billing OtherServiceMonth; report.ts `receiveReport`)
  'GET /api/billing/other': ok(arr(obj({
      product: str,
      unit: str,
      quantity: num,
      covered: num,
      charged_quantity: num,
      amount: num,
      unbilled_quantity: num,
      remain: num,
    })), { month: str }),
  'GET /api/resources/usage': ok(arr(obj({ day: str, quantity: num, covered: num, charged: num }))),
  'POST /accounts/app/usage': ok(obj({
      product: str,
      report_id: str,
      account_id: num,
      quantity: num,
      covered: num,
      charged_quantity: num,
      bill_day: str,
      remain: num,
      duplicate: bool,
    })),
  // src/server/billing/donation/routes.ts
  'POST /api/coin/address/bind': ok(coinAddresses),
  'GET /api/coin/address': ok(coinAddresses),
  'DELETE /api/coin/address': ok(coinAddresses),
  // src/server/billing/ledger/routes.ts (src/shared/billing LedgerEntry)
  'GET /api/billing/ledger': ok(obj({
      entries: arr(obj({
        id: num,
        kind: str,
        kind_label: str,
        amount: num,
        recharge: num,
        balance: num,
        ref: str,
        memo: str,
        created_at: num,
      })),
      balance: num,
      ledger_sum: num,
    }), pageSizePager),
};
