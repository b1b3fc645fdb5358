/**
 * Every route the server registers, held against a matrix of roles (spec 000 §6): anonymous, the
 * main account, another main account, a blocked main account, sub-accounts with every permission,
 * without each permission and with only that one, sub-accounts limited to their authorized buckets,
 * and a disabled sub-account whose session survived. No route may be missing from the matrix, and
 * no role may reach what it must not; the roles that may, do.
 *
 * A request "reaches" a route when it is not refused by the access rules (21110, 21104, 41014,
 * 21111, or 21905 for a bucket out of reach). Each sample is chosen so that a request that gets
 * through changes nothing that matters (a taken name, an unknown id).
 */
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from './helpers';
import { routeTableOf } from '../../src/server/openapi/collect';
import { registerAccessControl } from '../../src/server/http/access';
import { CREATE_PERMISSION, GRANT_TYPES, KIND_PERMISSION, PERMISSIONS, type Need, type Permission } from '../../src/shared/permissions';
import type { ServiceKind } from '../../src/shared/services';
import { hashPassword } from '../../src/server/accounts/passwords';
import { sessionKey } from '../../src/server/accounts/session';

let s: TestServer;

interface Role {
  name: string;
  kind: 'anonymous' | 'main' | 'other' | 'child';
  status: 'normal' | 'blocked' | 'disabled';
  permissions: string[];
  /** buckets granted to the sub-account */
  granted: string[];
  cookie?: string;
}

const ALL = PERMISSIONS.filter((p) => p !== 'authorized_service');
const roles: Role[] = [];

function role(name: string, kind: Role['kind'], extra: Partial<Role> = {}): Role {
  const r: Role = { name, kind, status: 'normal', permissions: [], granted: [], ...extra };
  roles.push(r);
  return r;
}

role('anonymous', 'anonymous');
role('main', 'main');
role('other_main', 'other');
role('blocked_main', 'other', { status: 'blocked' });
role('child_all', 'child', { permissions: [...ALL] });
for (const p of ALL) {
  role(`child_without_${p}`, 'child', { permissions: ALL.filter((x) => x !== p) });
  role(`child_only_${p}`, 'child', { permissions: [p] });
}
role('child_authorized_cdn', 'child', { permissions: ['cdn', 'stats', 'authorized_service'], granted: ['demo-www'] }); // as the seed's demo_ops
role('child_authorized_live', 'child', { permissions: ['live', 'file', 'stats', 'log', 'authorized_service'], granted: ['demo-live'] });
// data scope all: opens the services granted to it, sees the data of every service (spec 000 §2.5, §6)
role('child_granted_all_data', 'child', { permissions: [...ALL], granted: ['demo-www', 'demo-assets', 'demo-live'] });
role('child_disabled', 'child', { permissions: [...ALL], status: 'disabled' });

// ---- who may reach what ----
const signedIn = (r: Role) => r.kind !== 'anonymous' && r.status === 'normal';
const isMain = (r: Role) => signedIn(r) && (r.kind === 'main' || r.kind === 'other');
const anyone = () => true;
const holds = (r: Role, p: string) => r.permissions.includes(p);
/**
 * The user reaches (opens and configures) one of demo's buckets: a sub-account holds the kind and, for
 * the kinds granted one by one (cdn with fusion, file, live), the bucket is granted to it, whatever its
 * data scope (spec 000 §2.5, §6).
 */
const reaches = (bucket: string, kind: ServiceKind) => (r: Role) =>
  signedIn(r) && (r.kind === 'main' || (r.kind === 'child' && holds(r, KIND_PERMISSION[kind]) && (!GRANT_TYPES.includes(KIND_PERMISSION[kind]) || r.granted.includes(bucket))));
/** The user sees the data of one of demo's buckets: authorized_service limits it to the granted ones, otherwise all. */
const dataReaches = (bucket: string) => (r: Role) => signedIn(r) && (r.kind === 'main' || (r.kind === 'child' && (!holds(r, 'authorized_service') || r.granted.includes(bucket))));
/** A main account, or a sub-account holding the permission. */
const mayHold = (p: string) => (r: Role) => signedIn(r) && (r.kind !== 'child' || holds(r, p));
const both = (a: (r: Role) => boolean, b: (r: Role) => boolean) => (r: Role) => a(r) && b(r);
const mayCreate = (kind: ServiceKind) => (r: Role) => signedIn(r) && (r.kind === 'main' || r.kind === 'other' || (r.kind === 'child' && holds(r, CREATE_PERMISSION[kind])));

interface Case {
  /** what the case shows, for the failure message */
  note?: string;
  req: (r: Role) => InjectOptions;
  allow: (r: Role) => boolean;
  /** a refusal for a bucket out of reach is 21905 (otherwise 21905 is an answer of the handler) */
  bucket?: boolean;
  /** the code the route answers for a thing of a bucket out of reach, when it is not 21905 */
  outOfReach?: number;
}

const get = (url: string): ((r: Role) => InjectOptions) => () => ({ method: 'GET', url });
const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload: (r: Role) => object) => (r: Role): InjectOptions => ({ method, url, payload: payload(r) });
const COMPRESSION = { status: 'enable', gzip: { disable: false, level: 1 }, br: { disable: false, level: 1 } };
const CERTS = path.resolve(__dirname, '../fixtures/certs');
const EXPIRED = { certificate: fs.readFileSync(path.join(CERTS, 'expired.crt'), 'utf8'), private_key: fs.readFileSync(path.join(CERTS, 'expired.key'), 'utf8') };
const EDGE_RULE = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../schemas/forms/edge_rule/fixtures/valid/add-response-header.json'), 'utf8')).payload;
/** A certificate template (helper G's certificate block). */
const CERT_TEMPLATE = { organization: '演示科技有限公司', country: 'CN', province: '浙江', city: '杭州', address: '文三路 1 号', contact_name: '张三', contact_phone: '13800138000', contact_email: 'ops@demo-example.com' };
/** A rule on demo-static, made by demo before the roles run. */
let edgeRuleId = 0;

