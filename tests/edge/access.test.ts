/**
 * Access control and paused services on the edge (docs/edge.md "Access control, paused services and
 * origins"): Referer 防盗链 and IP 黑白名单 saved through the API as the customer, proven by real requests
 * through nginx on both ports; a service paused by its bandwidth cap (the real cost-control job over
 * 5-minute traffic rows) answers the "service closed" page, and serves again once resumed.
 */
import { startEdgeStack, type EdgeStack } from './harness';
import { runCostControl } from '../../src/server/domains/costControl';
import { EDGE_TEXTS } from '../../src/shared/edge';

let edge: EdgeStack;

beforeAll(async () => {
  edge = await startEdgeStack();
  await edge.waitLive();
}, 120_000);
afterAll(async () => {
  await edge?.close();
});

const WWW = 'www.demo-example.com';
const STATIC = 'static.demo-example.com';
const ACT = 'act1.demo-example.com';

const withReferer = (referer?: string) => (referer === undefined ? {} : { headers: { referer } });
/** The status of one request with this Referer (undefined: no Referer header at all). */
const refererStatus = async (referer: string | undefined, https = false) => (await edge.request(WWW, '/echo/referer', { ...withReferer(referer), https })).status;

describe('Referer 防盗链', () => {
  test('whitelist: listed hosts and subdomains of a wildcard pass, others get 403; empty Referer as configured', async () => {
    await edge.saveLive('demo-www', 'referer_antileech', { mode: 'whitelist', domains: ['www.allowed.com', '*.friends.org'], allow_empty_referer: true });
    expect(await refererStatus('http://www.allowed.com/page.html')).toBe(200);
    expect(await refererStatus('https://WWW.Allowed.COM:8443/x?y=1')).toBe(200);
    expect(await refererStatus('https://a.friends.org/')).toBe(200);
    expect(await refererStatus('https://deep.a.friends.org/')).toBe(200);
    // *.friends.org is the subdomains, not friends.org itself
    expect(await refererStatus('https://friends.org/')).toBe(403);
    expect(await refererStatus('http://allowed.com/')).toBe(403);
    expect(await refererStatus('http://www.allowed.com.evil.net/')).toBe(403);
    expect(await refererStatus('http://evil.net/?www.allowed.com')).toBe(403);
    // not a URL at all: no listed host
    expect(await refererStatus('www.allowed.com')).toBe(403);
    // no Referer, or an empty one: allowed
    expect(await refererStatus(undefined)).toBe(200);
    expect(await refererStatus('')).toBe(200);
    const refused = await edge.request(WWW, '/echo/referer-refused', withReferer('http://evil.net/'));
    expect(refused.status).toBe(403);
    expect(refused.headers['x-cache']).toBe('MISS');
    expect(edge.origin.hits.get('/echo/referer-refused')).toBeUndefined();

    await edge.saveLive('demo-www', 'referer_antileech', { mode: 'whitelist', domains: ['www.allowed.com', '*.friends.org'], allow_empty_referer: false });
    expect(await refererStatus(undefined)).toBe(403);
    expect(await refererStatus('')).toBe(403);
    expect(await refererStatus('http://www.allowed.com/')).toBe(200);
  });

  test('blacklist: listed hosts get 403, the others and (when allowed) no Referer pass', async () => {
    await edge.saveLive('demo-www', 'referer_antileech', { mode: 'blacklist', domains: ['leech.example.net', '*.pirates.io'], allow_empty_referer: true });
    expect(await refererStatus('http://leech.example.net/a.html')).toBe(403);
    expect(await refererStatus('https://cdn.pirates.io/')).toBe(403);
    expect(await refererStatus('https://pirates.io/')).toBe(200);
    expect(await refererStatus('https://fine.example.net/')).toBe(200);
    expect(await refererStatus('not a url')).toBe(200);
    expect(await refererStatus(undefined)).toBe(200);
    await edge.saveLive('demo-www', 'referer_antileech', { mode: 'blacklist', domains: ['leech.example.net'], allow_empty_referer: false });
    expect(await refererStatus(undefined)).toBe(403);
    expect(await refererStatus('https://fine.example.net/')).toBe(200);
  });

  test('the same over HTTPS; off lets every Referer through', async () => {
    await edge.enableHttps(WWW);
    await edge.saveLive('demo-www', 'referer_antileech', { mode: 'whitelist', domains: ['www.allowed.com'], allow_empty_referer: true });
    expect(await refererStatus('https://www.allowed.com/', true)).toBe(200);
    expect(await refererStatus('https://evil.net/', true)).toBe(403);
    await edge.saveLive('demo-www', 'referer_antileech', { mode: 'off', domains: [], allow_empty_referer: true });
    expect(await refererStatus('https://evil.net/', true)).toBe(200);
    expect(await refererStatus('http://evil.net/')).toBe(200);
  });
});

