/**
 * DDoS 高防 IP (spec 002 "DDoS", §7): ordering and paying with the balance, instances and their IPs,
 * website (L7) and non-website (port forwarding) rules, the WAF switch, L4 protection policies, the
 * attack statistics and list, and the four flow series. Main accounts only (docs/ddos.md "Access").
 *
 *   POST   /api/ddos/calculate       { package, nodes, months }          the price
 *   GET    /api/ddos/order                                               the account's orders
 *   POST   /api/ddos/order           { package, nodes, months }          an unpaid order
 *   POST   /api/ddos/order/pay       { order_id }                        pays with the balance → an instance
 *   GET    /api/ddos/node/list                                           [{ id, name }]
 *   GET    /api/ddos/instance                                            the instances
 *   GET    /api/ddos/ip              ?instance_id                        the protected IPs
 *   GET    /api/ddos/l7              ?instance_id&type&limit&since&max    website / non-website rules
 *   PUT    /api/ddos/l7              ddos_l7 declaration                 a website rule
 *   POST   /api/ddos/l7              ddos_l7 declaration with id         changes a website rule
 *   DELETE /api/ddos/l7              { id }                              deletes a website or non-website rule
 *   PUT    /api/ddos/l7/non_website  ddos_non_website (id: change)       a non-website rule
 *   POST   /api/ddos/l7/waf          { id, waf, mode }                   the WAF of a website rule
 *   GET/PUT/POST/DELETE /api/ddos/l4 ddos_l4 declaration                 L4 protection policies
 *   GET    /api/ddos/attack/statistics ?start_time&end_time&instance_id
 *   GET    /api/ddos/attack/list     ?start_time&end_time&instance_id&limit&since&max
 *   GET    /api/ddos/stat/flow       ?type(1|3|4|5)&start_time&end_time&instance_id
 *
 * The list calls answer 24018 while the account has no instance; the console reads it as an empty list
 * (spec 002 §4). Times are Unix seconds.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import l7Schema from '../../../schemas/forms/ddos_l7/schema.json';
import nonWebsiteSchema from '../../../schemas/forms/ddos_non_website/schema.json';
import l4Schema from '../../../schemas/forms/ddos_l4/schema.json';
import orderSchema from '../../../schemas/forms/ddos_order/schema.json';
import type { DB } from '../db';
import type {} from './tables';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { keysetQuery, pagingProps } from '../http/keyset';
import { writeLog } from '../accounts/oplog';
import { assertNotLocked } from '../settings/routes';
import { notify } from '../messages/notify';
import { debit, ddosLedgerRef } from '../billing/ledger/ledger';
import { ruleErrors as l7RuleErrors } from '../../../schemas/forms/ddos_l7/rules';
import { ruleErrors as nonWebsiteRuleErrors } from '../../../schemas/forms/ddos_non_website/rules';
import {
  ATTACK_TYPES,
  CHARGE_LINK,
  DDOS_NODES,
  DDOS_PAGE_SIZE,
  ddosPrice,
  FLOW_MAX_DAYS,
  FLOW_TYPES,
  GBPS,
  packageOf,
  type DdosAttack,
  type DdosInstance,
  type DdosIp,
  type DdosL4Rule,
  type DdosL7Rule,
} from '../../shared/ddos';

const access = { access: 'parent' as const };
const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
const cents = (v: string | number) => Math.round(Number(v) * 100);

const idField = (title: string) => ({ type: 'integer', minimum: 1, errorMessage: { type: `${title}须为正整数`, minimum: `${title}须为正整数` } });
const paging = pagingProps(DDOS_PAGE_SIZE);
const timeField = { type: 'integer', minimum: 0, errorMessage: { type: '时间须为 Unix 秒', minimum: '时间须为 Unix 秒' } };
const byId = { type: 'object', required: ['id'], additionalProperties: false, properties: { id: idField('规则编号') }, errorMessage: { required: { id: '请指定规则' }, additionalProperties: '包含不支持的配置项' } };

type L7Body = { id?: number; instance_id: number; ip: string; domain: string; protocols: string[]; origins: string[]; cc_level: string; status: string };
type NonWebsiteBody = { id?: number; instance_id: number; ip: string; protocol: string; port: number; origin_port: number; origins: string[]; status: string };
type L4Body = { id?: number; instance_id: number; ip: string; type: string; values: string[]; limit?: number; status: string };

export function instanceView(row: { id: number; name: string; package: string; start_time: Date | string; end_time: Date | string }, ipCount: number, now = new Date()): DdosInstance {
  const pkg = packageOf(row.package)!;
  return {
    id: row.id,
    name: row.name,
    package: row.package,
    package_name: pkg.name,
    protect_gbps: pkg.protect_gbps,
    elastic_gbps: pkg.elastic_gbps,
    business_mbps: pkg.business_mbps,
    max_websites: pkg.max_websites,
    max_ports: pkg.max_ports,
    status: new Date(row.end_time) < now ? 'expired' : 'normal',
    start_time: iso(row.start_time)!,
    end_time: iso(row.end_time)!,
    ip_count: ipCount,
  };
}

const nodeName = (id: number) => DDOS_NODES.find((n) => n.id === id)?.name ?? String(id);

function l7View(r: any): DdosL7Rule {
  return {
    id: r.id,
    instance_id: r.instance_id,
    type: r.type,
    ip: r.ip,
    domain: r.domain,
    protocols: r.protocols,
    port: r.port,
    origin_port: r.origin_port,
    origins: r.origins,
    cc_level: r.cc_level,
    waf: r.waf,
    waf_mode: r.waf_mode,
    status: r.status,
    created_at: iso(r.created_at)!,
  };
}

function l4View(r: any): DdosL4Rule {
  return { id: r.id, instance_id: r.instance_id, ip: r.ip, type: r.type, values: r.values, limit: r.limit, status: r.status, created_at: iso(r.created_at)! };
}

function attackView(r: any): DdosAttack {
  return {
    id: r.id,
    instance_id: r.instance_id,
    ip: r.ip,
    type: r.type,
    start_time: iso(r.start_time)!,
    end_time: iso(r.end_time),
    peak_bps: Number(r.peak_bps),
    peak_pps: Number(r.peak_pps),
    status: r.end_time ? 'ended' : 'attacking',
  };
}

/** The period of a query: the last 24 hours by default; refused when reversed or longer than 31 days. */
function periodOf(q: { start_time?: number; end_time?: number }, defaultSeconds = 86_400): { start: Date; end: Date } {
  const end = q.end_time !== undefined ? new Date(q.end_time * 1000) : new Date();
  const start = q.start_time !== undefined ? new Date(q.start_time * 1000) : new Date(end.getTime() - defaultSeconds * 1000);
  if (end <= start || end.getTime() - start.getTime() > FLOW_MAX_DAYS * 86_400_000) throw new ApiError(24012, 400);
  return { start, end };
}