/** "METHOD url" of every registered route → its cases. */
const MATRIX: Record<string, Case[]> = {
  'GET /accounts/two_step_verify/status/': [{ req: get('/accounts/two_step_verify/status/?username=demo'), allow: anyone }],
  'PUT /accounts/two_step_verify/code': [{ req: send('PUT', '/accounts/two_step_verify/code', (r) => ({ username: `nobody_${r.name}`, password: 'wrong' })), allow: anyone }],
  'POST /accounts/signin/': [{ req: send('POST', '/accounts/signin/', (r) => ({ username: `nobody_${r.name}`, password: 'wrong' })), allow: anyone }],
  'GET /api/accounts/v2/usage/': [{ req: get('/api/accounts/v2/usage/'), allow: signedIn }],
  // a visitor is answered too (user null): tests/server/session-route.test.ts checks what each one gets
  'GET /api/accounts/session/': [{ req: get('/api/accounts/session/'), allow: anyone }],
  // each user's own picture: nobody reaches another's (tests/server/avatar.test.ts)
  'GET /api/accounts/avatar/': [{ req: get('/api/accounts/avatar/'), allow: signedIn }],
  'GET /api/accounts/avatar/info/': [{ req: get('/api/accounts/avatar/info/'), allow: signedIn }],
  'PUT /api/accounts/avatar/': [{ note: 'not multipart', req: send('PUT', '/api/accounts/avatar/', () => ({})), allow: signedIn }],
  'DELETE /api/accounts/avatar/': [{ req: send('DELETE', '/api/accounts/avatar/', () => ({})), allow: signedIn }],
  'GET /api/account/child/': [{ req: get('/api/account/child/'), allow: isMain }],
  'GET /api/account/child/check/': [{ req: get('/api/account/child/check/?check_type=username&check_value=demo_ops'), allow: isMain }],
  'PUT /api/account/child/': [{ note: 'a taken name', req: send('PUT', '/api/account/child/', () => ({ child_name: 'demo_ops', password: 'secret123', permissions: ['cdn', 'stats'] })), allow: isMain }],
  'POST /api/account/child/': [{ note: 'an unknown id', req: send('POST', '/api/account/child/', () => ({ child_id: 999999, status: 'Y' })), allow: isMain }],
  'DELETE /api/account/child/': [{ note: 'an unknown id', req: send('DELETE', '/api/account/child/', () => ({ child_id: 999999 })), allow: isMain }],
  'GET /api/bucket/child/': [{ req: get('/api/bucket/child/?child_id=999999'), allow: isMain }],
  'PUT /api/bucket/child/': [{ req: send('PUT', '/api/bucket/child/', () => ({ child_id: 999999, bucket_id: 1 })), allow: isMain }],
  'DELETE /api/bucket/child/': [{ req: send('DELETE', '/api/bucket/child/', () => ({ id: 999999 })), allow: isMain }],
  'GET /api/logs/': [{ req: get('/api/logs/'), allow: isMain }],
  'GET /api/buckets/': [{ req: get('/api/buckets/?limit=100'), allow: signedIn }],
  'GET /api/buckets/summary/': [{ req: get('/api/buckets/summary/'), allow: signedIn }],
  'GET /api/buckets/v2/': [{ req: get('/api/buckets/v2/?type=file&business_type=file&infrequent_access=true'), allow: signedIn }],
  'GET /api/buckets/info/': [
    { note: 'a granted CDN service', req: get('/api/buckets/info/?bucket_name=demo-www'), allow: reaches('demo-www', 'cdn'), bucket: true },
    { note: 'a CDN service not granted', req: get('/api/buckets/info/?bucket_name=demo-static'), allow: reaches('demo-static', 'cdn'), bucket: true },
    { note: 'a fusion CDN service', req: get('/api/buckets/info/?bucket_name=demo-fusion'), allow: reaches('demo-fusion', 'fusion'), bucket: true },
    { note: 'a file service', req: get('/api/buckets/info/?bucket_name=demo-assets'), allow: reaches('demo-assets', 'file'), bucket: true },
    { note: 'a granted live service', req: get('/api/buckets/info/?bucket_name=demo-live'), allow: reaches('demo-live', 'live'), bucket: true },
    { note: 'an SCDN service', req: get('/api/buckets/info/?bucket_name=demo-shop'), allow: reaches('demo-shop', 'scdn'), bucket: true },
    { note: 'a WebSocket service', req: get('/api/buckets/info/?bucket_name=demo-chat'), allow: reaches('demo-chat', 'websocket'), bucket: true },
    { note: 'an overseas service', req: get('/api/buckets/info/?bucket_name=demo-global'), allow: reaches('demo-global', 'overseas'), bucket: true },
  ],
  'PUT /api/buckets/': [
    { note: 'a CDN service with a taken name', req: send('PUT', '/api/buckets/', () => ({ bucket_name: 'demo-www', kind: 'cdn', domains: [] })), allow: mayCreate('cdn') },
    { note: 'a file service with a taken name', req: send('PUT', '/api/buckets/', () => ({ bucket_name: 'demo-www', kind: 'file', domains: [] })), allow: mayCreate('file') },
    { note: 'a live service with a taken name', req: send('PUT', '/api/buckets/', () => ({ bucket_name: 'demo-www', kind: 'live', domains: [] })), allow: mayCreate('live') },
  ],
  'GET /api/settings/': [{ req: get('/api/settings/'), allow: signedIn }],
  'GET /api/settings/:id/': [
    { req: get('/api/settings/compression/?bucket_name=demo-www'), allow: reaches('demo-www', 'cdn'), bucket: true },
    { req: get('/api/settings/compression/?bucket_name=demo-static'), allow: reaches('demo-static', 'cdn'), bucket: true },
    { req: get('/api/settings/compression/?bucket_name=demo-assets'), allow: reaches('demo-assets', 'file'), bucket: true },
  ],
  'POST /api/settings/:id/': [
    { req: send('POST', '/api/settings/compression/', () => ({ bucket_name: 'demo-www', ...COMPRESSION })), allow: reaches('demo-www', 'cdn'), bucket: true },
    { req: send('POST', '/api/settings/compression/', () => ({ bucket_name: 'demo-static', ...COMPRESSION })), allow: reaches('demo-static', 'cdn'), bucket: true },
  ],
  // the documented alias of the minimum TLS version (spec 002 §7)
  'GET /api/https/tls': [{ req: get('/api/https/tls?bucket_name=demo-static'), allow: reaches('demo-static', 'cdn'), bucket: true }],
  'POST /api/https/tls': [{ req: send('POST', '/api/https/tls', () => ({ bucket_name: 'demo-static', version: 'TLSv1.0' })), allow: reaches('demo-static', 'cdn'), bucket: true }],
  'GET /api/schemas/gallery/': [{ req: get('/api/schemas/gallery/'), allow: isMain }],
  'GET /api/openapi.json': [{ req: get('/api/openapi.json'), allow: anyone }],
  'GET /api/docs/': [{ req: get('/api/docs/'), allow: anyone }],
  'GET /api/dev/sms_outbox/': [{ req: get('/api/dev/sms_outbox/?mobile=13800138000'), allow: anyone }],
  // statistics (spec 001): the stats permission; which services a sub-account sees is the handlers' (scope)
  ...Object.fromEntries(
    [
      '/api/stats/buckets/', '/api/domains/buckets', '/api/flow/statistic/', '/api/flow/pcdn/statistic', '/api/flow/websocket/statistic',
      '/api/cdn/mingmou/statistic', '/api/flow/abroad/statistic', '/api/flow/scdn/statistic', '/api/scdn/flow', '/api/flow/bandwidth95/',
      '/api/flow/proportion/', '/api/flow/map/', '/api/flow/amount/history/', '/api/flow/scdn/amount/history', '/api/cdn/mingmou/history',
      '/api/flow/abroad/history', '/api/flow/status/history/', '/api/flow/health_degree/detail/', '/api/buckets/stats_top/', '/api/scdn/stats/top/',
      '/api/flow/backsource/follow/', '/api/flow/statistic/download/', '/api/flow/websocket/download/', '/api/flow/abroad/download/', '/api/flow/scdn/statistic/download/', '/api/cdn/mingmou/download',
    ].map((url) => [`GET ${url}`, [{ req: get(url), allow: mayHold('stats') }]]),
  ),
  'GET /api/accounts/price_config': [{ req: get('/api/accounts/price_config'), allow: mayHold('bill') }],
  'GET /api/flow/billing_mode/': [{ req: get('/api/flow/billing_mode/'), allow: mayHold('stats') }],
  'POST /api/flow/ingest/token': [{ req: send('POST', '/api/flow/ingest/token', () => ({})), allow: isMain }],
  // the log pipeline's route: public, with a token of its own (an invalid one here)
  'POST /api/flow/ingest/': [{ req: (r) => ({ method: 'POST', url: '/api/flow/ingest/', payload: { slot: 0, records: [] }, headers: { authorization: `Bearer nothing-${r.name}` } }), allow: anyone }],
  // an edge node's traffic report: public, with a node key of its own (an invalid one here)
  'POST /edge/v1/traffic': [{ req: (r) => ({ method: 'POST', url: '/edge/v1/traffic', payload: { batch: 'b', node: 'n', records: [] }, headers: { authorization: `Bearer nothing-${r.name}` } }), allow: anyone }],
  // the edge API (docs/edge.md): public, with a node key of its own (an invalid one here)
  ...Object.fromEntries(
    [
      ['GET', '/edge/v1/config', '/edge/v1/config?after=0'],
      ['POST', '/edge/v1/report', '/edge/v1/report'],
      ['GET', '/edge/v1/purge', '/edge/v1/purge'],
      ['POST', '/edge/v1/purge/report', '/edge/v1/purge/report'],
      ['GET', '/edge/v1/files/:bucket_name/*', '/edge/v1/files/demo-assets/a.txt'],
      ['PUT', '/edge/v1/files/:bucket_name/*', '/edge/v1/files/demo-assets/a.txt'],
    ].map(([method, route, url]) => [
      `${method} ${route}`,
      [{ req: (r: Role): InjectOptions => ({ method: method as 'GET', url, headers: { authorization: `Bearer nothing-${r.name}` }, ...(method === 'GET' ? {} : { payload: {} }) }), allow: anyone }],
    ]),
  ),
  // a service's state on the edge: whoever reaches the service
  'GET /api/buckets/edge/': [
    { note: 'a granted CDN service', req: get('/api/buckets/edge/?bucket_name=demo-www'), allow: reaches('demo-www', 'cdn'), bucket: true },
    { note: 'a CDN service not granted', req: get('/api/buckets/edge/?bucket_name=demo-static'), allow: reaches('demo-static', 'cdn'), bucket: true },
  ],
  // the rule tester's real request through the local edge (none runs here: the answer says so)
  'POST /api/buckets/rewrite/send/': [
    { note: "demo-www's rules", req: send('POST', '/api/buckets/rewrite/send/', () => ({ bucket_name: 'demo-www', request: { uri: '/a' } })), allow: reaches('demo-www', 'cdn'), bucket: true },
  ],
  // certificates (spec 002): the https permission
  'POST /api/https/certificate/': [{ note: 'an expired certificate', req: send('POST', '/api/https/certificate/', () => EXPIRED), allow: mayHold('https') }],
  'GET /api/https/certificate/list/': [{ req: get('/api/https/certificate/list/'), allow: mayHold('https') }],
  'GET /api/https/certificate/search': [{ req: get('/api/https/certificate/search?domain=www.demo-example.com'), allow: mayHold('https') }],
  'GET /api/https/certificate/': [{ req: get('/api/https/certificate/?certificate_id=999999'), allow: mayHold('https') }],
  'DELETE /api/https/certificate/': [{ req: () => ({ method: 'DELETE', url: '/api/https/certificate/?certificate_id=999999' }), allow: mayHold('https') }],
  // forbidden_down_ssl: the sub-account may use certificates but not download them (spec 000 §6)
  'GET /api/https/certificate/download': [{ req: get('/api/https/certificate/download?certificate_id=999999'), allow: both(mayHold('https'), (r) => !(r.kind === 'child' && holds(r, 'forbidden_down_ssl'))) }],
  'GET /api/https/services/manager': [
    { req: get('/api/https/services/manager?bucket_name=demo-www'), allow: both(mayHold('https'), reaches('demo-www', 'cdn')), bucket: true },
    { req: get('/api/https/services/manager?bucket_name=demo-assets'), allow: both(mayHold('https'), reaches('demo-assets', 'file')), bucket: true },
  ],
  'POST /api/https/certificate/manager': [
    { note: "a domain of demo-www", req: send('POST', '/api/https/certificate/manager', () => ({ domain: 'www.demo-example.com', https: false, force_https: false })), allow: both(mayHold('https'), reaches('demo-www', 'cdn')), bucket: true },
  ],
  // spec 002 §7: any method on the path with the trailing slash (HTTPS off for demo-www's domain changes nothing that matters)
  'GET /api/https/certificate/manager/': [
    { req: get('/api/https/certificate/manager/?domain=www.demo-example.com'), allow: both(mayHold('https'), reaches('demo-www', 'cdn')), bucket: true },
  ],
  ...Object.fromEntries(
    (['POST', 'PUT'] as const).map((m) => [
      `${m} /api/https/certificate/manager/`,
      [{ req: send(m, '/api/https/certificate/manager/', () => ({ domain: 'www.demo-example.com', https: false, force_https: false })), allow: both(mayHold('https'), reaches('demo-www', 'cdn')), bucket: true }],
    ]),
  ),
  'DELETE /api/https/certificate/manager/': [
    { req: () => ({ method: 'DELETE', url: '/api/https/certificate/manager/?domain=www.demo-example.com' }), allow: both(mayHold('https'), reaches('demo-www', 'cdn')), bucket: true },
  ],
  'POST /api/https/trustasia/validate': [{ note: "a domain of no one's", req: send('POST', '/api/https/trustasia/validate', () => ({ domains: ['nowhere.example.org'] })), allow: mayHold('https') }],
  // certificates, issue #9 free and paid (helper G): the https permission; domains of no one's, unknown ids
  'GET /.well-known/acme-challenge/:token': [{ req: get('/.well-known/acme-challenge/no-such-token'), allow: anyone }],
  'POST /api/https/letsencrypt': [{ note: "a domain of no one's", req: send('POST', '/api/https/letsencrypt', () => ({ agent: 'letsencrypt', domains: ['nowhere.example.org'] })), allow: mayHold('https') }],
  'POST /api/https/trustasia': [{ note: "a domain of no one's", req: send('POST', '/api/https/trustasia', () => ({ agent: 'trustasia', domains: ['nowhere.example.org'] })), allow: mayHold('https') }],
  'POST /api/https/racent/certificate/free/predcv': [{ note: "a domain of no one's", req: send('POST', '/api/https/racent/certificate/free/predcv', () => ({ agent: 'racent', domains: ['nowhere.example.org'] })), allow: mayHold('https') }],
  'POST /api/https/racent/certificate/free/apply': [{ note: 'an unknown id', req: send('POST', '/api/https/racent/certificate/free/apply', () => ({ apply_id: 999999 })), allow: mayHold('https') }],
  'GET /api/https/apply/certificate_list/': [{ req: get('/api/https/apply/certificate_list/'), allow: mayHold('https') }],
  'GET /api/https/apply': [{ req: get('/api/https/apply?apply_id=999999'), allow: mayHold('https') }],
  'GET /api/https/domain/default/manager/': [{ req: get('/api/https/domain/default/manager/'), allow: mayHold('https') }],
  'POST /api/https/domain/default/manager/': [
    { note: 'demo-www, HTTPS off as it is', req: send('POST', '/api/https/domain/default/manager/', () => ({ bucket_name: 'demo-www', https: false, force_https: false })), allow: both(mayHold('https'), reaches('demo-www', 'cdn')), bucket: true },
  ],
  'POST /api/https/migrate/certificate': [{ note: 'unknown ids', req: send('POST', '/api/https/migrate/certificate', () => ({ certificate_id: 999999, target_certificate_id: 999998 })), allow: mayHold('https') }],
  'POST /api/https/migrate/domain': [{ note: 'an unknown certificate', req: send('POST', '/api/https/migrate/domain', () => ({ domains: ['www.demo-example.com'], certificate_id: 999999 })), allow: mayHold('https') }],
  'GET /api/https/trustasia/products/': [{ req: get('/api/https/trustasia/products/'), allow: mayHold('https') }],
  'POST /api/https/v2/certificate/crm/calculate/': [{ req: send('POST', '/api/https/v2/certificate/crm/calculate/', () => ({ product_id: 'trustasia-dv-single', years: 1, default_domain: 1, general_domain: 0 })), allow: mayHold('https') }],
  'GET /api/https/v2/certificate/order/': [{ req: get('/api/https/v2/certificate/order/'), allow: mayHold('https') }],
  'POST /api/https/v2/certificate/order/': [{ note: 'an unknown product', req: send('POST', '/api/https/v2/certificate/order/', () => ({ product_id: 'no-such-product', years: 1, default_domain: 1, general_domain: 0 })), allow: mayHold('https') }],
  'POST /api/https/v2/certificate/order/pay/': [{ note: 'an unknown order', req: send('POST', '/api/https/v2/certificate/order/pay/', () => ({ order_id: 999999, code: '000000' })), allow: mayHold('https') }],
  ...Object.fromEntries(
    ['/api/https/trustasia/certificate/paid/apply/', '/api/https/racent/certificate/paid/apply/', '/api/https/trustasia/certificate/paid/replace', '/api/https/v2/certificate/paid/replace'].map((url) => [
      `POST ${url}`,
      [{ note: 'an unknown order', req: send('POST', url, () => ({ order_id: 999999, domains: ['www.demo-example.com'] })), allow: mayHold('https') }],
    ]),
  ),
  ...Object.fromEntries(
    [
      '/api/https/v2/certificate/paid/apply_message/', '/api/https/trustasia/certificate/paid/verify_message/', '/api/https/racent/certificate/verify_message/',
      '/api/https/v2/certificate/paid/cancel_apply/', '/api/https/trustasia/certificate/deploy/',
    ].map((url) => [`GET ${url}`, [{ note: 'an unknown order', req: get(`${url}?order_id=999999`), allow: mayHold('https') }]]),
  ),
  'GET /api/https/trustasia/certificate/download': [{ note: 'an unknown order', req: get('/api/https/trustasia/certificate/download?order_id=999999'), allow: both(mayHold('https'), (r) => !(r.kind === 'child' && holds(r, 'forbidden_down_ssl'))) }],
  'POST /api/https/v2/certificate/paid/reapply/': [{ note: 'an unknown order', req: send('POST', '/api/https/v2/certificate/paid/reapply/', () => ({ order_id: 999999 })), allow: mayHold('https') }],
  'DELETE /api/https/trustasia/delete/order/': [{ note: 'an unknown order', req: () => ({ method: 'DELETE', url: '/api/https/trustasia/delete/order/?order_id=999999' }), allow: mayHold('https') }],
  'POST /api/https/trustasia/csr_parse/': [{ note: 'not a CSR', req: send('POST', '/api/https/trustasia/csr_parse/', () => ({ csr: 'nonsense' })), allow: mayHold('https') }],
  'GET /api/https/certificate/template': [{ req: get('/api/https/certificate/template'), allow: mayHold('https') }],
  'POST /api/https/certificate/template': [{ note: 'a template of its own', req: send('POST', '/api/https/certificate/template', (r) => ({ ...CERT_TEMPLATE, name: `matrix ${r.name}`.slice(0, 30) })), allow: mayHold('https') }],
  'PUT /api/https/certificate/template': [{ note: 'an unknown template', req: (r) => ({ method: 'PUT', url: '/api/https/certificate/template?template_id=999999', payload: { ...CERT_TEMPLATE, name: `matrix ${r.name}`.slice(0, 30) } }), allow: mayHold('https') }],
  'DELETE /api/https/certificate/template': [{ note: 'an unknown template', req: () => ({ method: 'DELETE', url: '/api/https/certificate/template?template_id=999999' }), allow: mayHold('https') }],
  // end of helper G's certificate block
  // purge and preheat (spec 002): the cache permission; a domain of no one's here
  'POST /api/purge/': [{ req: send('POST', '/api/purge/', () => ({ urls: ['http://nowhere.example.org/a.png'] })), allow: mayHold('cache') }],
  'POST /api/buckets/purge/batch/': [{ req: send('POST', '/api/buckets/purge/batch/', () => ({ source_url: 'http://nowhere.example.org/a.png' })), allow: mayHold('cache') }],
  'POST /api/buckets/purge/': [{ req: send('POST', '/api/buckets/purge/', () => ({ rules: ['http://nowhere.example.org/*'] })), allow: mayHold('cache') }],
  'POST /api/preheat': [{ req: send('POST', '/api/preheat', () => ({ urls: ['http://nowhere.example.org/a.png'] })), allow: mayHold('cache') }],
  'GET /api/purge/list': [{ req: get('/api/purge/list'), allow: mayHold('cache') }],
  // DDoS 高防 IP (spec 002, docs/ddos.md): main accounts only; unknown ids, a valid quote, an unpaid order
  'GET /api/ddos/node/list': [{ req: get('/api/ddos/node/list'), allow: isMain }],
  'POST /api/ddos/calculate': [{ req: send('POST', '/api/ddos/calculate', () => ({ package: 'basic', nodes: [1], months: 1 })), allow: isMain }],
  'GET /api/ddos/order': [{ req: get('/api/ddos/order'), allow: isMain }],
  'POST /api/ddos/order': [{ note: 'an unpaid order', req: send('POST', '/api/ddos/order', () => ({ package: 'basic', nodes: [1], months: 1 })), allow: isMain }],
  'POST /api/ddos/order/pay': [{ note: 'an unknown order', req: send('POST', '/api/ddos/order/pay', () => ({ order_id: 999999 })), allow: isMain }],
  'GET /api/ddos/instance': [{ req: get('/api/ddos/instance'), allow: isMain }],
  'GET /api/ddos/ip': [{ req: get('/api/ddos/ip'), allow: isMain }],
  'GET /api/ddos/l7': [{ req: get('/api/ddos/l7?type=website'), allow: isMain }],
  'PUT /api/ddos/l7': [{ note: 'an unknown instance', req: send('PUT', '/api/ddos/l7', () => ({ instance_id: 999999, ip: '103.211.40.10', domain: 'x.demo-example.com', protocols: ['http'], origins: ['1.1.1.1'], cc_level: 'normal', status: 'on' })), allow: isMain }],
  'POST /api/ddos/l7': [{ note: 'an unknown rule', req: send('POST', '/api/ddos/l7', () => ({ id: 999999, instance_id: 999999, ip: '103.211.40.10', domain: 'x.demo-example.com', protocols: ['http'], origins: ['1.1.1.1'], cc_level: 'normal', status: 'on' })), allow: isMain }],
  'DELETE /api/ddos/l7': [{ note: 'an unknown rule', req: send('DELETE', '/api/ddos/l7', () => ({ id: 999999 })), allow: isMain }],
  'PUT /api/ddos/l7/non_website': [{ note: 'an unknown instance', req: send('PUT', '/api/ddos/l7/non_website', () => ({ instance_id: 999999, ip: '103.211.40.10', protocol: 'tcp', port: 9000, origin_port: 9000, origins: ['1.1.1.1'], status: 'on' })), allow: isMain }],
  'POST /api/ddos/l7/waf': [{ note: 'an unknown rule', req: send('POST', '/api/ddos/l7/waf', () => ({ id: 999999, waf: true })), allow: isMain }],
  'GET /api/ddos/l4': [{ req: get('/api/ddos/l4'), allow: isMain }],
  'PUT /api/ddos/l4': [{ note: 'an unknown instance', req: send('PUT', '/api/ddos/l4', () => ({ instance_id: 999999, ip: '103.211.40.10', type: 'blacklist', values: ['1.2.3.4'], status: 'on' })), allow: isMain }],
  'POST /api/ddos/l4': [{ note: 'an unknown policy', req: send('POST', '/api/ddos/l4', () => ({ id: 999999, instance_id: 999999, ip: '103.211.40.10', type: 'blacklist', values: ['1.2.3.4'], status: 'on' })), allow: isMain }],
  'DELETE /api/ddos/l4': [{ note: 'an unknown policy', req: send('DELETE', '/api/ddos/l4', () => ({ id: 999999 })), allow: isMain }],
  'GET /api/ddos/attack/statistics': [{ req: get('/api/ddos/attack/statistics'), allow: isMain }],
  'GET /api/ddos/attack/list': [{ req: get('/api/ddos/attack/list'), allow: isMain }],
  'GET /api/ddos/stat/flow': [{ req: get('/api/ddos/stat/flow?type=1'), allow: isMain }],
  // live services (spec 002): the live info of a live service, by the service's kind and grants
  'GET /api/buckets/live/info/': [
    { note: 'a granted live service', req: get('/api/buckets/live/info/?bucket_name=demo-live'), allow: reaches('demo-live', 'live'), bucket: true },
    { note: 'a live service not granted', req: get('/api/buckets/live/info/?bucket_name=demo-class'), allow: reaches('demo-class', 'live'), bucket: true },
  ],
  'GET /api/srs/info/': [{ req: get('/api/srs/info/?bucket_name=demo-live'), allow: reaches('demo-live', 'live'), bucket: true }],
  // edge rules (spec 002): the service's kind and grants
  'GET /api/buckets/rewrite/': [
    { req: get('/api/buckets/rewrite/?bucket_name=demo-www'), allow: reaches('demo-www', 'cdn'), bucket: true },
    { req: get('/api/buckets/rewrite/?bucket_name=demo-static'), allow: reaches('demo-static', 'cdn'), bucket: true },
    { req: get('/api/buckets/rewrite/?bucket_name=demo-assets'), allow: reaches('demo-assets', 'file'), bucket: true },
  ],
  'PUT /api/buckets/rewrite/': [
    { note: 'a rule on demo-static', req: send('PUT', '/api/buckets/rewrite/', () => ({ ...EDGE_RULE, bucket_name: 'demo-static' })), allow: reaches('demo-static', 'cdn'), bucket: true },
  ],
  'POST /api/buckets/rewrite/': [
    { note: "a rule of demo-static's", req: send('POST', '/api/buckets/rewrite/', () => ({ ...EDGE_RULE, rewrite_id: edgeRuleId })), allow: reaches('demo-static', 'cdn'), bucket: true, outOfReach: 23001 },
  ],
  'DELETE /api/buckets/rewrite/': [{ note: 'an unknown rule', req: () => ({ method: 'DELETE', url: '/api/buckets/rewrite/?rewrite_id=999999' }), allow: signedIn }],
  'POST /api/buckets/rewrite/priority/': [
    { note: "a rule of demo-static's", req: send('POST', '/api/buckets/rewrite/priority/', () => ({ rewrite_id: edgeRuleId, priority: 1 })), allow: reaches('demo-static', 'cdn'), bucket: true, outOfReach: 23001 },
  ],
  'POST /api/buckets/rewrite/status/': [
    { note: "a rule of demo-static's", req: send('POST', '/api/buckets/rewrite/status/', () => ({ rewrite_id: edgeRuleId, status: 'ON' })), allow: reaches('demo-static', 'cdn'), bucket: true, outOfReach: 23001 },
  ],
  'POST /api/buckets/rewrite/check/': [{ req: send('POST', '/api/buckets/rewrite/check/', () => ({ rule: '$WHEN($MATCH($_URI, \'^/a\'))/b' })), allow: signedIn }],
  'POST /api/buckets/rewrite/test/': [
    { note: 'rules given', req: send('POST', '/api/buckets/rewrite/test/', () => ({ request: { uri: '/a' } })), allow: signedIn },
    { note: "demo-www's rules", req: send('POST', '/api/buckets/rewrite/test/', () => ({ bucket_name: 'demo-www', request: { uri: '/a' } })), allow: reaches('demo-www', 'cdn'), bucket: true },
  ],
  'GET /api/buckets/rewrite/countries/': [{ req: get('/api/buckets/rewrite/countries/'), allow: signedIn }],
  'GET /api/static/:name': [{ req: get('/api/static/industries.json'), allow: anyone }],
  'GET /api/dashboard/': [{ req: get('/api/dashboard/'), allow: isMain }],
  // service tabs (helper E, docs/service-tabs.md): domains and the remark, by the service's kind and grants;
  // a domain of another account's (21215), unbound domains (21241), the remark it already has
  'GET /api/account/domains/': [
    { note: 'the account\'s domains', req: get('/api/account/domains/'), allow: signedIn },
    { note: 'a granted CDN service', req: get('/api/account/domains/?bucket_name=demo-www'), allow: reaches('demo-www', 'cdn'), bucket: true },
    { note: 'a CDN service not granted', req: get('/api/account/domains/?bucket_name=demo-static'), allow: reaches('demo-static', 'cdn'), bucket: true },
  ],
  'POST /api/account/domains/': [
    { note: 'a domain bound to another account', req: send('POST', '/api/account/domains/', () => ({ bucket_name: 'demo-static', domain: 'www.secure-example.com' })), allow: reaches('demo-static', 'cdn'), bucket: true },
  ],
  'DELETE /api/account/domains/': [
    { note: 'an unbound domain', req: send('DELETE', '/api/account/domains/', () => ({ bucket_name: 'demo-static', domain: 'nowhere.example.org' })), allow: reaches('demo-static', 'cdn'), bucket: true },
  ],
  'GET /api/account/domains/cname/': [
    { note: 'an unbound domain', req: get('/api/account/domains/cname/?bucket_name=demo-www&domain=nowhere.example.org'), allow: reaches('demo-www', 'cdn'), bucket: true },
  ],
  'POST /api/buckets/info/': [
    { note: 'the remark it has', req: send('POST', '/api/buckets/info/', () => ({ bucket_name: 'demo-static', remark: '静态资源加速' })), allow: reaches('demo-static', 'cdn'), bucket: true },
  ],
  'GET /api/fusion/buckets': [{ req: get('/api/fusion/buckets'), allow: signedIn }],
  'GET /api/fusion/cdn/cache': [
    { note: 'a fusion CDN service', req: get('/api/fusion/cdn/cache?bucket_name=demo-fusion'), allow: reaches('demo-fusion', 'fusion'), bucket: true },
  ],
  'POST /api/fusion/cdn/cache': [
    { note: 'a refused value', req: send('POST', '/api/fusion/cdn/cache', () => ({ bucket_name: 'demo-fusion', rules: 'x' })), allow: reaches('demo-fusion', 'fusion'), bucket: true },
  ],
  // end of helper E's service-tab block
  // statistics events (src/server/events): anyone may post one
  'POST /accounts/verify/statistics': [{ req: send('POST', '/accounts/verify/statistics', () => ({ type: 1 })), allow: anyone }],
  'POST /accounts/usage/statistics': [{ req: send('POST', '/accounts/usage/statistics', () => ({ type: 1 })), allow: anyone }],
  'POST /api/buried': [{ req: send('POST', '/api/buried', () => ({ event: 1 })), allow: anyone }],
  'GET /api/ip': [{ req: get('/api/ip'), allow: signedIn }],
  // billing money (docs/billing-money.md): parent-only plus bill; unknown ids, refused amounts, pictures of no one's
  'GET /orders/recharge/discount': [{ req: get('/orders/recharge/discount'), allow: mayHold('bill') }],
  'POST /api/orders/recharge': [{ note: 'a pending order, never paid', req: send('POST', '/api/orders/recharge', () => ({ amount: 1 })), allow: mayHold('bill') }],
  'GET /api/orders/recharge': [{ req: get('/api/orders/recharge?order_no=NONE'), allow: mayHold('bill') }],
  'GET /api/v2/orders/': [{ req: get('/api/v2/orders/?status=success'), allow: mayHold('bill') }],
  'GET /api/pay/sandbox/:token': [{ note: 'an unknown payment link', req: get(`/api/pay/sandbox/${'a'.repeat(48)}`), allow: anyone }],
  'POST /api/pay/sandbox/:token': [{ note: 'an unknown payment link', req: send('POST', `/api/pay/sandbox/${'a'.repeat(48)}`, () => ({})), allow: anyone }],
  'GET /api/accounts/transaction/captcha': [{ req: get('/api/accounts/transaction/captcha'), allow: mayHold('bill') }],
  'POST /api/accounts/transaction/captcha': [{ note: "a code to demo's mobile, once a minute", req: send('POST', '/api/accounts/transaction/captcha', () => ({})), allow: mayHold('bill') }],
  'POST /api/orders/pay': [{ note: 'an unknown order', req: send('POST', '/api/orders/pay', () => ({ order_no: 'NONE', method: 'alipay' })), allow: mayHold('bill') }],
  'POST /accounts/invoice/pic/': [{ note: 'not multipart', req: send('POST', '/accounts/invoice/pic/', () => ({})), allow: mayHold('bill') }],
  'GET /accounts/invoice/pic/:id': [{ req: get('/accounts/invoice/pic/0123456789abcdef0123456789abcdef'), allow: mayHold('bill') }],
  'GET /api/account/invoice/consume/': [{ req: get('/api/account/invoice/consume/'), allow: mayHold('bill') }],
  'PUT /api/account/invoice': [{ note: 'an unknown title', req: send('PUT', '/api/account/invoice', () => ({ amount: 1, info_id: 999999, address_id: 999999 })), allow: mayHold('bill') }],
  'GET /api/account/invoices': [{ req: get('/api/account/invoices'), allow: mayHold('bill') }],
  'GET /api/account/invoice': [{ req: get('/api/account/invoice?invoice_id=999999'), allow: mayHold('bill') }],
  'DELETE /api/account/invoice': [{ note: 'an unknown invoice', req: send('DELETE', '/api/account/invoice', () => ({ invoice_id: 999999 })), allow: mayHold('bill') }],
  'GET /api/account/invoice/info': [{ req: get('/api/account/invoice/info'), allow: mayHold('bill') }],
  'PUT /api/account/invoice/info': [{ note: 'a title (at most 10)', req: send('PUT', '/api/account/invoice/info', () => ({ type: 'NORMAL', title: '矩阵测试', tax_no: '91310000MA1FL0XX1A' })), allow: mayHold('bill') }],
  'POST /api/account/invoice/info': [{ note: 'an unknown title', req: send('POST', '/api/account/invoice/info', () => ({ info_id: 999999, type: 'NORMAL', title: '矩阵测试', tax_no: '91310000MA1FL0XX1A' })), allow: mayHold('bill') }],
  'DELETE /api/account/invoice/info': [{ note: 'an unknown title', req: send('DELETE', '/api/account/invoice/info', () => ({ info_id: 999999 })), allow: mayHold('bill') }],
  'GET /api/account/invoice/address': [{ req: get('/api/account/invoice/address'), allow: mayHold('bill') }],
  'PUT /api/account/invoice/address': [{ note: 'an address (at most 10)', req: send('PUT', '/api/account/invoice/address', () => ({ recipient: '矩阵', mobile: '13800138000', address: '测试地址' })), allow: mayHold('bill') }],
  'POST /api/account/invoice/address': [{ note: 'an unknown address', req: send('POST', '/api/account/invoice/address', () => ({ address_id: 999999, recipient: '矩阵', mobile: '13800138000', address: '测试地址' })), allow: mayHold('bill') }],
  'DELETE /api/account/invoice/address': [{ note: 'an unknown address', req: send('DELETE', '/api/account/invoice/address', () => ({ address_id: 999999 })), allow: mayHold('bill') }],
  'GET /api/account/rebate': [{ req: get('/api/account/rebate'), allow: mayHold('bill') }],
  'PUT /api/account/rebate': [{ note: 'more than the withdrawable amount', req: send('PUT', '/api/account/rebate', () => ({ sum: 999999, draw_type: 'TICKET' })), allow: mayHold('bill') }],
  'DELETE /api/account/rebate': [{ note: 'an unknown record', req: send('DELETE', '/api/account/rebate', () => ({ rebate_id: 999999 })), allow: mayHold('bill') }],
  'GET /api/account/rebate/info': [{ req: get('/api/account/rebate/info'), allow: mayHold('bill') }],
  'PUT /api/account/rebate/info': [{ note: "photos of no one's", req: send('PUT', '/api/account/rebate/info', () => ({ receive_type: 'ALIPAY', name: '矩阵', open_account: '13800138000', id_code: '110105194912310021', id_front_pic: '/accounts/invoice/pic/0123456789abcdef0123456789abcdef', id_reverse_pic: '/accounts/invoice/pic/0123456789abcdef0123456789abcdef' })), allow: mayHold('bill') }],
  'POST /api/account/rebate/info': [{ note: 'an unknown payee', req: send('POST', '/api/account/rebate/info', () => ({ rebate_info_id: 999999, receive_type: 'ALIPAY', name: '矩阵', open_account: '13800138000', id_code: '110105194912310021', id_front_pic: '/accounts/invoice/pic/0123456789abcdef0123456789abcdef', id_reverse_pic: '/accounts/invoice/pic/0123456789abcdef0123456789abcdef' })), allow: mayHold('bill') }],
  'DELETE /api/account/rebate/info': [{ note: 'an unknown payee', req: send('DELETE', '/api/account/rebate/info', () => ({ rebate_info_id: 999999 })), allow: mayHold('bill') }],
  // billing: header, bills, threshold, vouchers, resource packages (docs/billing.md): parent-only plus bill; unknown ids and codes
  'GET /api/billing/usage/': [{ req: get('/api/billing/usage/'), allow: mayHold('bill') }],
  'GET /api/billing/ledger': [{ req: get('/api/billing/ledger'), allow: mayHold('bill') }],
  'GET /api/bills/': [{ req: get('/api/bills/?type=DAY_BILL'), allow: mayHold('bill') }],
  'GET /api/bill/': [{ note: 'an unknown bill', req: get('/api/bill/?id=20000101D999999'), allow: mayHold('bill') }],
  'GET /api/bill_threshold': [{ req: get('/api/bill_threshold'), allow: mayHold('bill') }],
  'POST /api/bill_threshold': [{ note: "demo's threshold set to 0 (never warns)", req: send('POST', '/api/bill_threshold', () => ({ threshold: 0 })), allow: mayHold('bill') }],
  'DELETE /api/bill_threshold': [{ req: () => ({ method: 'DELETE', url: '/api/bill_threshold' }), allow: mayHold('bill') }],
  'GET /api/tickets/': [{ req: get('/api/tickets/'), allow: mayHold('bill') }],
  'POST /api/ticket/': [{ note: 'an unknown code', req: send('POST', '/api/ticket/', () => ({ ticket_id: 'NOSUCHCODE000001' })), allow: mayHold('bill') }],
  'GET /api/resources/specs/': [{ req: get('/api/resources/specs/?kind=resources'), allow: mayHold('bill') }],
  'GET /api/resource': [{ req: get('/api/resource'), allow: mayHold('bill') }],
  'GET /api/resources/account/': [{ req: get('/api/resources/account/'), allow: mayHold('bill') }],
  'POST /api/resources/account/': [{ note: 'an unknown spec', req: send('POST', '/api/resources/account/', () => ({ spec: 'nosuchspec' })), allow: mayHold('bill') }],
  'PUT /api/resources/account/': [{ note: 'an unknown package', req: send('PUT', '/api/resources/account/', () => ({ id: 999999, auto_renew: false })), allow: mayHold('bill') }],
  'DELETE /api/resources/account/': [{ note: 'an unknown package', req: () => ({ method: 'DELETE', url: '/api/resources/account/?id=999999' }), allow: mayHold('bill') }],
  'POST /api/coin/address/bind': [{ req: send('POST', '/api/coin/address/bind', () => ({ type: 'ETH', address: '0x52908400098527886E0F7030069857D2E4169EE7' })), allow: mayHold('bill') }],
  'GET /api/coin/address': [{ req: get('/api/coin/address'), allow: mayHold('bill') }],
  'DELETE /api/coin/address': [{ note: 'nothing bound', req: () => ({ method: 'DELETE', url: '/api/coin/address?type=ETH' }), allow: mayHold('bill') }],
  'GET /api/billing/other': [{ req: get('/api/billing/other'), allow: mayHold('bill') }],
  'GET /api/resources/usage': [{ req: get('/api/resources/usage?kind=sms'), allow: mayHold('bill') }],
  // the external products' usage reports: public, with a product key of their own (an invalid one here)
  'POST /accounts/app/usage': [{ req: (r) => ({ method: 'POST', url: '/accounts/app/usage', payload: { product: 'sms', report_id: `m-${r.name}`, account_id: 1, quantity: 1 }, headers: { authorization: `Bearer nothing-${r.name}` } }), allow: anyone }],
  // accounts: entry pages, security, profile, real-name, operators, messages (helper C; docs/accounts.md)
  'POST /accounts/manmachine/next': [{ req: send('POST', '/accounts/manmachine/next', () => ({})), allow: anyone }],
  'GET /accounts/register_check/': [{ req: get('/accounts/register_check/?check_type=username&check_value=demo'), allow: anyone }],
  'PUT /accounts/verify_mobile/code/': [{ note: 'a wrong captcha', req: send('PUT', '/accounts/verify_mobile/code/', () => ({ mobile: '13700009999', captcha_id: 'none', captcha: '0000' })), allow: anyone }],
  'POST /accounts/verify_mobile/code/': [{ note: 'a wrong captcha', req: send('POST', '/accounts/verify_mobile/code/', () => ({ mobile: '13700009999', captcha_id: 'none', captcha: '0000' })), allow: anyone }],
  'GET /accounts/captcha/image': [{ req: get('/accounts/captcha/image'), allow: anyone }],
  'PUT /accounts/captcha/image/': [{ note: 'an unknown captcha', req: send('PUT', '/accounts/captcha/image/', () => ({ captcha_id: 'none' })), allow: anyone }],
  'POST /accounts/register/': [{ note: 'a taken name', req: send('POST', '/accounts/register/', () => ({ username: 'demo2fa', password: 'newpass123', email: 'demo2fa@example.com', mobile: '13912345678', code: '000000' })), allow: anyone }],
  'POST /accounts/authentication/email/': [{ note: 'a wrong token', req: send('POST', '/accounts/authentication/email/', () => ({ token: 'none', account_id: 999999 })), allow: anyone }],
  'PUT /accounts/resetpwd/code/': [{ note: 'a wrong captcha', req: send('PUT', '/accounts/resetpwd/code/', () => ({ account: 'demo', captcha_id: 'none', captcha: '0000' })), allow: anyone }],
  'POST /accounts/resetpwd/': [{ note: 'an unknown account', req: send('POST', '/accounts/resetpwd/', (r) => ({ account: `nobody_${r.name}`, code: '000000', password: 'newpass123' })), allow: anyone }],
  'GET /api/dev/email_outbox/': [{ req: get('/api/dev/email_outbox/?email=demo@example.com'), allow: anyone }],
  'GET /api/dev/captcha/': [{ req: get('/api/dev/captcha/?captcha_id=none'), allow: anyone }],
  'PUT /api/accounts/authentication/email/': [{ note: 'an e-mail already verified', req: send('PUT', '/api/accounts/authentication/email/', () => ({})), allow: isMain }],
  'GET /api/accounts/security/': [{ req: get('/api/accounts/security/'), allow: isMain }],
  'POST /api/accounts/password/': [{ note: 'a wrong old password', req: send('POST', '/api/accounts/password/', () => ({ old_password: 'wrong', password: 'newpass123' })), allow: isMain }],
  'PUT /api/accounts/authentication/mobile/': [{ note: 'a taken number', req: send('PUT', '/api/accounts/authentication/mobile/', () => ({ mobile: '13912345678' })), allow: isMain }],
  'POST /api/accounts/authentication/mobile/': [{ note: 'a taken number', req: send('POST', '/api/accounts/authentication/mobile/', () => ({ mobile: '13912345678' })), allow: isMain }],
  'POST /api/accounts/mobile/': [{ note: 'a taken number', req: send('POST', '/api/accounts/mobile/', () => ({ mobile: '13912345678', code: '000000' })), allow: isMain }],
  'POST /api/accounts/email/': [{ note: 'a taken address', req: send('POST', '/api/accounts/email/', () => ({ email: 'demo2fa@example.com' })), allow: isMain }],
  'POST /api/accounts/two_step_verify/status': [{ note: 'off, as it is', req: send('POST', '/api/accounts/two_step_verify/status', () => ({ status: 'disable' })), allow: isMain }],
  'GET /accounts/profile/': [{ req: get('/accounts/profile/'), allow: isMain }],
  'POST /accounts/profile/': [{ note: 'an empty profile', req: send('POST', '/accounts/profile/', () => ({})), allow: isMain }],
  'GET /api/accounts/certificate/': [{ req: get('/api/accounts/certificate/'), allow: isMain }],
  'POST /accounts/identity/certificate/': [{ note: 'not a form: refused by the handler', req: send('POST', '/accounts/identity/certificate/', () => ({})), allow: isMain }],
  'GET /api/operators/': [{ req: get('/api/operators/'), allow: isMain }],
  'GET /api/operators/info/': [{ req: get('/api/operators/info/?operator_name=nobody_op'), allow: isMain }],
  'PUT /api/operators/': [{ note: 'one operator per role, bound to nothing', req: send('PUT', '/api/operators/', (r) => ({ operator_name: `mx_${r.name.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`.slice(0, 32), password: 'newpass123', ak: 'K3y0fThirtyTwoLettersAndDigits12', operator_auth: { read: true, write: false, delete: false } })), allow: isMain }],
  'POST /api/operators/': [{ note: 'an unknown id', req: send('POST', '/api/operators/', () => ({ operator_id: 999999, ak: 'K3y0fThirtyTwoLettersAndDigits12', operator_auth: { read: true, write: false, delete: false } })), allow: isMain }],
  'DELETE /api/operators/': [{ note: 'an unknown id', req: send('DELETE', '/api/operators/', () => ({ operator_id: 999999 })), allow: isMain }],
  'POST /api/operators/enable/': [{ note: 'an unknown name', req: send('POST', '/api/operators/enable/', () => ({ operator_name: 'nobody_op' })), allow: isMain }],
  'POST /api/operators/disable/': [{ note: 'an unknown name', req: send('POST', '/api/operators/disable/', () => ({ operator_name: 'nobody_op' })), allow: isMain }],
  'GET /api/operators/buckets/': [{ req: get('/api/operators/buckets/?operator_id=999999'), allow: isMain }],
  'PUT /api/operators/buckets/binding/': [{ note: 'an unknown operator', req: send('PUT', '/api/operators/buckets/binding/', () => ({ operator_id: 999999, bucket_id: 1 })), allow: isMain }],
  'DELETE /api/operators/buckets/binding/': [{ note: 'an unknown operator', req: send('DELETE', '/api/operators/buckets/binding/', () => ({ operator_name: 'nobody_op', bucket_name: 'demo-www' })), allow: both(isMain, reaches('demo-www', 'cdn')), bucket: true }],
  'GET /api/messages/': [{ req: get('/api/messages/'), allow: isMain }],
  'POST /api/messages/': [{ note: 'an unknown message', req: send('POST', '/api/messages/', () => ({ ids: [999999], action: 'readed' })), allow: isMain }],
  'GET /api/message/': [{ note: 'an unknown message', req: get('/api/message/?id=999999'), allow: isMain }],
  'GET /api/messages/unread/': [{ req: get('/api/messages/unread/'), allow: isMain }],
  // file management and media processing (helper D, docs/files-and-media.md): the file permission on a reachable file service; the logs calls need log
  'GET /folder/:bucket_name/*': [
    { req: get('/folder/demo-assets/'), allow: reaches('demo-assets', 'file'), bucket: true },
    { note: 'a file of demo-assets (its bytes, not JSON)', req: get('/folder/demo-assets/index.html'), allow: reaches('demo-assets', 'file'), bucket: true, outOfReach: 21905 },
  ],
  'POST /folder/:bucket_name/*': [{ note: 'a folder that exists', req: send('POST', '/folder/demo-assets/docs/', () => ({})), allow: reaches('demo-assets', 'file'), bucket: true }],
  'PUT /folder/:bucket_name/*': [{ note: 'no file in it', req: send('PUT', '/folder/demo-assets/docs/', () => ({})), allow: reaches('demo-assets', 'file'), bucket: true }],
  'DELETE /folder/:bucket_name/*': [{ note: 'a folder that is not empty', req: () => ({ method: 'DELETE', url: '/folder/demo-assets/docs/' }), allow: reaches('demo-assets', 'file'), bucket: true }],
  'POST /av/pretreatment': [{ note: 'a source that does not exist', req: send('POST', '/av/pretreatment', () => ({ bucket_name: 'demo-assets', type: 'probe', source: 'nowhere/x.mp4' })), allow: reaches('demo-assets', 'file'), bucket: true }],
  'GET /av/tasklist': [{ req: get('/av/tasklist?bucket_name=demo-assets'), allow: reaches('demo-assets', 'file'), bucket: true }],
  'GET /av/task': [{ note: 'an unknown id', req: get('/av/task?task_id=999999'), allow: mayHold('file') }],
  'GET /api/logs/av/query/': [{ req: get('/api/logs/av/query/'), allow: mayHold('log') }],
  'GET /api/logs/stream/query': [{ req: get('/api/logs/stream/query'), allow: mayHold('log') }],
  // operational tools (spec 002 "Other tools", helper F2): monitor alarms (monitor to read, monitor_alarm to manage),
  // work orders (any signed-in user), log analysis (log + the service), backup (file); unknown ids and refused payloads
  'GET /api/monitor/': [{ req: get('/api/monitor/'), allow: (r) => mayHold('monitor')(r) || mayHold('monitor_alarm')(r) }],
  'GET /api/monitor/alerts/': [{ req: get('/api/monitor/alerts/'), allow: (r) => mayHold('monitor')(r) || mayHold('monitor_alarm')(r) }],
  'PUT /api/monitor/': [{ note: "another account's service", req: send('PUT', '/api/monitor/', () => ({ name: 'm', metric: 'requests', operator: 'gt', threshold: 1, period: 5, buckets: ['secure-www'] })), allow: mayHold('monitor_alarm') }],
  'POST /api/monitor/': [{ note: 'an unknown id', req: send('POST', '/api/monitor/', () => ({ id: 999999, name: 'm', metric: 'requests', operator: 'gt', threshold: 1, period: 5, buckets: ['demo-www'] })), allow: mayHold('monitor_alarm') }],
  'DELETE /api/monitor/': [{ note: 'an unknown id', req: send('DELETE', '/api/monitor/', () => ({ id: 999999 })), allow: mayHold('monitor_alarm') }],
  'POST /api/monitor/visible/': [{ note: 'an unknown id', req: send('POST', '/api/monitor/visible/', () => ({ id: 999999, visible: false })), allow: mayHold('monitor_alarm') }],
  'GET /api/workorder/types/': [{ req: get('/api/workorder/types/'), allow: signedIn }],
  'GET /work_order/documents/': [{ req: get('/work_order/documents/?type=cdn'), allow: signedIn }],
  'POST /work_order/attachment/': [{ note: 'not a file', req: send('POST', '/work_order/attachment/', () => ({})), allow: signedIn }],
  'GET /work_order/attachment/': [{ note: 'an unknown id', req: get('/work_order/attachment/?id=999999'), allow: signedIn }],
  'POST /api/workorder': [{ note: 'an unknown attachment (nothing stored)', req: send('POST', '/api/workorder', () => ({ type: 'other', title: 't', content: '矩阵测试，不会保存的工单', attachments: [999999] })), allow: signedIn }],
  'GET /api/workorder/list/': [{ req: get('/api/workorder/list/'), allow: signedIn }],
  'GET /api/workorder/detail/': [{ note: 'an unknown id', req: get('/api/workorder/detail/?id=999999'), allow: signedIn }],
  'POST /api/workorder/reply/': [{ note: 'an unknown id', req: send('POST', '/api/workorder/reply/', () => ({ id: 999999, content: 'x' })), allow: signedIn }],
  'POST /api/workorder/close/': [{ note: 'an unknown id', req: send('POST', '/api/workorder/close/', () => ({ id: 999999 })), allow: signedIn }],
  'POST /api/analysis/ingest/': [{ req: (r) => ({ method: 'POST', url: '/api/analysis/ingest/', payload: { records: [{ domain: 'x.example.org', time: 0, ip: '1.1.1.1', url: '/', status: 200 }] }, headers: { authorization: `Bearer nothing-${r.name}` } }), allow: anyone }],
  'GET /api/analysis/': [
    { req: get('/api/analysis/?bucket_name=demo-www'), allow: both(mayHold('log'), dataReaches('demo-www')), bucket: true },
    { req: get('/api/analysis/?bucket_name=demo-live'), allow: both(mayHold('log'), dataReaches('demo-live')), bucket: true },
    { note: 'a CDN service granted to none', req: get('/api/analysis/?bucket_name=demo-static'), allow: both(mayHold('log'), dataReaches('demo-static')), bucket: true },
  ],
  'GET /api/analysis/archives/': [{ req: get('/api/analysis/archives/?bucket_name=demo-www'), allow: both(mayHold('log'), dataReaches('demo-www')), bucket: true }],
  'GET /api/analysis/archives/download/': [{ note: 'a gzip file (not JSON)', req: get('/api/analysis/archives/download/?bucket_name=demo-www&domain=www.demo-example.com&hour=2020-01-01%2000:00'), allow: both(mayHold('log'), dataReaches('demo-www')), bucket: true, outOfReach: 21905 }],
  'GET /api/third_backup/list/': [{ req: get('/api/third_backup/list/'), allow: mayHold('file') }],
  'POST /api/third_backup/': [{ note: 'no secret', req: send('POST', '/api/third_backup/', () => ({ name: 'b', bucket_name: 'demo-assets', platform: 'aws_s3', region: 'us-east-1', target_bucket: 'matrix-target', access_key_id: 'k' })), allow: reaches('demo-assets', 'file'), bucket: true }],
  'GET /api/third_backup/configure/': [{ note: 'an unknown id', req: get('/api/third_backup/configure/?id=999999'), allow: mayHold('file') }],
  'POST /api/third_backup/configure/': [{ note: 'an unknown id', req: send('POST', '/api/third_backup/configure/', () => ({ id: 999999, name: 'b', bucket_name: 'demo-assets', platform: 'aws_s3', region: 'us-east-1', target_bucket: 'matrix-target', access_key_id: 'k' })), allow: reaches('demo-assets', 'file'), bucket: true }],
  'PUT /api/third_backup/configure/': [{ note: 'an unknown id', req: send('PUT', '/api/third_backup/configure/', () => ({ id: 999999, enabled: false })), allow: mayHold('file') }],
  'DELETE /api/third_backup/configure/': [{ note: 'an unknown id', req: send('DELETE', '/api/third_backup/configure/', () => ({ id: 999999 })), allow: mayHold('file') }],
  'GET /api/third_backup/logs/': [{ req: get('/api/third_backup/logs/'), allow: mayHold('file') }],
  'POST /api/third_backup/run/': [{ note: 'an unknown id', req: send('POST', '/api/third_backup/run/', () => ({ id: 999999 })), allow: mayHold('file') }],
  // external products, partner sign-in, referrals (helper H; docs/external-products.md, docs/referrals.md):
  // no product address configured here (no token is issued); an unknown token, app and invitee
  'GET /api/external/entry': [{ note: 'no address: the landing page', req: get('/api/external/entry?product=workorder'), allow: signedIn }],
  'POST /accounts/app/': [{ note: 'an unknown token', req: send('POST', '/accounts/app/', () => ({ token: 'no-such-token' })), allow: anyone }],
  'GET /api/oauth/app/': [{ note: 'an unknown app', req: get('/api/oauth/app/?app_id=nobody'), allow: anyone }],
  'GET /api/oauth/hash/': [{ note: 'an unknown app', req: get(`/api/oauth/hash/?app_id=nobody&redirect_uri=${encodeURIComponent('https://a.example/cb')}`), allow: signedIn }],
  'GET /api/accounts/invite-url/': [{ req: get('/api/accounts/invite-url/'), allow: isMain }],
  'GET /api/accounts/invitations/': [{ req: get('/api/accounts/invitations/?limit=1'), allow: isMain }],
  'POST /api/accounts/invitations/': [{ req: send('POST', '/api/accounts/invitations/', () => ({ limit: 1 })), allow: isMain }],
  'GET /api/accounts/invitations': [{ req: get('/api/accounts/invitations?limit=1'), allow: isMain }],
  'POST /api/accounts/invitations': [{ req: send('POST', '/api/accounts/invitations', () => ({ limit: 1 })), allow: isMain }],
  'GET /api/accounts/invitations/detail': [{ note: 'an unknown invitee', req: get('/api/accounts/invitations/detail?invitee_id=999999'), allow: isMain }],
  'GET /api/announcements/popup': [{ req: get('/api/announcements/popup'), allow: signedIn }],
  'POST /api/announcements/popup': [{ note: 'an unknown announcement', req: send('POST', '/api/announcements/popup', () => ({ id: 999999 })), allow: signedIn }],
  'GET /api/audit/exists': [{ req: get('/api/audit/exists?user_id=999999'), allow: isMain }],
  'GET /api/audit/services': [{ req: get('/api/audit/services'), allow: mayHold('cloud_audit') }],
  'POST /api/audit/services': [{ note: 'a kind without audit', req: send('POST', '/api/audit/services', () => ({ bucket_name: 'demo-live', enabled: true })), allow: both(isMain, reaches('demo-live', 'live')), bucket: true }],
  'GET /api/audit/records': [{ req: get('/api/audit/records?limit=1'), allow: mayHold('cloud_audit') }],
  'POST /api/audit/records/review': [{ note: 'an unknown record', req: send('POST', '/api/audit/records/review', () => ({ id: 999999, review_state: 'passed' })), allow: mayHold('cloud_audit') }],
  // end of helper H's block
  // these end the session: they run last for every role
  'GET /accounts/signout/': [{ req: get('/accounts/signout/'), allow: anyone }],
  'POST /accounts/signout/': [{ req: send('POST', '/accounts/signout/', () => ({})), allow: anyone }],
};
const LAST = ['GET /accounts/signout/', 'POST /accounts/signout/'];

