/**
 * The success answers of the billing routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, bool, any, obj, arr, type AnswerTable } from '../http/answers';

export const billingAnswers: AnswerTable = {
  // src/server/billing/recharge/routes.ts
  'GET /orders/recharge/discount': ok(obj({ discount: arr(obj({ min: num, rate: num })) })),
  // src/server/billing/recharge/routes.ts
  'POST /api/orders/recharge': ok(obj({ order_no: str, amount: num, gift: num, method: str, pay_url: str, sandbox: bool })),
  // src/server/billing/recharge/routes.ts
  'GET /api/orders/recharge': ok(obj({
      order_no: str,
      kind: str,
      title: str,
      amount: num,
      gift: num,
      pay_method: str,
      status: str,
      created_at: num,
      paid_at: num,
    })),
  // src/server/billing/recharge/routes.ts
  'GET /api/v2/orders/': ok(arr(obj({
      order_no: str,
      kind: str,
      title: str,
      amount: num,
      gift: num,
      pay_method: str,
      status: str,
      created_at: num,
      paid_at: num,
    })), { pager: obj({ total: num, page: num, size: num }) }),
  // src/server/billing/pay/routes.ts
  'GET /api/accounts/transaction/captcha': ok(obj({ mobile: str, resend_in: num })),
  // src/server/billing/pay/routes.ts
  'POST /api/accounts/transaction/captcha': ok(obj({ mobile: str, resend_in: num })),
  // src/server/billing/pay/routes.ts
  'POST /api/orders/pay': ok(obj({ order_no: str, pay_url: str, status: str })),
  // src/server/billing/invoices/routes.ts
  'GET /api/account/invoice/consume/': ok(obj({ total: num, freeze: num, invoiced: num, available: num })),
  // src/server/billing/invoices/routes.ts
  'PUT /api/account/invoice': ok(obj({ invoice_id: num })),
  // src/server/billing/invoices/routes.ts
  'GET /api/account/invoices': ok(obj({
      invoices: arr(obj({
        invoice_id: num,
        amount: num,
        info: obj({ type: str, title: str, tax_no: str }),
        address: obj({ mobile: str, address: str, recipient: str }),
        remark: str,
        status: str,
        reason: str,
        create_at: num,
        update_at: num,
      })),
    }), { pager: obj({ total: num, page: num, size: num }) }),
  // src/server/billing/invoices/routes.ts
  'GET /api/account/invoice': ok(obj({
      invoice_id: num,
      amount: num,
      info: obj({ type: str, title: str, tax_no: str }),
      address: obj({ mobile: str, address: str, recipient: str }),
      remark: str,
      status: str,
      reason: str,
      create_at: num,
      update_at: num,
    })),
  // src/server/billing/invoices/routes.ts
  'DELETE /api/account/invoice': ok(undefined),
  // src/server/billing/invoices/routes.ts
  'GET /api/account/invoice/info': ok(obj({
      infos: arr(obj({
        type: str,
        title: str,
        tax_no: str,
        info_id: num,
        bank: str,
        reg_phone: str,
        reg_address: str,
        bank_account: str,
        qualification_pic: str,
      })),
    })),
  // src/server/billing/invoices/routes.ts
  'PUT /api/account/invoice/info': ok(obj({ info_id: num })),
  // src/server/billing/invoices/routes.ts
  'POST /api/account/invoice/info': ok(obj({ info_id: num })),
  // src/server/billing/invoices/routes.ts
  'DELETE /api/account/invoice/info': ok(undefined),
  // src/server/billing/invoices/routes.ts
  'GET /api/account/invoice/address': ok(obj({
      addresses: arr(obj({ mobile: str, address: str, recipient: str, address_id: num, postcode: str })),
    })),
  // src/server/billing/invoices/routes.ts
  'PUT /api/account/invoice/address': ok(obj({ address_id: num })),
  // 'GET /accounts/invoice/pic/:id': not answered in the tests (src/server/billing/invoices/pictures.ts)
  // src/server/billing/rebates/routes.ts
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
      amounts: obj({ total: num, freeze: num, available: num }),
    }), { pager: obj({ total: num, page: num, size: num }) }),
  // src/server/billing/rebates/routes.ts
  'PUT /api/account/rebate': ok(obj({ rebate_id: num, amounts: obj({ total: num, freeze: num, available: num }) })),
  // src/server/billing/rebates/routes.ts
  'DELETE /api/account/rebate': ok(undefined),
  // src/server/billing/rebates/routes.ts
  'GET /api/account/rebate/info': ok(obj({
      rebate_infos: arr(obj({
        rebate_info_id: num,
        receive_type: str,
        name: str,
        open_account: str,
        id_code: str,
        id_front_pic: str,
        id_reverse_pic: str,
        default: bool,
      })),
      max: num,
    })),
  // src/server/billing/rebates/routes.ts
  'PUT /api/account/rebate/info': ok(obj({ rebate_info_id: num })),
  // src/server/billing/rebates/routes.ts
  'POST /api/account/rebate/info': ok(obj({ rebate_info_id: num })),
  // src/server/billing/rebates/routes.ts
  'DELETE /api/account/rebate/info': ok(undefined),
  // src/server/billing/header.ts
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
  'GET /api/bills/': ok(arr(obj({
      bandwidth: obj({ cdn: num }),
      id: str,
      type: str,
      start_time: num,
      end_time: num,
      original: num,
      voucher_deduct: num,
      settlement: num,
      status: str,
    })), { pager: obj({ page: num, limit: num, total: num }) }),
  // src/server/billing/bills/routes.ts
  'GET /api/bill/': ok(obj({
      bandwidth: obj({ cdn: num }),
      id: str,
      type: str,
      start_time: num,
      end_time: num,
      original: num,
      voucher_deduct: num,
      settlement: num,
      status: str,
      detail: any,
    })),
  // src/server/billing/bills/routes.ts
  'GET /api/bill_threshold': ok(obj({ threshold: num, warned: bool, money: num })),
  // src/server/billing/bills/routes.ts
  'POST /api/bill_threshold': ok(obj({ threshold: num, warned: bool })),
  // src/server/billing/bills/routes.ts
  'DELETE /api/bill_threshold': ok(obj({ threshold: num })),
  // src/server/billing/vouchers/routes.ts
  'GET /api/tickets/': ok(arr(obj({
      id: num,
      value: num,
      remain: num,
      used: num,
      expired_at: num,
      created_at: num,
      source: str,
      remark: str,
      status: str,
    })), { pager: obj({ since: num, max: num }), count: num }),
  // src/server/billing/vouchers/routes.ts
  'POST /api/ticket/': ok(obj({
      id: num,
      value: num,
      remain: num,
      used: num,
      expired_at: num,
      created_at: num,
      source: str,
      remark: str,
      status: str,
    })),
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
  // src/server/billing/resources/routes.ts
  'GET /api/resource': ok(obj({
      resources: obj({ remain: num, unit: str }),
      transcode: obj({ remain: num, unit: str }),
      sms: obj({ remain: num, unit: str }),
      oneclicklogin: obj({ remain: num, unit: str }),
      sslpack: obj({ remain: num, unit: str }),
      blockchain: obj({ remain: num, unit: str }),
    })),
  // src/server/billing/resources/routes.ts
  'GET /api/resources/account/': ok(arr(obj({
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
    })), { pager: obj({ page: num, limit: num, total: num }) }),
  // src/server/billing/resources/routes.ts
  'POST /api/resources/account/': ok(obj({ id: num, order_no: str, balance: num })),
  // src/server/billing/resources/routes.ts
  'PUT /api/resources/account/': ok(obj({
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
    })),
  // src/server/billing/resources/routes.ts
  'DELETE /api/resources/account/': ok(obj({ id: num })),
  // src/server/billing/consumption/routes.ts
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
  // src/server/billing/consumption/routes.ts
  'GET /api/resources/usage': ok(arr(obj({ day: str, quantity: num, covered: num, charged: num }))),
  // src/server/billing/consumption/routes.ts
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
  'POST /api/coin/address/bind': ok(arr(obj({ type: str, address: str, updated_at: num }))),
  // src/server/billing/donation/routes.ts
  'GET /api/coin/address': ok(arr(obj({ type: str, address: str, updated_at: num }))),
  // src/server/billing/donation/routes.ts
  'DELETE /api/coin/address': ok(arr(obj({ type: str, address: str, updated_at: num }))),
  // src/server/billing/ledger/routes.ts
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
    }), { pager: obj({ page: num, size: num, total: num }) }),
  // 'GET /api/pay/sandbox/:token': not answered in the tests (src/server/billing/recharge/routes.ts)
  // 'POST /api/pay/sandbox/:token': not answered in the tests (src/server/billing/recharge/routes.ts)
  // src/server/billing/invoices/pictures.ts
  'POST /accounts/invoice/pic/': ok(obj({ url: str, size: num, type: str })),
  // read from the handlers (src/server/billing/invoices/routes.ts valueRoutes)
  'POST /api/account/invoice/address': ok(obj({ address_id: num })),
  'DELETE /api/account/invoice/address': ok(),
};
