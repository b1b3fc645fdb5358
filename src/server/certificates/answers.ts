/**
 * The success answers of the certificates routes (issue 23 item 2): see src/server/http/answers.ts.
 * Each entity is named once and every route that answers it uses the name.
 */
import templateSchema from '../../../schemas/forms/certificate_template/schema.json';
import { ok, str, num, bool, obj, arr, either, cursorPager, fieldsOf, type AnswerTable } from '../http/answers';

/** An own certificate (src/shared/certificates.ts CertificateInfo; `bound` only where the route reads it). */
const certificateFields = {
  certificate_id: num,
  common_name: str,
  domains: arr(str),
  issuer: str,
  serial: str,
  fingerprint: str,
  valid_from: str,
  valid_to: str,
  days_left: num,
  gm: bool,
  remark: str,
  created_at: str,
  bound: arr(str),
};
const certificate = obj(certificateFields);

/** One domain's HTTPS state (routes.ts `manage` and GET …/manager/). */
const httpsState = obj({ domain: str, https: bool, force_https: bool, certificate_id: num });

/** A free-certificate application (src/shared/certificates.ts CertificateApplication; free.ts `view`). */
const application = obj({
  apply_id: num,
  agent: str,
  domains: arr(str),
  status: str,
  status_text: str,
  certificate_id: num,
  error: str,
  auto_renew: bool,
  created_at: str,
  issued_at: str,
  valid_to: str,
  dcv_path: str,
});

/** The domains moved by a migration (default.ts `move`). */
const migration = obj({ certificate_id: num, domains: arr(str) });

/** A paid order's CA message and domain-control records (tables.ts CaMessage, DcvRecord). */
const caMessage = obj({ add_domains: str, main_domain: str, template_id: num, multiple_domain: str });
const dcvRecord = obj({ host: str, type: str, value: str, domain: str, method: str });

/** A paid-certificate order (orders.ts `orderView`). */
const orderFields = {
  order_id: num,
  product_id: str,
  brand: str,
  brand_name: str,
  level: str,
  level_name: str,
  kind: str,
  kind_name: str,
  domain_type: str,
  certificate_agent: str,
  years: num,
  defaultDomain: num,
  generalDomain: num,
  price: num,
  status: str,
  status_text: str,
  apply_id: str,
  ca_message: caMessage,
  domains: arr(str),
  dcv: arr(dcvRecord),
  error: str,
  certificate_id: num,
  oldOrderId: num,
  reIssuedType: str,
  order_no: str,
  created_at: str,
  paid_at: str,
  updated_at: str,
};
const order = obj(orderFields);

/** An order's state and domain-control records (the two verify-message routes). */
const verification = obj({ order_id: num, apply_id: str, status: str, status_text: str, dcv: arr(dcvRecord), error: str });

/** An organisation template: the certificate_template declaration's fields (orders.ts `templateView`). */
const template = obj({ template_id: num, ...fieldsOf(templateSchema), created_at: str });

export const certificatesAnswers: AnswerTable = {
  // src/server/certificates/routes.ts
  'POST /api/https/certificate/': ok(obj({ status: num, ...certificateFields })),
  'GET /api/https/certificate/list/': ok(arr(certificate), { pager: cursorPager }),
  'GET /api/https/certificate/search': ok(arr(certificate)),
  'GET /api/https/certificate/': ok(certificate),
  'DELETE /api/https/certificate/': ok(),
  // 'GET /api/https/certificate/download': a file (tests/server/response-schemas.test.ts NOT_ENVELOPE)
  'GET /api/https/services/manager': ok(arr(obj({
      domain: str,
      cname: str,
      https: bool,
      force_https: bool,
      certificate_id: num,
      certificate: obj({ common_name: str, valid_to: str, days_left: num, gm: bool }),
    }))),
  'POST /api/https/certificate/manager': ok(httpsState),
  'GET /api/https/certificate/manager/': ok(httpsState),
  'POST /api/https/certificate/manager/': ok(httpsState),
  'PUT /api/https/certificate/manager/': ok(httpsState),
  'DELETE /api/https/certificate/manager/': ok(httpsState),
  // src/server/certificates/free.ts ('GET /.well-known/acme-challenge/:token' answers plain text)
  'POST /api/https/letsencrypt': ok(application),
  'POST /api/https/trustasia': ok(application),
  'POST /api/https/racent/certificate/free/predcv': ok(application),
  'POST /api/https/racent/certificate/free/apply': ok(application),
  'GET /api/https/apply/certificate_list/': ok(arr(application), { pager: cursorPager, free_used: num, free_limit: num, pack_remain: num }),
  'GET /api/https/apply': ok(application),
  'POST /api/https/trustasia/validate': ok(obj({ domains: arr(str), free_used: num, free_limit: num, uses_pack: bool, pack_remain: num })),
  // src/server/certificates/default.ts
  'GET /api/https/domain/default/manager/': ok(arr(obj({ bucket_name: str, kind: str, domain: str, https: bool, force_https: bool })), { suffix: str }),
  'POST /api/https/domain/default/manager/': ok(obj({ bucket_name: str, domain: str, https: bool, force_https: bool })),
  'POST /api/https/migrate/certificate': ok(migration),
  'POST /api/https/migrate/domain': ok(migration),
  // src/server/certificates/orders.ts
  'GET /api/https/trustasia/products/': ok(arr(obj({
      product_id: str,
      brand: str,
      level: str,
      kind: str,
      price: num,
      included_default: num,
      included_general: num,
      extra_default: num,
      extra_general: num,
      brand_name: str,
      level_name: str,
      kind_name: str,
      domain_type: str,
      agent: str,
    }))),
  'POST /api/https/v2/certificate/crm/calculate/': ok(obj({ product_id: str, years: num, price: num })),
  // one order with ?order_id=, else a page of them
  'GET /api/https/v2/certificate/order/': ok(either(order, arr(order)), { pager: cursorPager }),
  'POST /api/https/v2/certificate/order/': ok(order),
  'POST /api/https/v2/certificate/order/pay/': ok(obj({ ...orderFields, balance: num })),
  'POST /api/https/trustasia/certificate/paid/apply/': ok(order),
  'POST /api/https/racent/certificate/paid/apply/': ok(order),
  'GET /api/https/v2/certificate/paid/apply_message/': ok(obj({ order_id: num, ca_message: caMessage, template })),
  'GET /api/https/trustasia/certificate/paid/verify_message/': ok(verification),
  'GET /api/https/racent/certificate/verify_message/': ok(verification),
  'GET /api/https/v2/certificate/paid/cancel_apply/': ok(order),
  'POST /api/https/v2/certificate/paid/reapply/': ok(order),
  'POST /api/https/trustasia/certificate/paid/replace': ok(order),
  'POST /api/https/v2/certificate/paid/replace': ok(order),
  'GET /api/https/trustasia/certificate/deploy/': ok(obj({ order_id: num, certificate_id: num, domains: arr(str) })),
  // 'GET /api/https/trustasia/certificate/download': a file (NOT_ENVELOPE)
  'DELETE /api/https/trustasia/delete/order/': ok(),
  'POST /api/https/trustasia/csr_parse/': ok(obj({ common_name: str, domains: arr(str) })),
  'GET /api/https/certificate/template': ok(arr(template)),
  'POST /api/https/certificate/template': ok(template),
  'PUT /api/https/certificate/template': ok(template),
  'DELETE /api/https/certificate/template': ok(),
};
