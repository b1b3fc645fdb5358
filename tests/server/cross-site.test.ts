/**
 * Requests from another site (issue 21 item 5, docs/security.md): every route of the route table,
 * whatever its method — GETs included, since some change state (sign-out, cancelling a certificate
 * order, deploying a certificate) — is refused with 403 21112 when the browser says the request came
 * from another site or its Origin/Referer names another origin, before any handler runs; nothing in
 * the database changes. Only the read-only routes that declare `crossSite: 'allow'` are open.
 */
import Fastify from 'fastify';
import { startTestServer, Client, type TestServer } from './helpers';
import { routeTableOf } from '../../src/server/openapi/collect';
import { crossSiteRoutesOf, registerOriginCheck } from '../../src/server/http/origin';
import { errorText } from '../../src/shared/errors';

let s: TestServer;
let demo: Client;

beforeAll(async () => {
  s = await startTestServer({ config: { publicUrl: 'https://console.example.com' } });
  demo = await new Client(s.app).signIn('demo');
});
afterAll(async () => {
  await s.close();
});

/** Every table's rows, as one fingerprint per table. */
async function fingerprint(): Promise<Record<string, string>> {
  const { sql } = await import('kysely');
  const tables = await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = 'public' order by tablename`.execute(s.db);
  const out: Record<string, string> = {};
  for (const { name } of tables.rows) {
    const r = await sql<{ f: string }>`select count(*)::text || ':' || coalesce(md5(string_agg(t::text, ',' order by t::text)), '') as f from ${sql.table(name)} t`.execute(s.db);
    out[name] = r.rows[0].f;
  }
  return out;
}

/** The routes of the API as the route table has them (no HEAD twins, no console files). */
function apiRoutes() {
  return routeTableOf(s.app)!.filter((r) => r.method !== 'HEAD' && r.access);
}

const ALLOWED = ['GET /.well-known/acme-challenge/:token', 'GET /api/docs/', 'GET /api/openapi.json', 'GET /api/static/:name'];
const concrete = (url: string) => url.replace(/:\w+/g, 'x').replace(/\*/g, 'x');

describe('every route refuses other sites', () => {
  it('lets only the declared read-only routes be called from another site', () => {
    expect([...crossSiteRoutesOf(s.app)].sort()).toEqual(ALLOWED);
  });

  it('refuses each of the others with 21112 in five ways, and nothing changes', async () => {
    const before = await fingerprint();
    const routes = apiRoutes().filter((r) => !ALLOWED.includes(`${r.method} ${r.url}`));
    const ways: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example', referer: 'https://evil.example/page' },
      { referer: 'http://localhost.evil.example/' },
      // the same host over another scheme is another origin
      { origin: 'https://localhost' },
    ];
    const wrong: string[] = [];
    let sent = 0;
    for (const r of routes) {
      for (const headers of ways) {
        const res = await demo.request({ method: r.method as 'GET', url: concrete(r.url), headers, ...(r.method === 'GET' ? {} : { payload: {} }) });
        sent++;
        if (res.statusCode !== 403 || res.json().error_code !== 21112) wrong.push(`${r.method} ${r.url} ${JSON.stringify(headers)} → ${res.statusCode} ${res.body.slice(0, 80)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await fingerprint()).toEqual(before);
    // the session survived the cross-site sign-out links
    expect((await demo.get('/api/accounts/v2/usage/')).statusCode).toBe(200);
    // eslint-disable-next-line no-console
    console.log(`cross-site: ${routes.length} routes checked (${sent} requests), ${ALLOWED.length} read-only routes open to other sites`);
  });

  it('answers the refusal with the catalogue text', async () => {
    const res = await demo.request({ method: 'GET', url: '/accounts/signout/', headers: { 'sec-fetch-site': 'cross-site' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ result: false, error_code: 21112, message: errorText(21112) });
    expect((await demo.get('/api/accounts/v2/usage/')).statusCode).toBe(200);
  });
});

describe('requests of this site pass', () => {
  it('passes the same origin, by the browser’s word, by Origin, by Referer, and through PUBLIC_URL', async () => {
    for (const headers of [{ 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }, { origin: 'http://localhost' }, { referer: 'http://localhost/dashboard/' }, { origin: 'https://console.example.com' }, {}]) {
      const res = await demo.request({ method: 'GET', url: '/api/accounts/v2/usage/', headers });
      expect(res.statusCode).toBe(200);
    }
    const captcha = await demo.request({ method: 'POST', url: '/accounts/manmachine/next', payload: {}, headers: { origin: 'https://console.example.com', 'sec-fetch-site': 'same-origin' } });
    expect(captcha.statusCode).toBe(200);
  });

  it('keeps the console pages reachable from other sites (a link to /login/)', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/login/', headers: { 'sec-fetch-site': 'cross-site', referer: 'https://www.example.com/' } });
    expect(res.statusCode).not.toBe(403);
  });

  it('opens the declared read-only routes to other sites', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { 'sec-fetch-site': 'cross-site' } });
    expect(res.statusCode).toBe(200);
  });
});

it('refuses to register a route that writes and lets other sites in', async () => {
  const app = Fastify();
  app.decorate('publicUrl', 'http://127.0.0.1:8080');
  registerOriginCheck(app);
  expect(() => app.post('/x', { config: { access: 'public', crossSite: 'allow' } }, async () => 'x')).toThrow(/not a GET/);
  await app.close();
});