describe('IP 黑白名单', () => {
  const ipStatus = async (localAddress: string, https = false) => (await edge.request(STATIC, '/echo/ip', { localAddress, https })).status;

  beforeAll(async () => {
    await edge.enableHttps(STATIC);
    await edge.waitLive();
  });

  test('blacklist: a listed address or a network of the list gets 403 on both ports; the others pass', async () => {
    await edge.saveLive('demo-static', 'ip_antileech', { mode: 'blacklist', ips: ['127.0.0.2', '127.0.5.0/24'] });
    for (const https of [false, true]) {
      expect(await ipStatus('127.0.0.1', https)).toBe(200);
      expect(await ipStatus('127.0.0.2', https)).toBe(403);
      expect(await ipStatus('127.0.0.3', https)).toBe(200);
      expect(await ipStatus('127.0.5.9', https)).toBe(403);
      expect(await ipStatus('127.0.6.9', https)).toBe(200);
    }
    // the origin sees the real client address over HTTPS too (the PROXY protocol, realip)
    const echo = JSON.parse((await edge.request(STATIC, '/echo/who', { localAddress: '127.0.0.3', https: true })).text);
    expect(echo.headers['x-real-ip']).toBe('127.0.0.3');
  });

  test('a forwarded header does not change who the client is', async () => {
    const res = await edge.request(STATIC, '/echo/ip', { localAddress: '127.0.0.2', headers: { 'x-forwarded-for': '1.2.3.4', 'x-real-ip': '1.2.3.4' } });
    expect(res.status).toBe(403);
  });

  test('whitelist: only listed addresses and networks pass, on both ports; off lets everyone through', async () => {
    await edge.saveLive('demo-static', 'ip_antileech', { mode: 'whitelist', ips: ['127.0.0.4', '127.0.7.0/24'] });
    for (const https of [false, true]) {
      expect(await ipStatus('127.0.0.4', https)).toBe(200);
      expect(await ipStatus('127.0.7.200', https)).toBe(200);
      expect(await ipStatus('127.0.0.1', https)).toBe(403);
      expect(await ipStatus('127.0.8.1', https)).toBe(403);
    }
    await edge.saveLive('demo-static', 'ip_antileech', { mode: 'off', ips: [] });
    expect(await ipStatus('127.0.0.1')).toBe(200);
    expect(await ipStatus('127.0.8.1', true)).toBe(200);
  });

  test('IP and Referer together: either refusal is a 403', async () => {
    await edge.save('demo-static', 'ip_antileech', { mode: 'blacklist', ips: ['127.0.0.2'] });
    await edge.saveLive('demo-static', 'referer_antileech', { mode: 'blacklist', domains: ['leech.example.net'], allow_empty_referer: true });
    expect((await edge.request(STATIC, '/echo/both', { localAddress: '127.0.0.2' })).status).toBe(403);
    expect((await edge.request(STATIC, '/echo/both', { localAddress: '127.0.0.3', headers: { referer: 'http://leech.example.net/' } })).status).toBe(403);
    expect((await edge.request(STATIC, '/echo/both', { localAddress: '127.0.0.3', headers: { referer: 'http://ok.example.net/' } })).status).toBe(200);
    await edge.save('demo-static', 'referer_antileech', { mode: 'off', domains: [], allow_empty_referer: true });
    await edge.saveLive('demo-static', 'ip_antileech', { mode: 'off', ips: [] });
  });
});