/** Routes whose bucket_name names a service to be created, not one to reach. */
const CREATES_BUCKET = new Set(['PUT /api/buckets/']);

const ACCESS_REFUSALS = new Set([21110, 21104, 41014, 21111]);

async function bucketIdOf(name: string) {
  return (await s.db.selectFrom('buckets').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
}

async function sessionFor(userId: number): Promise<string> {
  const id = randomBytes(24).toString('base64url');
  await s.db.insertInto('sessions').values({ id: sessionKey(id), user_id: userId, expires_at: new Date(Date.now() + 3600_000) }).execute();
  return `sid=${id}`;
}

beforeAll(async () => {
  s = await startTestServer({ config: { smsOutboxApi: true } });
  const demoId = (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
  const hash = await hashPassword('demo123456');
  for (const r of roles) {
    if (r.kind === 'anonymous') continue;
    let userId = demoId;
    if (r.kind !== 'main') {
      const row = await s.db
        .insertInto('users')
        .values({
          username: `matrix_${r.name}`.slice(0, 40),
          password_hash: hash,
          email: null,
          mobile: null,
          verify_status: 'yes',
          parent_id: r.kind === 'child' ? demoId : null,
          status: r.status,
          permissions: JSON.stringify(r.permissions),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      userId = row.id;
      for (const b of r.granted) {
        const kind = (await s.db.selectFrom('buckets').select('kind').where('name', '=', b).executeTakeFirstOrThrow()).kind as ServiceKind;
        await s.db.insertInto('child_buckets').values({ child_id: userId, bucket_id: await bucketIdOf(b), bucket_type: KIND_PERMISSION[kind] }).execute();
      }
    }
    r.cookie = await sessionFor(userId);
  }
  const main = roles.find((r) => r.kind === 'main')!;
  const made = await s.app.inject({ method: 'PUT', url: '/api/buckets/rewrite/', payload: { ...EDGE_RULE, bucket_name: 'demo-static' }, headers: { cookie: main.cookie! } });
  edgeRuleId = made.json().data.rewrite_id;
  expect(edgeRuleId).toBeGreaterThan(0);
}, 120_000);
afterAll(async () => {
  await s.close();
});

function registered(): string[] {
  return routeTableOf(s.app)!
    .filter((r) => r.method !== 'HEAD' && !(r.url.startsWith('/app/') && !r.access))
    .map((r) => `${r.method} ${r.url}`);
}

describe('the matrix covers the route table', () => {
  it('has every registered route, and nothing else', () => {
    const routes = registered();
    const missing = routes.filter((r) => !(r in MATRIX));
    const stale = Object.keys(MATRIX).filter((k) => !routes.includes(k));
    expect({ missing, stale }).toEqual({ missing: [], stale: [] });
  });

  it('every route that works on the service named by a required bucket_name declares it, so the hook checks it', () => {
    const undeclared = routeTableOf(s.app)!
      .filter((r) => r.method !== 'HEAD')
      .filter((r) => {
        const required = (x?: Record<string, unknown>) => ((x?.required ?? []) as string[]);
        return required(r.querystring).includes('bucket_name') || required(r.body).includes('bucket_name');
      })
      .filter((r) => !CREATES_BUCKET.has(`${r.method} ${r.url}`) && !r.bucket)
      .map((r) => `${r.method} ${r.url}`);
    expect(undeclared).toEqual([]);
  });
});

describe.each(roles.map((r) => [r.name, r] as const))('role %s', (_name, r) => {
  it('reaches exactly what it may', async () => {
    const wrong: string[] = [];
    const keys = Object.keys(MATRIX).sort((a, b) => Number(LAST.includes(a)) - Number(LAST.includes(b)));
    for (const key of keys) {
      for (const c of MATRIX[key]) {
        const opts = c.req(r);
        const res = await s.app.inject({ ...opts, headers: { ...(opts.headers ?? {}), ...(r.cookie ? { cookie: r.cookie } : {}) } });
        let code: number | undefined;
        try {
          code = res.json().error_code;
        } catch {
          code = undefined;
        }
        const expectAllowed = c.allow(r);
        // the access hook never refuses a public route; such a route may answer codes of its own (a token of its own)
        const isPublic = routeTableOf(s.app)!.some((t) => `${t.method} ${t.url}` === key && t.access === 'public');
        if (c.allow === anyone && !isPublic) wrong.push(`${key}: open to anyone in the matrix but not declared public`);
        if (isPublic && c.allow !== anyone) wrong.push(`${key}: declared public but the matrix limits it`);
        const refused = !isPublic && ((code !== undefined && ACCESS_REFUSALS.has(code)) || (c.bucket === true && (code === 21905 || code === c.outOfReach)));
        if (expectAllowed && refused) wrong.push(`${key}${c.note ? ` (${c.note})` : ''}: refused with ${code}, should reach`);
        if (!expectAllowed && !refused) wrong.push(`${key}${c.note ? ` (${c.note})` : ''}: reached (HTTP ${res.statusCode}, ${code}), must be refused`);
        if (!expectAllowed && refused) expect([401, 403, 404]).toContain(res.statusCode);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('the lists show a sub-account only what it reaches', () => {
  it('lists by kind permission and, for cdn, file and live, by grant', async () => {
    const list = async (r: Role) => {
      const res = await s.app.inject({ method: 'GET', url: '/api/buckets/?limit=100', headers: { cookie: (await sessionFor(await idOf(r))) } });
      return res.json().data.map((b: any) => b.bucket_name).sort();
    };
    const byName = (n: string) => roles.find((r) => r.name === n)!;
    expect(await list(byName('child_authorized_cdn'))).toEqual(['demo-www']);
    expect(await list(byName('child_authorized_live'))).toEqual(['demo-live']);
    // without authorized_service too, the bucket lists decide the services of cdn, file and live (spec 000 §2.5, §6)
    expect(await list(byName('child_only_file'))).toEqual([]);
    expect(await list(byName('child_granted_all_data'))).toEqual(expect.arrayContaining(['demo-assets', 'demo-live', 'demo-www']));
    expect(await list(byName('child_granted_all_data'))).not.toContain('demo-static');
    expect(await list(byName('child_only_stats'))).toEqual([]);
    // the kinds without bucket lists (SCDN, WebSocket, overseas) open with the kind's permission
    const all = await list(byName('child_all'));
    const main = await list(byName('main'));
    const kindOf = new Map((await s.db.selectFrom('buckets').select(['name', 'kind']).execute()).map((b) => [b.name, b.kind]));
    expect(all).toEqual(main.filter((n: string) => ['scdn', 'websocket', 'overseas'].includes(kindOf.get(n)!)));
  });
});

async function idOf(r: Role): Promise<number> {
  const name = r.kind === 'main' ? 'demo' : `matrix_${r.name}`.slice(0, 40);
  return (await s.db.selectFrom('users').select('id').where('username', '=', name).executeTakeFirstOrThrow()).id;
}

describe('the access hook, on routes made for it', () => {
  let app: FastifyInstance;
  const NEEDS: Need[] = [...PERMISSIONS];
  beforeAll(async () => {
    app = Fastify();
    app.decorateRequest('user', null);
    // the test sends who it is in a header
    app.addHook('onRequest', async (req) => {
      const h = req.headers['x-user'];
      if (typeof h === 'string') req.user = JSON.parse(h);
    });
    registerAccessControl(app);
    app.setErrorHandler((err: any, _req, reply) => reply.status(err.status ?? 500).send({ error_code: err.code }));
    for (const p of NEEDS) app.get(`/user/${p}`, { config: { access: 'user', needs: [p] } }, async () => ({ ok: true }));
    app.get('/billing', { config: { access: 'parent', needs: ['bill'] } }, async () => ({ ok: true }));
    app.get('/parent', { config: { access: 'parent' } }, async () => ({ ok: true }));
    app.get('/stats-or-monitor', { config: { access: 'user', needs: ['stats', 'monitor'] } }, async () => ({ ok: true }));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  const user = (permissions: string[] | null) => ({
    id: 1, username: 'u', status: 'normal', parent_id: permissions ? 2 : null, permissions: permissions ?? [], account_id: 2,
  });
  const call = async (url: string, u: object | null) => (await app.inject({ method: 'GET', url, headers: u ? { 'x-user': JSON.stringify(u) } : {} })).statusCode;

  it.each(NEEDS.map((p) => [p]))('a route needing %s: main yes; a sub-account with it yes, without it 403', async (p) => {
    expect(await call(`/user/${p}`, null)).toBe(401);
    expect(await call(`/user/${p}`, user(null))).toBe(200);
    expect(await call(`/user/${p}`, user([p as Permission]))).toBe(200);
    expect(await call(`/user/${p}`, user(PERMISSIONS.filter((x) => x !== p)))).toBe(403);
  });

  it('parent-only plus bill: a sub-account holding bill passes; parent-only alone keeps every sub-account out', async () => {
    expect(await call('/billing', user(null))).toBe(200);
    expect(await call('/billing', user(['bill']))).toBe(200);
    expect(await call('/billing', user(['stats', 'cdn']))).toBe(403);
    expect(await call('/parent', user(null))).toBe(200);
    expect(await call('/parent', user([...PERMISSIONS]))).toBe(403);
  });

  it('several needs: any one of them is enough', async () => {
    expect(await call('/stats-or-monitor', user(['monitor']))).toBe(200);
    expect(await call('/stats-or-monitor', user(['stats']))).toBe(200);
    expect(await call('/stats-or-monitor', user(['cache']))).toBe(403);
  });

  it('refuses to register a route without access, or a public route with needs', async () => {
    const bare = Fastify();
    registerAccessControl(bare);
    expect(() => bare.get('/x', async () => ({}))).toThrow(/does not declare config.access/);
    expect(() => bare.get('/y', { config: { access: 'public', needs: ['cdn'] } }, async () => ({}))).toThrow(/public but declares needs/);
    await bare.close();
  });
});
