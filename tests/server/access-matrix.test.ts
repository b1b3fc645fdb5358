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
import { CREATE_PERMISSION, KIND_PERMISSION, PERMISSIONS, type Need, type Permission } from '../../src/shared/permissions';
import type { ServiceKind } from '../../src/shared/services';
import { hashPassword } from '../../src/server/accounts/passwords';

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
role('child_disabled', 'child', { permissions: [...ALL], status: 'disabled' });

// ---- who may reach what ----
const signedIn = (r: Role) => r.kind !== 'anonymous' && r.status === 'normal';
const isMain = (r: Role) => signedIn(r) && (r.kind === 'main' || r.kind === 'other');
const anyone = () => true;
const holds = (r: Role, p: string) => r.permissions.includes(p);
/** The user reaches one of demo's buckets. */
const reaches = (bucket: string, kind: ServiceKind) => (r: Role) =>
  signedIn(r) && (r.kind === 'main' || (r.kind === 'child' && holds(r, KIND_PERMISSION[kind]) && (!holds(r, 'authorized_service') || r.granted.includes(bucket))));
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
/** A rule on demo-static, made by demo before the roles run. */
let edgeRuleId = 0;

/** "METHOD url" of every registered route → its cases. */
const MATRIX: Record<string, Case[]> = {
  'GET /accounts/two_step_verify/status/': [{ req: get('/accounts/two_step_verify/status/?username=demo'), allow: anyone }],
  'PUT /accounts/two_step_verify/code': [{ req: send('PUT', '/accounts/two_step_verify/code', (r) => ({ username: `nobody_${r.name}`, password: 'wrong' })), allow: anyone }],
  'POST /accounts/signin/': [{ req: send('POST', '/accounts/signin/', (r) => ({ username: `nobody_${r.name}`, password: 'wrong' })), allow: anyone }],
  'GET /api/accounts/v2/usage/': [{ req: get('/api/accounts/v2/usage/'), allow: signedIn }],
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
      '/api/flow/statistic/download/', '/api/flow/websocket/download/', '/api/flow/abroad/download/', '/api/flow/scdn/statistic/download/', '/api/cdn/mingmou/download',
    ].map((url) => [`GET ${url}`, [{ req: get(url), allow: mayHold('stats') }]]),
  ),
  'GET /api/accounts/price_config': [{ req: get('/api/accounts/price_config'), allow: signedIn }],
  'POST /api/flow/ingest/token': [{ req: send('POST', '/api/flow/ingest/token', () => ({})), allow: isMain }],
  // the log pipeline's route: public, with a token of its own (an invalid one here)
  'POST /api/flow/ingest/': [{ req: (r) => ({ method: 'POST', url: '/api/flow/ingest/', payload: { slot: 0, records: [] }, headers: { authorization: `Bearer nothing-${r.name}` } }), allow: anyone }],
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
  // purge and preheat (spec 002): the cache permission; a domain of no one's here
  'POST /api/purge/': [{ req: send('POST', '/api/purge/', () => ({ urls: ['http://nowhere.example.org/a.png'] })), allow: mayHold('cache') }],
  'POST /api/buckets/purge/batch/': [{ req: send('POST', '/api/buckets/purge/batch/', () => ({ source_url: 'http://nowhere.example.org/a.png' })), allow: mayHold('cache') }],
  'POST /api/buckets/purge/': [{ req: send('POST', '/api/buckets/purge/', () => ({ rules: ['http://nowhere.example.org/*'] })), allow: mayHold('cache') }],
  'POST /api/preheat': [{ req: send('POST', '/api/preheat', () => ({ urls: ['http://nowhere.example.org/a.png'] })), allow: mayHold('cache') }],
  'GET /api/purge/list': [{ req: get('/api/purge/list'), allow: mayHold('cache') }],
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
  'GET /api/ip': [{ req: get('/api/ip'), allow: signedIn }],
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
  await s.db.insertInto('sessions').values({ id, user_id: userId, expires_at: new Date(Date.now() + 3600_000) }).execute();
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
  it('lists and counts by kind permission and grants', async () => {
    const list = async (r: Role) => {
      const res = await s.app.inject({ method: 'GET', url: '/api/buckets/?limit=100', headers: { cookie: (await sessionFor(await idOf(r))) } });
      return res.json().data.map((b: any) => b.bucket_name).sort();
    };
    const byName = (n: string) => roles.find((r) => r.name === n)!;
    expect(await list(byName('child_authorized_cdn'))).toEqual(['demo-www']);
    expect(await list(byName('child_authorized_live'))).toEqual(['demo-live']);
    const onlyFile = await list(byName('child_only_file'));
    expect(onlyFile).toEqual(['demo-assets', 'demo-backup']);
    expect(await list(byName('child_only_stats'))).toEqual([]);
    const all = await list(byName('child_all'));
    const main = await list(byName('main'));
    expect(all).toEqual(main);
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
