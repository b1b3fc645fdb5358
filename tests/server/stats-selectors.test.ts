/**
 * The statistics screen's selector lists (spec 001 §2.4, §4 "Selector paging"; src/server/stats/lists.ts):
 * services of a flow type with their domains (read in the page's own statement), searched by part of the
 * name, paged by cursor; domains of a flow type, limited to a service.
 */
import { FLOW_TYPE_KINDS } from '../../src/shared/stats/constants';
import { startTestServer, Client, type TestServer } from './helpers';

describe('statistics selectors', () => {
  let t: TestServer;
  let c: Client;

  beforeAll(async () => {
    t = await startTestServer();
    c = await new Client(t.app).signIn('demo');
  }, 60_000);
  afterAll(async () => t?.close());

  /** The demo account's services of the kinds given, each with its domains in the order they were added. */
  async function expected(kinds: string[]) {
    const user = await t.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow();
    const buckets = await t.db.selectFrom('buckets').select(['id', 'name']).where('owner_id', '=', user.id).where('kind', 'in', kinds).orderBy('id').execute();
    const domains = await t.db.selectFrom('bucket_domains').select(['bucket_id', 'domain']).orderBy('id').execute();
    return buckets.map((b) => ({ name: b.name, domains: domains.filter((d) => d.bucket_id === b.id).map((d) => d.domain) }));
  }

  it('answers the services of a flow type with their domains, page by page', async () => {
    const want = await expected([...FLOW_TYPE_KINDS.cdn]);
    expect(want.some((b) => b.domains.length > 1)).toBe(true);
    const seen: { name: string; domains: string[] }[] = [];
    let url = '/api/stats/buckets/?flow_type=cdn&limit=4';
    for (let i = 0; i < 50; i++) {
      const body = (await c.get(url)).json();
      expect(body.error_code).toBe(0);
      for (const b of body.data) seen.push({ name: b.bucket_name, domains: b.domains.map((d: { domain: string }) => d.domain) });
      expect(body.data.length).toBeLessThanOrEqual(4);
      if (body.pager?.max == null) break;
      url = `/api/stats/buckets/?flow_type=cdn&limit=4&max=${body.pager.max}`;
    }
    expect(seen.map((b) => b.name).sort()).toEqual(want.map((b) => b.name).sort());
    for (const b of want) expect(seen.find((s) => s.name === b.name)!.domains).toEqual(b.domains);
  });

  it('finds services by part of the name, and a service without domains has none', async () => {
    const body = (await c.get('/api/stats/buckets/?flow_type=cdn&search=www')).json();
    expect(body.data.map((b: { bucket_name: string }) => b.bucket_name)).toEqual(['demo-www']);
    expect(body.data[0].domains.length).toBeGreaterThan(0);
    const none = (await c.get('/api/stats/buckets/?flow_type=cdn&search=%25%25')).json();
    expect(none.data).toEqual([]);
    const bare = (await expected([...FLOW_TYPE_KINDS.cdn])).find((b) => b.domains.length === 0);
    if (bare) {
      const row = (await c.get(`/api/stats/buckets/?flow_type=cdn&search=${bare.name}`)).json().data.find((b: { bucket_name: string }) => b.bucket_name === bare.name);
      expect(row.domains).toEqual([]);
    }
  });

  it('answers the domains of one service in the domain selector', async () => {
    const www = (await expected([...FLOW_TYPE_KINDS.cdn])).find((b) => b.name === 'demo-www')!;
    const body = (await c.get('/api/domains/buckets?flow_type=cdn&bucket_name=demo-www&limit=100')).json();
    expect(body.data.map((d: { domain: string }) => d.domain)).toEqual(www.domains);
    expect(new Set(body.data.map((d: { bucket_name: string }) => d.bucket_name))).toEqual(new Set(['demo-www']));
  });

  it('refuses a flow type it does not know and a page size out of range', async () => {
    for (const q of ['flow_type=nope', 'flow_type=cdn&limit=0']) {
      const res = await c.get(`/api/stats/buckets/?${q}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error_code).toBeGreaterThan(0);
    }
  });
});
