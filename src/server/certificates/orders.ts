/**
 * Paid certificates (spec 002 §3–§5, §7; docs/certificates.md). The CA sits behind CaProvider (./ca.ts).
 *
 *   GET    /api/https/trustasia/products/                  the catalogue (CERT_PRODUCTS)
 *   POST   /api/https/v2/certificate/crm/calculate/        the price of a product, years and domain counts
 *   GET    /api/https/v2/certificate/order/                orders (cursor paging), or one with ?order_id=
 *   POST   /api/https/v2/certificate/order/                create (unpaid)
 *   POST   /api/https/v2/certificate/order/pay/            pay from the balance with the SMS code (222xx short)
 *   POST   /api/https/{trustasia,racent}/certificate/paid/apply/   the CA message → the CA (applying)
 *   GET    /api/https/v2/certificate/paid/apply_message/   the CA message
 *   GET    /api/https/trustasia/certificate/paid/verify_message/, /api/https/racent/certificate/verify_message/
 *                                                          the domain-control records and the state
 *   GET    /api/https/v2/certificate/paid/cancel_apply/    applying/verifying → paid
 *   POST   /api/https/v2/certificate/paid/reapply/         failed → applying with the same CA message
 *   POST   /api/https/trustasia/certificate/paid/replace, /api/https/v2/certificate/paid/replace
 *                                                          re-issue an issued order with new domains (a new order)
 *   GET    /api/https/trustasia/certificate/deploy/        bind the certificate to the account's covered domains
 *   GET    /api/https/trustasia/certificate/download       the PEM bundle of an issued order
 *   DELETE /api/https/trustasia/delete/order/              unpaid, failed or issued orders
 *   POST   /api/https/trustasia/csr_parse/                 the names of a CSR
 *   GET/POST/PUT/DELETE /api/https/certificate/template    organisation templates
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import * as acme from 'acme-client';
import orderSchema from '../../../schemas/forms/certificate_order/schema.json';
import applySchema from '../../../schemas/forms/certificate_apply/schema.json';
import reissueSchema from '../../../schemas/forms/certificate_reissue/schema.json';
import templateSchema from '../../../schemas/forms/certificate_template/schema.json';
import { ruleErrors as applyRuleErrors } from '../../../schemas/forms/certificate_apply/rules';
import { ruleErrors as reissueRuleErrors } from '../../../schemas/forms/certificate_reissue/rules';
import type { DB } from '../db';
import type { Database } from '../db/schema';
import { logOnly, writeLog } from '../accounts/oplog';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { keysetQuery, pagingProps } from '../http/keyset';
import type { SessionUser } from '../accounts/session';
import { assertNotLocked } from '../settings/routes';
import { childReaches } from '../buckets/repo';
import { payWithBalance } from '../billing/pay';
import { caProvider } from './ca';
import type { CaMessage, DcvRecord, TemplateData } from './tables';
import {
  CERT_KINDS,
  CERT_LEVELS,
  CERT_PRODUCTS,
  ORDER_STATUS,
  PAID_BRANDS,
  countsAllowed,
  covers,
  domainTypeOf,
  orderPrice,
  type CertKind,
  type OrderDomainContext,
  type OrderStatus,
  type PaidBrand,
} from '../../shared/certificates';
import type { FieldError } from '../../shared/errors';

const orderIdSchema = { type: 'integer', minimum: 1, errorMessage: { type: '请指定订单', minimum: '请指定订单' } };
const orderIdQuery = { type: 'object', required: ['order_id'], properties: { order_id: orderIdSchema }, errorMessage: { required: { order_id: '请指定订单' } } };
const orderIdBody = { ...orderIdQuery, additionalProperties: false, errorMessage: { required: { order_id: '请指定订单' }, additionalProperties: '包含不支持的配置项' } };

type OrderRow = {
  id: number;
  product_id: string;
  brand: string;
  level: string;
  kind: string;
  agent: string;
  years: number;
  default_domain: number;
  general_domain: number;
  price: string;
  status: string;
  apply_id: string | null;
  ca_message: CaMessage | null;
  domains: string[];
  dcv: DcvRecord[];
  error: string | null;
  certificate_id: number | null;
  old_order_id: number | null;
  reissued_type: string | null;
  billing_order_no: string | null;
  created_at: Date | string;
  paid_at: Date | string | null;
  updated_at: Date | string;
};

export function productView(p: (typeof CERT_PRODUCTS)[number]) {
  return { ...p, brand_name: PAID_BRANDS[p.brand].label, level_name: CERT_LEVELS[p.level], kind_name: CERT_KINDS[p.kind], domain_type: domainTypeOf(p.kind), agent: PAID_BRANDS[p.brand].agent };
}

function orderView(r: OrderRow) {
  const status = r.status as OrderStatus;
  return {
    order_id: r.id,
    product_id: r.product_id,
    brand: r.brand,
    brand_name: PAID_BRANDS[r.brand as PaidBrand]?.label ?? r.brand,
    level: r.level,
    level_name: CERT_LEVELS[r.level as keyof typeof CERT_LEVELS] ?? r.level,
    kind: r.kind,
    kind_name: CERT_KINDS[r.kind as CertKind] ?? r.kind,
    domain_type: domainTypeOf(r.kind as CertKind),
    certificate_agent: r.agent,
    years: r.years,
    defaultDomain: r.default_domain,
    generalDomain: r.general_domain,
    price: Number(r.price),
    status,
    status_text: ORDER_STATUS[status] ?? r.status,
    apply_id: r.apply_id,
    ca_message: r.ca_message,
    domains: r.domains,
    dcv: r.dcv,
    error: r.error,
    certificate_id: r.certificate_id,
    oldOrderId: r.old_order_id,
    reIssuedType: r.reissued_type,
    order_no: r.billing_order_no,
    created_at: new Date(r.created_at).toISOString(),
    paid_at: r.paid_at ? new Date(r.paid_at).toISOString() : null,
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

/** The order as the domain rules see it. */
export function orderContext(r: Pick<OrderRow, 'brand' | 'kind' | 'default_domain' | 'general_domain'>): OrderDomainContext {
  return { brand: r.brand, domain_type: domainTypeOf(r.kind as CertKind), defaultDomain: r.default_domain, generalDomain: r.general_domain };
}