export function ddosRoutes(app: FastifyInstance, db: DB): void {
  /** The account's instance ids; 24018 when it has none (a list then reads as empty). */
  async function instanceIds(accountId: number, only?: number): Promise<number[]> {
    const rows = await db.selectFrom('ddos_instances').select('id').where('account_id', '=', accountId).orderBy('id').execute();
    if (rows.length === 0) throw new ApiError(24018, 404);
    if (only === undefined) return rows.map((r) => r.id);
    if (!rows.some((r) => r.id === only)) throw new ApiError(24001, 404);
    return [only];
  }

  /** An instance of the account, for a change: it must exist, not be expired, and own `ip` when given. */
  async function writableInstance(accountId: number, id: number, ip?: string) {
    const inst = await db.selectFrom('ddos_instances').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    if (!inst) throw new ApiError(24001, 404);
    if (new Date(inst.end_time) < new Date()) throw new ApiError(24008, 400);
    if (ip !== undefined) {
      const owned = await db.selectFrom('ddos_ips').select('id').where('instance_id', '=', id).where('ip', '=', ip).executeTakeFirst();
      if (!owned) throw new ApiError(24002, 400, [{ path: '/ip', message: `${ip} 不是此高防实例的 IP` }]);
    }
    return inst;
  }

  /** A rule of the account, by table; 24007 otherwise. */
  async function ruleOf<T extends 'ddos_l7_rules' | 'ddos_l4_rules'>(table: T, accountId: number, id: number) {
    const row = await db
      .selectFrom(table as 'ddos_l7_rules')
      .innerJoin('ddos_instances as i', 'i.id', `${table as 'ddos_l7_rules'}.instance_id`)
      .selectAll(table as 'ddos_l7_rules')
      .where(`${table as 'ddos_l7_rules'}.id`, '=', id)
      .where('i.account_id', '=', accountId)
      .executeTakeFirst();
    if (!row) throw new ApiError(24007, 404);
    return row as any;
  }

  // ---- ordering ----

  app.get('/api/ddos/node/list', { config: access }, async () => ok(DDOS_NODES.map(({ id, name }) => ({ id, name }))));

  const quote = (body: { package: string; nodes: number[]; months: number }) => {
    const pkg = packageOf(body.package)!;
    const { original, price } = ddosPrice(pkg, body.nodes.length, body.months);
    return { package: pkg.id, package_name: pkg.name, nodes: body.nodes, nodesId2Name: Object.fromEntries(body.nodes.map((n) => [n, nodeName(n)])), months: body.months, original_price: original.toFixed(2), price: price.toFixed(2) };
  };

  app.post<{ Body: { package: string; nodes: number[]; months: number } }>('/api/ddos/calculate', { config: access, schema: { body: orderSchema } }, async (req) => ok(quote(req.body)));

  app.get('/api/ddos/order', { config: access }, async (req) => {
    const rows = await db.selectFrom('ddos_orders').selectAll().where('account_id', '=', req.user!.account_id).orderBy('id', 'desc').limit(100).execute();
    return ok(rows.map((r) => ({ id: r.id, package: r.package, package_name: packageOf(r.package)?.name ?? r.package, nodes: r.nodes, months: r.months, price: Number(r.price).toFixed(2), status: r.status, instance_id: r.instance_id, created_at: iso(r.created_at), paid_at: iso(r.paid_at) })));
  });

  app.post<{ Body: { package: string; nodes: number[]; months: number } }>('/api/ddos/order', { config: access, schema: { body: orderSchema } }, async (req) => {
    const q = quote(req.body);
    const row = await db.transaction().execute(async (trx) => {
      const created = await trx
        .insertInto('ddos_orders')
        .values({ account_id: req.user!.account_id, user_id: req.user!.id, package: q.package, nodes: JSON.stringify(q.nodes), months: q.months, price: q.price })
        .returning('id')
        .executeTakeFirstOrThrow();
      await writeLog(trx, req, { action: 'ddos.order', target: `订单 ${created.id}`, detail: { package: q.package, nodes: q.nodes, months: q.months, price: q.price } });
      return created;
    });
    return ok({ order_id: row.id, ...q, status: 'unpaid' });
  });

  app.post<{ Body: { order_id: number } }>(
    '/api/ddos/order/pay',
    {
      config: access,
      schema: { body: { type: 'object', required: ['order_id'], additionalProperties: false, properties: { order_id: idField('订单编号') }, errorMessage: { required: { order_id: '请指定订单' }, additionalProperties: '包含不支持的配置项' } } },
    },
    async (req) => {
      const user = req.user!;
      const result = await db.transaction().execute(async (trx) => {
        const order = await trx.selectFrom('ddos_orders').selectAll().where('id', '=', req.body.order_id).where('account_id', '=', user.account_id).forUpdate().executeTakeFirst();
        if (!order) throw new ApiError(24009, 404);
        if (order.status === 'paid') throw new ApiError(24010, 400, undefined, { instance_id: order.instance_id });
        const account = await trx.selectFrom('users').select('money').where('id', '=', user.account_id).forUpdate().executeTakeFirstOrThrow();
        const balance = cents(account.money);
        const price = cents(order.price);
        if (balance < price) {
          throw new ApiError(22201, 400, undefined, { price: (price / 100).toFixed(2), balance: (balance / 100).toFixed(2), need: ((price - balance) / 100).toFixed(2), link: CHARGE_LINK });
        }
        // one row of the balance ledger (docs/billing-money.md "The ledger")
        await debit(trx, user.account_id, price / 100, { kind: 'payment', ref: ddosLedgerRef(order.id), memo: `DDoS 高防 IP 订单 ${order.id}` });
        const start = new Date();
        const end = new Date(start);
        end.setMonth(end.getMonth() + order.months);
        const inst = await trx.insertInto('ddos_instances').values({ account_id: user.account_id, name: 'ddos', package: order.package, start_time: start, end_time: end }).returning('id').executeTakeFirstOrThrow();
        const name = `ddos-${String(inst.id).padStart(6, '0')}`;
        await trx.updateTable('ddos_instances').set({ name }).where('id', '=', inst.id).execute();
        for (const nodeId of order.nodes) {
          const node = DDOS_NODES.find((n) => n.id === nodeId)!;
          const used = await trx.selectFrom('ddos_ips').select('ip').where('node_id', '=', nodeId).execute();
          const last = used.reduce((m, r) => Math.max(m, Number(r.ip.split('.')[3])), 9);
          await trx.insertInto('ddos_ips').values({ instance_id: inst.id, ip: `${node.prefix}.${last + 1}`, node_id: nodeId }).execute();
        }
        await trx.updateTable('ddos_orders').set({ status: 'paid', paid_at: new Date(), instance_id: inst.id }).where('id', '=', order.id).execute();
        await writeLog(trx, req, { action: 'ddos.pay', target: `订单 ${order.id}`, detail: { price: Number(order.price).toFixed(2), instance: name } });
        const left = await trx.selectFrom('users').select('money').where('id', '=', user.account_id).executeTakeFirstOrThrow();
        return { order_id: order.id, instance_id: inst.id, instance_name: name, price: Number(order.price).toFixed(2), balance: Number(left.money).toFixed(2) };
      });
      await notify(db, user.account_id, { category: 'service', title: 'DDoS 高防 IP 已开通', body: `高防实例 ${result.instance_name} 已开通，支付 ${result.price} 元。请在实例管理中查看高防 IP 并添加防护规则。`, link: '/services/ddos/instance/' });
      return ok(result);
    },
  );

  // ---- instances and IPs ----

  app.get('/api/ddos/instance', { config: access }, async (req) => {
    await instanceIds(req.user!.account_id);
    const rows = await db
      .selectFrom('ddos_instances as i')
      .leftJoin('ddos_ips as p', 'p.instance_id', 'i.id')
      .select(['i.id', 'i.name', 'i.package', 'i.start_time', 'i.end_time', sql<number>`count(p.id)::int`.as('ips')])
      .where('i.account_id', '=', req.user!.account_id)
      .groupBy(['i.id', 'i.name', 'i.package', 'i.start_time', 'i.end_time'])
      .orderBy('i.id')
      .execute();
    return ok(rows.map((r) => instanceView(r, Number(r.ips))));
  });

  app.get<{ Querystring: { instance_id?: number } }>(
    '/api/ddos/ip',
    { config: access, schema: { querystring: { type: 'object', properties: { instance_id: idField('实例编号') } } } },
    async (req) => {
      const ids = await instanceIds(req.user!.account_id, req.query.instance_id);
      const rows = await db.selectFrom('ddos_ips').selectAll().where('instance_id', 'in', ids).orderBy('id').execute();
      return ok(rows.map((r): DdosIp => ({ id: r.id, instance_id: r.instance_id, ip: r.ip, node_id: r.node_id, node_name: nodeName(r.node_id), status: r.status })));
    },
  );

  // ---- L7: website and non-website rules ----

  app.get<{ Querystring: { instance_id?: number; type: string; limit: number; since?: number; max?: number } }>(
    '/api/ddos/l7',
    {
      config: access,
      schema: {
        querystring: {
          type: 'object',
          properties: {
            instance_id: idField('实例编号'),
            type: { type: 'string', enum: ['website', 'non_website'], default: 'website', errorMessage: { enum: '类型只能是 website 或 non_website' } },
            ...paging,
          },
        },
      },
    },
    async (req) => {
      const ids = await instanceIds(req.user!.account_id, req.query.instance_id);
      const base = db.selectFrom('ddos_l7_rules').selectAll().where('instance_id', 'in', ids).where('type', '=', req.query.type);
      const total = Number((await db.selectFrom('ddos_l7_rules').select(sql<number>`count(*)::int`.as('n')).where('instance_id', 'in', ids).where('type', '=', req.query.type).executeTakeFirstOrThrow()).n);
      const { items, pager } = await keysetQuery(base, 'id', { limit: req.query.limit, since: req.query.since, max: req.query.max });
      return ok(items.map(l7View), { pager: { ...pager, total } });
    },
  );

  async function assertRoom(instanceId: number, type: 'website' | 'non_website', packageId: string, excludeId?: number) {
    const pkg = packageOf(packageId)!;
    let q = db.selectFrom('ddos_l7_rules').select(sql<number>`count(*)::int`.as('n')).where('instance_id', '=', instanceId).where('type', '=', type);
    if (excludeId) q = q.where('id', '<>', excludeId);
    const n = Number((await q.executeTakeFirstOrThrow()).n);
    if (type === 'website' && n >= pkg.max_websites) throw new ApiError(24004, 400, undefined, { limit: pkg.max_websites });
    if (type === 'non_website' && n >= pkg.max_ports) throw new ApiError(24005, 400, undefined, { limit: pkg.max_ports });
  }

  async function saveWebsite(req: FastifyRequest, body: L7Body) {
    const user = req.user!;
    assertNotLocked(user);
    // origins at this machine, link-local or metadata addresses (src/shared/origins.ts)
    const local = l7RuleErrors(body);
    if (local.length) throw new ApiError(20011, 400, local);
    let existing: any;
    if (body.id) {
      existing = await ruleOf('ddos_l7_rules', user.account_id, body.id);
      if (existing.type !== 'website') throw new ApiError(24007, 404);
    }
    const inst = await writableInstance(user.account_id, body.instance_id, body.ip);
    if (!existing || existing.instance_id !== inst.id) await assertRoom(inst.id, 'website', inst.package);
    let dup = db.selectFrom('ddos_l7_rules').select('id').where('instance_id', '=', inst.id).where('type', '=', 'website').where('domain', '=', body.domain);
    if (body.id) dup = dup.where('id', '<>', body.id);
    if (await dup.executeTakeFirst()) throw new ApiError(24003, 400, [{ path: '/domain', message: `${body.domain} 已添加到此高防实例` }]);
    const values = { instance_id: inst.id, ip: body.ip, domain: body.domain, protocols: JSON.stringify(body.protocols), origins: JSON.stringify(body.origins), cc_level: body.cc_level, status: body.status };
    const row = await db.transaction().execute(async (trx) => {
      const saved = body.id
        ? await trx.updateTable('ddos_l7_rules').set(values).where('id', '=', body.id).returningAll().executeTakeFirstOrThrow()
        : await trx.insertInto('ddos_l7_rules').values({ ...values, type: 'website' }).returningAll().executeTakeFirstOrThrow();
      await writeLog(trx, req, { action: body.id ? 'ddos.l7.update' : 'ddos.l7.create', target: body.domain, detail: { ip: body.ip, protocols: body.protocols, origins: body.origins, cc_level: body.cc_level, status: body.status } });
      return saved;
    });
    return ok(l7View(row));
  }

  app.put<{ Body: L7Body }>('/api/ddos/l7', { config: access, schema: { body: l7Schema } }, async (req) => {
    if (req.body.id) throw new ApiError(20001, 400, [{ path: '/id', message: '新建规则时不能指定规则编号' }]);
    return saveWebsite(req, req.body);
  });

  app.post<{ Body: L7Body }>('/api/ddos/l7', { config: access, schema: { body: l7Schema } }, async (req) => {
    if (!req.body.id) throw new ApiError(20001, 400, [{ path: '/id', message: '请指定要修改的规则' }]);
    return saveWebsite(req, req.body);
  });

  app.delete<{ Body: { id: number } }>('/api/ddos/l7', { config: access, schema: { body: byId } }, async (req) => {
    assertNotLocked(req.user!);
    const rule = await ruleOf('ddos_l7_rules', req.user!.account_id, req.body.id);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('ddos_l7_rules').where('id', '=', rule.id).execute();
      await writeLog(trx, req, { action: 'ddos.l7.delete', target: rule.domain ?? `${rule.ip}:${rule.port}`, detail: { id: rule.id, type: rule.type } });
    });
    return ok({ id: rule.id });
  });

  app.put<{ Body: NonWebsiteBody }>('/api/ddos/l7/non_website', { config: access, schema: { body: nonWebsiteSchema } }, async (req) => {
    const user = req.user!;
    const body = req.body;
    assertNotLocked(user);
    const local = nonWebsiteRuleErrors(body);
    if (local.length) throw new ApiError(20011, 400, local);
    let existing: any;
    if (body.id) {
      existing = await ruleOf('ddos_l7_rules', user.account_id, body.id);
      if (existing.type !== 'non_website') throw new ApiError(24007, 404);
    }
    const inst = await writableInstance(user.account_id, body.instance_id, body.ip);
    if (!existing || existing.instance_id !== inst.id) await assertRoom(inst.id, 'non_website', inst.package);
    let dup = db
      .selectFrom('ddos_l7_rules')
      .select('id')
      .where('type', '=', 'non_website')
      .where('ip', '=', body.ip)
      .where('port', '=', body.port)
      .where(sql<boolean>`protocols @> ${JSON.stringify([body.protocol])}::jsonb`);
    if (body.id) dup = dup.where('id', '<>', body.id);
    if (await dup.executeTakeFirst()) throw new ApiError(24006, 400, [{ path: '/port', message: `${body.ip} 的 ${body.protocol.toUpperCase()} ${body.port} 端口已被其他转发规则使用` }]);
    const values = { instance_id: inst.id, ip: body.ip, domain: null, protocols: JSON.stringify([body.protocol]), port: body.port, origin_port: body.origin_port, origins: JSON.stringify(body.origins), status: body.status };
    const row = await db.transaction().execute(async (trx) => {
      const saved = body.id
        ? await trx.updateTable('ddos_l7_rules').set(values).where('id', '=', body.id).returningAll().executeTakeFirstOrThrow()
        : await trx.insertInto('ddos_l7_rules').values({ ...values, type: 'non_website' }).returningAll().executeTakeFirstOrThrow();
      await writeLog(trx, req, { action: body.id ? 'ddos.non_website.update' : 'ddos.non_website.create', target: `${body.ip}:${body.port}`, detail: { protocol: body.protocol, origin_port: body.origin_port, origins: body.origins, status: body.status } });
      return saved;
    });
    return ok(l7View(row));
  });

  app.post<{ Body: { id: number; waf: boolean; mode?: string } }>(
    '/api/ddos/l7/waf',
    {
      config: access,
      schema: {
        body: {
          type: 'object',
          required: ['id', 'waf'],
          additionalProperties: false,
          properties: {
            id: idField('规则编号'),
            waf: { type: 'boolean', errorMessage: { type: 'WAF 状态只能是开启或关闭' } },
            mode: { type: 'string', enum: ['block', 'observe'], errorMessage: { type: '请选择 WAF 模式', enum: 'WAF 模式只能是拦截或仅记录' } },
          },
          errorMessage: { required: { id: '请指定规则', waf: '请选择是否开启 WAF' }, additionalProperties: '包含不支持的配置项' },
        },
      },
    },
    async (req) => {
      assertNotLocked(req.user!);
      const rule = await ruleOf('ddos_l7_rules', req.user!.account_id, req.body.id);
      if (rule.type !== 'website') throw new ApiError(24011, 400);
      await writableInstance(req.user!.account_id, rule.instance_id);
      const row = await db.transaction().execute(async (trx) => {
        const saved = await trx
          .updateTable('ddos_l7_rules')
          .set({ waf: req.body.waf, ...(req.body.mode ? { waf_mode: req.body.mode } : {}) })
          .where('id', '=', rule.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await writeLog(trx, req, { action: 'ddos.waf', target: rule.domain, detail: { waf: req.body.waf, mode: saved.waf_mode } });
        return saved;
      });
      return ok(l7View(row));
    },
  );

  // ---- L4 protection policies ----

  app.get<{ Querystring: { instance_id?: number; ip?: string; limit: number; since?: number; max?: number } }>(
    '/api/ddos/l4',
    {
      config: access,
      schema: { querystring: { type: 'object', properties: { instance_id: idField('实例编号'), ip: { type: 'string', format: 'ipv4', errorMessage: { format: '请填写正确的 IP' } }, ...paging } } },
    },
    async (req) => {
      const ids = await instanceIds(req.user!.account_id, req.query.instance_id);
      let base = db.selectFrom('ddos_l4_rules').selectAll().where('instance_id', 'in', ids);
      if (req.query.ip) base = base.where('ip', '=', req.query.ip);
      const { items, pager } = await keysetQuery(base, 'id', { limit: req.query.limit, since: req.query.since, max: req.query.max });
      return ok(items.map(l4View), { pager });
    },
  );

  async function saveL4(req: FastifyRequest, body: L4Body) {
    const user = req.user!;
    assertNotLocked(user);
    if (body.id) await ruleOf('ddos_l4_rules', user.account_id, body.id);
    const inst = await writableInstance(user.account_id, body.instance_id, body.ip);
    let dup = db.selectFrom('ddos_l4_rules').select('id').where('instance_id', '=', inst.id).where('ip', '=', body.ip).where('type', '=', body.type);
    if (body.id) dup = dup.where('id', '<>', body.id);
    if (await dup.executeTakeFirst()) throw new ApiError(24013, 400, [{ path: '/type', message: '该 IP 已有同类型的四层防护策略，请直接修改' }]);
    const values = { instance_id: inst.id, ip: body.ip, type: body.type, values: JSON.stringify(body.values), limit: body.type === 'rate_limit' ? body.limit ?? null : null, status: body.status };
    const row = await db.transaction().execute(async (trx) => {
      const saved = body.id
        ? await trx.updateTable('ddos_l4_rules').set(values).where('id', '=', body.id).returningAll().executeTakeFirstOrThrow()
        : await trx.insertInto('ddos_l4_rules').values(values).returningAll().executeTakeFirstOrThrow();
      await writeLog(trx, req, { action: body.id ? 'ddos.l4.update' : 'ddos.l4.create', target: body.ip, detail: { type: body.type, values: body.values.slice(0, 20), limit: values.limit, status: body.status } });
      return saved;
    });
    return ok(l4View(row));
  }

  app.put<{ Body: L4Body }>('/api/ddos/l4', { config: access, schema: { body: l4Schema } }, async (req) => {
    if (req.body.id) throw new ApiError(20001, 400, [{ path: '/id', message: '新建策略时不能指定策略编号' }]);
    return saveL4(req, req.body);
  });
  app.post<{ Body: L4Body }>('/api/ddos/l4', { config: access, schema: { body: l4Schema } }, async (req) => {
    if (!req.body.id) throw new ApiError(20001, 400, [{ path: '/id', message: '请指定要修改的策略' }]);
    return saveL4(req, req.body);
  });
  app.delete<{ Body: { id: number } }>('/api/ddos/l4', { config: access, schema: { body: byId } }, async (req) => {
    assertNotLocked(req.user!);
    const rule = await ruleOf('ddos_l4_rules', req.user!.account_id, req.body.id);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('ddos_l4_rules').where('id', '=', rule.id).execute();
      await writeLog(trx, req, { action: 'ddos.l4.delete', target: rule.ip, detail: { id: rule.id, type: rule.type } });
    });
    return ok({ id: rule.id });
  });

  // ---- attacks and flows ----

  const periodQuery = { start_time: timeField, end_time: timeField, instance_id: idField('实例编号') };

  app.get<{ Querystring: { start_time?: number; end_time?: number; instance_id?: number } }>(
    '/api/ddos/attack/statistics',
    { config: access, schema: { querystring: { type: 'object', properties: periodQuery } } },
    async (req) => {
      const ids = await instanceIds(req.user!.account_id, req.query.instance_id);
      const { start, end } = periodOf(req.query, 7 * 86_400);
      const rows = await db
        .selectFrom('ddos_attacks')
        .select(['type', sql<number>`count(*)::int`.as('n'), sql<number>`max(peak_bps)`.as('bps'), sql<number>`max(peak_pps)`.as('pps'), sql<number>`count(*) filter (where end_time is null)`.as('open')])
        .where('instance_id', 'in', ids)
        .where('start_time', '>=', start)
        .where('start_time', '<', end)
        .groupBy('type')
        .execute();
      const byType = rows.map((r) => ({ type: r.type, name: ATTACK_TYPES[r.type] ?? r.type, count: Number(r.n) })).sort((a, b) => b.count - a.count);
      const peakBps = Math.max(0, ...rows.map((r) => Number(r.bps)));
      return ok({
        count: byType.reduce((s, t) => s + t.count, 0),
        attacking: rows.reduce((s, r) => s + Number(r.open), 0),
        peak_bps: peakBps,
        peak_gbps: Number((peakBps / GBPS).toFixed(2)),
        peak_pps: Math.max(0, ...rows.map((r) => Number(r.pps))),
        top_type: byType[0]?.type ?? null,
        by_type: byType,
        start_time: Math.floor(start.getTime() / 1000),
        end_time: Math.floor(end.getTime() / 1000),
      });
    },
  );

  app.get<{ Querystring: { start_time?: number; end_time?: number; instance_id?: number; limit: number; since?: number; max?: number } }>(
    '/api/ddos/attack/list',
    { config: access, schema: { querystring: { type: 'object', properties: { ...periodQuery, ...paging } } } },
    async (req) => {
      const ids = await instanceIds(req.user!.account_id, req.query.instance_id);
      const { start, end } = periodOf(req.query, 7 * 86_400);
      const base = db.selectFrom('ddos_attacks').selectAll().where('instance_id', 'in', ids).where('start_time', '>=', start).where('start_time', '<', end);
      const { items, pager } = await keysetQuery(base, 'id', { limit: req.query.limit, since: req.query.since, max: req.query.max, order: 'desc' });
      return ok(items.map(attackView), { pager });
    },
  );

  app.get<{ Querystring: { type: 1 | 3 | 4 | 5; start_time?: number; end_time?: number; instance_id?: number } }>(
    '/api/ddos/stat/flow',
    {
      config: access,
      schema: {
        querystring: {
          type: 'object',
          required: ['type'],
          properties: { type: { type: 'integer', enum: [1, 3, 4, 5], errorMessage: { type: '类型只能是 1、3、4 或 5', enum: '类型只能是 1、3、4 或 5' } }, ...periodQuery },
          errorMessage: { required: { type: '请指定流量类型' } },
        },
      },
    },
    async (req) => {
      const ids = await instanceIds(req.user!.account_id, req.query.instance_id);
      const { start, end } = periodOf(req.query);
      const rows = await db
        .selectFrom('ddos_flow_5m')
        .select(['ts', sql<number>`sum(value)`.as('v')])
        .where('instance_id', 'in', ids)
        .where('type', '=', req.query.type)
        .where('ts', '>=', start)
        .where('ts', '<', end)
        .groupBy('ts')
        .orderBy('ts')
        .execute();
      const points = rows.map((r) => ({ time: Math.floor(new Date(r.ts).getTime() / 1000), value: Number(r.v) }));
      const peak = points.reduce((m, p) => Math.max(m, p.value), 0);
      const info = FLOW_TYPES[req.query.type];
      return ok({ type: req.query.type, title: info.title, unit: info.unit, interval: 300, points, peak, ...(info.unit === 'bps' ? { peak_gbps: Number((peak / GBPS).toFixed(2)) } : {}) });
    },
  );
}
