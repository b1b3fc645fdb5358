/**
 * The success answers of the ddos routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, bool, obj, map, arr, cursorPager, type AnswerTable } from '../http/answers';

/** A price quote (routes.ts `quote`); an order made from it adds its number and state. */
const quoteFields = {
  package: str,
  package_name: str,
  nodes: arr(num),
  nodesId2Name: map(str),
  months: num,
  original_price: str,
  price: str,
};

/** A layer-7 protection rule, website or not (src/shared/ddos.ts DdosL7Rule; routes.ts `l7View`). */
const l7Rule = obj({
  id: num,
  instance_id: num,
  type: str,
  ip: str,
  domain: str,
  protocols: arr(str),
  port: num,
  origin_port: num,
  origins: arr(str),
  cc_level: str,
  waf: bool,
  waf_mode: str,
  status: str,
  created_at: str,
});

/** A layer-4 protection rule (src/shared/ddos.ts DdosL4Rule; routes.ts `l4View`). */
const l4Rule = obj({
  id: num,
  instance_id: num,
  ip: str,
  type: str,
  values: arr(str),
  limit: num,
  status: str,
  created_at: str,
});

/** The id of a deleted rule. */
const deleted = obj({ id: num });

export const ddosAnswers: AnswerTable = {
  // src/server/ddos/routes.ts
  'GET /api/ddos/node/list': ok(arr(obj({ id: num, name: str }))),
  'POST /api/ddos/calculate': ok(obj(quoteFields)),
  'GET /api/ddos/order': ok(arr(obj({
      id: num,
      package: str,
      package_name: str,
      nodes: arr(num),
      months: num,
      price: str,
      status: str,
      instance_id: num,
      created_at: str,
      paid_at: str,
    }))),
  'POST /api/ddos/order': ok(obj({ order_id: num, ...quoteFields, status: str })),
  'POST /api/ddos/order/pay': ok(obj({ order_id: num, instance_id: num, instance_name: str, price: str, balance: str })),
  // src/shared/ddos.ts DdosInstance (routes.ts `instanceView`)
  'GET /api/ddos/instance': ok(arr(obj({
      id: num,
      name: str,
      package: str,
      package_name: str,
      protect_gbps: num,
      elastic_gbps: num,
      business_mbps: num,
      max_websites: num,
      max_ports: num,
      status: str,
      start_time: str,
      end_time: str,
      ip_count: num,
    }))),
  // src/shared/ddos.ts DdosIp
  'GET /api/ddos/ip': ok(arr(obj({ id: num, instance_id: num, ip: str, node_id: num, node_name: str, status: str }))),
  'GET /api/ddos/l7': ok(arr(l7Rule), { pager: obj({ since: num, max: num, total: num }) }),
  'PUT /api/ddos/l7': ok(l7Rule),
  'POST /api/ddos/l7': ok(l7Rule),
  'DELETE /api/ddos/l7': ok(deleted),
  'PUT /api/ddos/l7/non_website': ok(l7Rule),
  'POST /api/ddos/l7/waf': ok(l7Rule),
  'GET /api/ddos/l4': ok(arr(l4Rule), { pager: cursorPager }),
  'PUT /api/ddos/l4': ok(l4Rule),
  'POST /api/ddos/l4': ok(l4Rule),
  'DELETE /api/ddos/l4': ok(deleted),
  'GET /api/ddos/attack/statistics': ok(obj({
      count: num,
      attacking: num,
      peak_bps: num,
      peak_gbps: num,
      peak_pps: num,
      top_type: str,
      by_type: arr(obj({ type: str, name: str, count: num })),
      start_time: num,
      end_time: num,
    })),
  // src/shared/ddos.ts DdosAttack (routes.ts `attackView`)
  'GET /api/ddos/attack/list': ok(arr(obj({
      id: num,
      instance_id: num,
      ip: str,
      type: str,
      start_time: str,
      end_time: str,
      peak_bps: num,
      peak_pps: num,
      status: str,
    })), { pager: cursorPager }),
  'GET /api/ddos/stat/flow': ok(obj({
      type: num,
      title: str,
      unit: str,
      interval: num,
      points: arr(obj({ time: num, value: num })),
      peak: num,
      peak_gbps: num,
    })),
};