/** The refusal of the domain rules: 24607 for a count mismatch, otherwise 24606; error_message[0] for the page. */
function domainRefusal(errors: FieldError[]): ApiError {
  const code = errors.some((e) => e.message === '您填写的域名数量与购买的域名数量不符') ? 24607 : errors.every((e) => e.path === '/domains') && errors.some((e) => e.message === '申购域名填写重复') ? 24606 : 20001;
  return new ApiError(code, 400, errors, { error_message: errors.map((e) => e.message) });
}

export function certificateOrderRoutes(app: FastifyInstance, db: DB): void {
  const need = { access: 'user' as const, needs: ['https' as const] };
  /** An order's log row, in the transaction of its change. */
  const log = (trx: Transaction<Database>, req: FastifyRequest, action: string, target: string, detail: unknown) => writeLog(trx, req, { action, target, detail });

  async function one(user: SessionUser, id: number, q: Kysely<Database> = db): Promise<OrderRow> {
    const row = await q.selectFrom('certificate_orders').selectAll().where('id', '=', id).where('account_id', '=', user.account_id).executeTakeFirst();
    if (!row) throw new ApiError(24602, 404);
    return row as unknown as OrderRow;
  }

  /** Moves an order between states, refusing (24603) when it is no longer in one of `from`. */
  async function move(trx: Transaction<Database>, id: number, from: OrderStatus[], set: Record<string, unknown>) {
    const r = await trx
      .updateTable('certificate_orders')
      .set({ ...set, updated_at: new Date() } as never)
      .where('id', '=', id)
      .where('status', 'in', from)
      .executeTakeFirst();
    if (!Number(r.numUpdatedRows)) throw new ApiError(24603, 409);
  }

  function product(id: string) {
    const p = CERT_PRODUCTS.find((x) => x.product_id === id);
    if (!p) throw new ApiError(24604, 404);
    return p;
  }

  app.get('/api/https/trustasia/products/', { config: need }, async () => ok(CERT_PRODUCTS.map(productView)));

  app.post<{ Body: { product_id: string; years: number; default_domain: number; general_domain: number } }>(
    '/api/https/v2/certificate/crm/calculate/',
    { config: need, schema: { body: orderSchema } },
    async (req) => {
      const b = req.body;
      const p = product(b.product_id);
      const bad = countsAllowed(p.kind, b.default_domain, b.general_domain);
      if (bad) throw new ApiError(20001, 400, [{ path: '/default_domain', message: bad }]);
      return ok({ product_id: p.product_id, years: b.years, price: orderPrice(p, b.years, b.default_domain, b.general_domain) });
    },
  );

  app.get<{ Querystring: { order_id?: number; limit: number; since?: number; max?: number } }>(
    '/api/https/v2/certificate/order/',
    {
      config: need,
      schema: {
        querystring: {
          type: 'object',
          properties: {
            order_id: orderIdSchema,
            ...pagingProps(10),
          },
        },
      },
    },
    async (req) => {
      const user = req.user!;
      if (req.query.order_id) return ok(orderView(await one(user, req.query.order_id)));
      const { limit, since, max } = req.query;
      const { items, pager } = await keysetQuery(db.selectFrom('certificate_orders').selectAll().where('account_id', '=', user.account_id), 'id', { limit, since, max, order: 'desc' });
      return ok(items.map(orderView), { pager });
    },
  );

  app.post<{ Body: { product_id: string; years: number; default_domain: number; general_domain: number } }>(
    '/api/https/v2/certificate/order/',
    { config: need, schema: { body: orderSchema } },
    async (req) => {
      const user = req.user!;
      assertNotLocked(user);
      const b = req.body;
      const p = product(b.product_id);
      const bad = countsAllowed(p.kind, b.default_domain, b.general_domain);
      if (bad) throw new ApiError(20001, 400, [{ path: '/default_domain', message: bad }]);
      const row = await db.transaction().execute(async (trx) => {
        const created = await trx
          .insertInto('certificate_orders')
          .values({
            account_id: user.account_id,
            product_id: p.product_id,
            brand: p.brand,
            level: p.level,
            kind: p.kind,
            agent: PAID_BRANDS[p.brand].agent,
            years: b.years,
            default_domain: b.default_domain,
            general_domain: b.general_domain,
            price: orderPrice(p, b.years, b.default_domain, b.general_domain).toFixed(2),
            status: 'unpaid',
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await log(trx, req, 'certificate.order.create', p.product_id, { order_id: created.id });
        return created;
      });
      return ok(orderView(await one(user, row.id)));
    },
  );

  app.post<{ Body: { order_id: number; code?: string } }>(
    '/api/https/v2/certificate/order/pay/',
    {
      config: need,
      schema: {
        body: {
          type: 'object',
          required: ['order_id'],
          additionalProperties: false,
          properties: { order_id: orderIdSchema, code: { type: 'string', maxLength: 6, errorMessage: { type: '请输入支付验证码', maxLength: '验证码错误' } } },
          errorMessage: { required: { order_id: '请指定订单' }, additionalProperties: '包含不支持的配置项' },
        },
      },
    },
    async (req) => {
      const user = req.user!;
      assertNotLocked(user);
      const o = await one(user, req.body.order_id);
      if (o.status !== 'unpaid') throw new ApiError(24603, 409);
      const paid = await payWithBalance(db, user, {
        kind: 'certificate',
        title: `${PAID_BRANDS[o.brand as PaidBrand]?.label ?? o.brand} ${CERT_LEVELS[o.level as keyof typeof CERT_LEVELS] ?? o.level} ${CERT_KINDS[o.kind as CertKind] ?? o.kind} ${o.years} 年`,
        amount: Number(o.price),
        detail: { certificate_order_id: o.id },
        code: req.body.code,
        referer: `/toolbox/certificatePay/?order_id=${o.id}`,
        deliver: async (trx, bo) => {
          const r = await trx.updateTable('certificate_orders').set({ status: 'paid', paid_at: new Date(), billing_order_no: bo.order_no, updated_at: new Date() }).where('id', '=', o.id).where('status', '=', 'unpaid').executeTakeFirst();
          if (!Number(r.numUpdatedRows)) throw new ApiError(24603, 409);
          await log(trx, req, 'certificate.order.pay', String(o.id), { order_id: o.id, order_no: bo.order_no, amount: Number(o.price) });
        },
      });
      return ok({ ...orderView(await one(user, o.id)), balance: paid.balance });
    },
  );

  /** Sends an order to the CA, then moves it to applying in `trx` (with the change's log row). */
  async function sendToCa(trx: Transaction<Database>, o: OrderRow, domains: string[], status: OrderStatus[], extra: Record<string, unknown> = {}) {
    const applied = await caProvider().apply(db, { id: o.id, brand: o.brand, level: o.level, years: o.years, domains, apply_id: o.apply_id, status: o.status });
    await move(trx, o.id, status, { status: 'applying', apply_id: applied.apply_id, dcv: JSON.stringify(applied.dcv), domains: JSON.stringify(domains), error: null, ...extra });
  }

  const applyRoute = (url: string, agent: 'trustasia' | 'racent') =>
    app.post<{ Body: { order_id: number; domains: string[]; template_id?: number | null } }>(url, { config: need, schema: { body: applySchema } }, async (req) => {
      const user = req.user!;
      assertNotLocked(user);
      const o = await one(user, req.body.order_id);
      if (o.agent !== agent) throw new ApiError(24604, 400);
      if (o.status !== 'paid') throw new ApiError(24603, 409);
      const errors = applyRuleErrors(req.body, orderContext(o));
      if (errors.length) throw domainRefusal(errors);
      if (req.body.template_id) {
        const t = await db.selectFrom('certificate_templates').select('id').where('id', '=', req.body.template_id).where('account_id', '=', user.account_id).executeTakeFirst();
        if (!t) throw new ApiError(24605, 404);
      }
      const domains = [...new Set(req.body.domains.map((d) => d.trim().toLowerCase()).filter(Boolean))];
      const message: CaMessage = { main_domain: domains[0]!, multiple_domain: domains.slice(1).join(','), add_domains: '', template_id: req.body.template_id ?? null };
      await db.transaction().execute(async (trx) => {
        await sendToCa(trx, o, domains, ['paid'], { ca_message: JSON.stringify(message) });
        await log(trx, req, 'certificate.order.apply', message.main_domain, { order_id: o.id, domains });
      });
      return ok(orderView(await one(user, o.id)));
    });
  applyRoute('/api/https/trustasia/certificate/paid/apply/', 'trustasia');
  applyRoute('/api/https/racent/certificate/paid/apply/', 'racent');

  app.get<{ Querystring: { order_id: number } }>('/api/https/v2/certificate/paid/apply_message/', { config: need, schema: { querystring: orderIdQuery } }, async (req) => {
    const o = await one(req.user!, req.query.order_id);
    const template = o.ca_message?.template_id
      ? await db.selectFrom('certificate_templates').select(['id', 'name', 'data']).where('id', '=', o.ca_message.template_id).where('account_id', '=', req.user!.account_id).executeTakeFirst()
      : undefined;
    return ok({ order_id: o.id, ca_message: o.ca_message, template: template ? { template_id: template.id, name: template.name, ...template.data } : null });
  });

  const verifyRoute = (url: string) =>
    app.get<{ Querystring: { order_id: number } }>(url, { config: need, schema: { querystring: orderIdQuery } }, async (req) => {
      const o = await one(req.user!, req.query.order_id);
      return ok({ order_id: o.id, apply_id: o.apply_id, status: o.status, status_text: ORDER_STATUS[o.status as OrderStatus], dcv: o.dcv, error: o.error });
    });
  verifyRoute('/api/https/trustasia/certificate/paid/verify_message/');
  verifyRoute('/api/https/racent/certificate/verify_message/');

  app.get<{ Querystring: { order_id: number } }>('/api/https/v2/certificate/paid/cancel_apply/', { config: need, schema: { querystring: orderIdQuery } }, async (req) => {
    const user = req.user!;
    assertNotLocked(user);
    const o = await one(user, req.query.order_id);
    if (o.status !== 'applying' && o.status !== 'verifying') throw new ApiError(24603, 409);
    await caProvider().cancel(db, { ...o });
    // a re-issue order has no "paid" step of its own: cancelling ends it
    await db.transaction().execute(async (trx) => {
      await move(trx, o.id, ['applying', 'verifying'], o.old_order_id ? { status: 'cancelled' } : { status: 'paid', dcv: '[]', apply_id: null });
      await log(trx, req, 'certificate.order.cancel_apply', String(o.id), { order_id: o.id });
    });
    return ok(orderView(await one(user, o.id)));
  });

  app.post<{ Body: { order_id: number } }>('/api/https/v2/certificate/paid/reapply/', { config: need, schema: { body: orderIdBody } }, async (req) => {
    const user = req.user!;
    assertNotLocked(user);
    const o = await one(user, req.body.order_id);
    if (o.status !== 'failed' || !o.domains.length) throw new ApiError(24603, 409);
    await db.transaction().execute(async (trx) => {
      await sendToCa(trx, o, o.domains, ['failed']);
      await log(trx, req, 'certificate.order.reapply', String(o.id), { order_id: o.id });
    });
    return ok(orderView(await one(user, o.id)));
  });

  const replaceRoute = (url: string) =>
    app.post<{ Body: { order_id: number; domains: string[] } }>(url, { config: need, schema: { body: reissueSchema } }, async (req) => {
      const user = req.user!;
      assertNotLocked(user);
      const o = await one(user, req.body.order_id);
      if (o.status !== 'issued') throw new ApiError(24603, 409);
      const errors = reissueRuleErrors(req.body, orderContext(o));
      if (errors.length) throw domainRefusal(errors);
      const domains = [...new Set(req.body.domains.map((d) => d.trim().toLowerCase()).filter(Boolean))];
      const row = await db.transaction().execute(async (trx) => {
        const created = await trx
          .insertInto('certificate_orders')
          .values({
            account_id: user.account_id,
            product_id: o.product_id,
            brand: o.brand,
            level: o.level,
            kind: o.kind,
            agent: o.agent,
            years: o.years,
            default_domain: o.default_domain,
            general_domain: o.general_domain,
            price: '0.00',
            status: 'paid',
            old_order_id: o.id,
            reissued_type: 'replace',
            ca_message: JSON.stringify({ ...(o.ca_message ?? { template_id: null, add_domains: '' }), main_domain: domains[0]!, multiple_domain: domains.slice(1).join(',') }),
            paid_at: new Date(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        // the new order exists only if the CA took it
        await sendToCa(trx, await one(user, created.id, trx), domains, ['paid']);
        await log(trx, req, 'certificate.order.replace', domains[0]!, { order_id: created.id, old_order_id: o.id, domains });
        return created;
      });
      return ok(orderView(await one(user, row.id)));
    });
  replaceRoute('/api/https/trustasia/certificate/paid/replace');
  replaceRoute('/api/https/v2/certificate/paid/replace');

  app.get<{ Querystring: { order_id: number } }>('/api/https/trustasia/certificate/deploy/', { config: need, schema: { querystring: orderIdQuery } }, async (req) => {
    const user = req.user!;
    assertNotLocked(user);
    const o = await one(user, req.query.order_id);
    if (o.status !== 'issued' || !o.certificate_id) throw new ApiError(24603, 409);
    const cert = await db.selectFrom('certificates').select(['id', 'domains']).where('id', '=', o.certificate_id).executeTakeFirstOrThrow();
    const rows = await db
      .selectFrom('bucket_domains as d')
      .innerJoin('buckets as b', 'b.id', 'd.bucket_id')
      .select(['d.id', 'd.domain', 'b.id as bucket_id', 'b.kind'])
      .where('b.owner_id', '=', user.account_id)
      .execute();
    const targets: typeof rows = [];
    for (const r of rows) if (covers(cert.domains, r.domain) && (await childReaches(db, user, { id: r.bucket_id, kind: r.kind }))) targets.push(r);
    const deployed = targets.map((r) => r.domain);
    await db.transaction().execute(async (trx) => {
      for (const r of targets) {
        await trx
          .insertInto('domain_https')
          .values({ domain_id: r.id, certificate_id: cert.id, https: true })
          .onConflict((oc) => oc.column('domain_id').doUpdateSet({ certificate_id: cert.id, https: true, updated_at: new Date() }))
          .execute();
      }
      await log(trx, req, 'certificate.order.deploy', String(o.id), { order_id: o.id, certificate_id: cert.id, domains: deployed });
    });
    return ok({ order_id: o.id, certificate_id: cert.id, domains: deployed });
  });

  app.get<{ Querystring: { order_id: number } }>('/api/https/trustasia/certificate/download', { config: need, schema: { querystring: orderIdQuery } }, async (req, reply) => {
    const user = req.user!;
    if (user.parent_id !== null && user.permissions.includes('forbidden_down_ssl')) throw new ApiError(21111, 403);
    const o = await one(user, req.query.order_id);
    if (!o.certificate_id) throw new ApiError(24603, 409);
    const c = await db.selectFrom('certificates').select(['certificate', 'private_key', 'common_name']).where('id', '=', o.certificate_id).executeTakeFirstOrThrow();
    await logOnly(db, req, { action: 'certificate.download', target: c.common_name, detail: { order_id: o.id } });
    const name = c.common_name.replace(/^\*\./, '_.').replace(/[^a-z0-9._-]/gi, '_');
    return reply.type('application/x-pem-file; charset=utf-8').header('content-disposition', `attachment; filename="${name}.pem"`).send(`${c.certificate}\n${c.private_key}\n`);
  });

  app.delete<{ Querystring: { order_id: number } }>('/api/https/trustasia/delete/order/', { config: need, schema: { querystring: orderIdQuery } }, async (req) => {
    const user = req.user!;
    assertNotLocked(user);
    const o = await one(user, req.query.order_id);
    if (!['unpaid', 'failed', 'issued', 'cancelled'].includes(o.status)) throw new ApiError(24603, 409);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('certificate_orders').set({ old_order_id: null }).where('old_order_id', '=', o.id).execute();
      await trx.deleteFrom('certificate_orders').where('id', '=', o.id).execute();
      await log(trx, req, 'certificate.order.delete', String(o.id), { order_id: o.id, status: o.status });
    });
    return ok();
  });

  app.post<{ Body: { csr: string } }>(
    '/api/https/trustasia/csr_parse/',
    {
      config: need,
      schema: {
        body: {
          type: 'object',
          required: ['csr'],
          additionalProperties: false,
          properties: { csr: { type: 'string', minLength: 1, maxLength: 20000, errorMessage: { type: '请粘贴 CSR', minLength: '请粘贴 CSR', maxLength: 'CSR 过长' } } },
          errorMessage: { required: { csr: '请粘贴 CSR' }, additionalProperties: '包含不支持的配置项' },
        },
      },
    },
    async (req) => {
      try {
        const names = acme.crypto.readCsrDomains(req.body.csr);
        return ok({ common_name: names.commonName, domains: [...new Set([names.commonName, ...names.altNames].filter(Boolean))] });
      } catch {
        throw new ApiError(20001, 400, [{ path: '/csr', message: 'CSR 解析失败，请检查内容' }]);
      }
    },
  );

  // ---- templates ----
  const templateView = (t: { id: number; name: string; data: TemplateData; created_at: Date | string }) => ({ template_id: t.id, name: t.name, ...t.data, created_at: new Date(t.created_at).toISOString() });
  const templateBody = (b: Record<string, unknown>) => {
    const { name, ...data } = b as unknown as { name: string } & TemplateData;
    return { name, data: JSON.stringify(data) };
  };

  app.get('/api/https/certificate/template', { config: need }, async (req) => {
    const rows = await db.selectFrom('certificate_templates').select(['id', 'name', 'data', 'created_at']).where('account_id', '=', req.user!.account_id).orderBy('id', 'desc').limit(100).execute();
    return ok(rows.map(templateView));
  });

  app.post<{ Body: Record<string, unknown> }>('/api/https/certificate/template', { config: need, schema: { body: templateSchema } }, async (req) => {
    const user = req.user!;
    const count = await db.selectFrom('certificate_templates').select((eb) => eb.fn.countAll<string>().as('n')).where('account_id', '=', user.account_id).executeTakeFirstOrThrow();
    if (Number(count.n) >= 100) throw new ApiError(20001, 400, [{ path: '', message: '个数超出限制' }]);
    const row = await db.insertInto('certificate_templates').values({ account_id: user.account_id, ...templateBody(req.body) }).returning(['id', 'name', 'data', 'created_at']).executeTakeFirstOrThrow();
    return ok(templateView(row));
  });

  const templateIdQuery = { type: 'object', required: ['template_id'], properties: { template_id: { type: 'integer', minimum: 1, errorMessage: { type: '请选择证书模板', minimum: '请选择证书模板' } } }, errorMessage: { required: { template_id: '请选择证书模板' } } };

  app.put<{ Body: Record<string, unknown>; Querystring: { template_id: number } }>(
    '/api/https/certificate/template',
    { config: need, schema: { body: templateSchema, querystring: templateIdQuery } },
    async (req) => {
      const row = await db
        .updateTable('certificate_templates')
        .set({ ...templateBody(req.body), updated_at: new Date() })
        .where('id', '=', req.query.template_id)
        .where('account_id', '=', req.user!.account_id)
        .returning(['id', 'name', 'data', 'created_at'])
        .executeTakeFirst();
      if (!row) throw new ApiError(24605, 404);
      return ok(templateView(row));
    },
  );

  app.delete<{ Querystring: { template_id: number } }>('/api/https/certificate/template', { config: need, schema: { querystring: templateIdQuery } }, async (req) => {
    const r = await db.deleteFrom('certificate_templates').where('id', '=', req.query.template_id).where('account_id', '=', req.user!.account_id).executeTakeFirst();
    if (!Number(r.numDeletedRows)) throw new ApiError(24605, 404);
    return ok();
  });
}