describe('带宽封顶: a paused service', () => {
  const slotOf = (t: Date) => new Date(Math.floor(t.getTime() / 300000) * 300000 - 300000);
  /** One 5-minute row of `mbps` for the service's first domain. */
  async function traffic(bucket: string, slot: Date, mbps: number) {
    const d = await edge.server.db
      .selectFrom('bucket_domains')
      .innerJoin('buckets', 'buckets.id', 'bucket_domains.bucket_id')
      .select(['bucket_domains.id', 'buckets.id as bucket_id', 'buckets.owner_id'])
      .where('buckets.name', '=', bucket)
      .orderBy('bucket_domains.id')
      .executeTakeFirstOrThrow();
    await edge.server.db.insertInto('traffic_5m').values({ domain_id: d.id, bucket_id: d.bucket_id, account_id: d.owner_id, flow_type: 'cdn', direction: '', slot, bytes: Math.round((mbps * 1e6 * 300) / 8) } as any).execute();
  }

  test('the job pauses it over its cap: 403 with the closed page on both ports, nothing reaches the origin; raising the cap resumes it', async () => {
    await edge.enableHttps(ACT);
    await edge.waitLive();
    expect((await edge.request(ACT, '/echo/before')).status).toBe(200);

    const now = new Date();
    await traffic('demo-cdn-01', slotOf(now), 120);
    await edge.save('demo-cdn-01', 'cost_control', { enable: true, bandwidth_cap_mbps: 100, action: 'pause', auto_resume: false });
    expect((await runCostControl(edge.server.db, now)).paused).toEqual(['demo-cdn-01']);
    const state = await edge.server.db.selectFrom('cost_control_state as st').innerJoin('buckets as b', 'b.id', 'st.bucket_id').select(['st.paused']).where('b.name', '=', 'demo-cdn-01').executeTakeFirstOrThrow();
    expect(state.paused).toBe(true);
    await edge.waitLive();

    for (const https of [false, true]) {
      const closed = await edge.request(ACT, '/echo/while-paused', { https });
      expect(closed.status).toBe(403);
      expect(closed.headers['content-type']).toMatch(/^text\/html/);
      expect(closed.text).toContain(`<title>${EDGE_TEXTS.serviceClosed}</title>`);
      expect(closed.text).toContain('该服务已达到带宽封顶上限，暂停访问');
      expect(closed.headers['x-cache']).toBe('MISS');
    }
    // every path, cached before or not
    expect((await edge.request(ACT, '/css/site.css')).status).toBe(403);
    expect(edge.origin.hits.get('/echo/while-paused')).toBeUndefined();
    // the other services keep serving
    expect((await edge.request(WWW, '/echo/others')).status).toBe(200);
    // the console's edge status is not a refusal
    const status = JSON.parse((await edge.client.get('/api/buckets/edge/?bucket_name=demo-cdn-01')).body).data;
    expect(status.state).toBe('applied');

    // raising the cap resumes at once: the save itself, no run of the job (issue 34 item 15)
    await edge.save('demo-cdn-01', 'cost_control', { enable: true, bandwidth_cap_mbps: 200, action: 'pause', auto_resume: false });
    await edge.waitLive();
    const back = await edge.request(ACT, '/echo/after');
    expect(back.status).toBe(200);
    expect(JSON.parse(back.text).uri).toBe('/echo/after');
    expect((await edge.request(ACT, '/echo/after', { https: true })).status).toBe(200);
  });

  test('turning the cap off resumes a paused service; notify-only never pauses', async () => {
    const now = new Date();
    await traffic('demo-cdn-02', slotOf(now), 50);
    await edge.save('demo-cdn-02', 'cost_control', { enable: true, bandwidth_cap_mbps: 10, action: 'pause', auto_resume: true });
    expect((await runCostControl(edge.server.db, now)).paused).toEqual(['demo-cdn-02']);
    await edge.waitLive();
    expect((await edge.request('act2.demo-example.com', '/echo/x')).status).toBe(403);
    // the save resumes it; the job then has nothing left to resume
    await edge.save('demo-cdn-02', 'cost_control', { enable: false, bandwidth_cap_mbps: 10, action: 'pause', auto_resume: true });
    await edge.waitLive();
    expect((await runCostControl(edge.server.db, now)).resumed).toEqual([]);
    expect((await edge.request('act2.demo-example.com', '/echo/x')).status).toBe(200);

    await traffic('demo-cdn-03', slotOf(now), 50);
    await edge.save('demo-cdn-03', 'cost_control', { enable: true, bandwidth_cap_mbps: 10, action: 'notify', auto_resume: true });
    expect(await runCostControl(edge.server.db, now)).toMatchObject({ paused: [], notified: ['demo-cdn-03'] });
    await edge.waitLive();
    expect((await edge.request('act3.demo-example.com', '/echo/x')).status).toBe(200);
  });
});
