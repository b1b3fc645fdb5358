/** The static data served by the console's own server (spec 000 §7 "Other"). */
import { startTestServer, Client, type TestServer } from './helpers';
import { REGIONS } from '../../src/shared/stats/constants';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ seed: false });
});
afterAll(() => s.close());

test('the country-code map merges Hong Kong, Macau and Taiwan into the mainland entry', async () => {
  const r = await new Client(s.app).get('/api/static/country-codes.json');
  expect(r.statusCode).toBe(200);
  const map = r.json();
  expect(map.CN).toBe('中国');
  expect([map.HK, map.MO, map.TW]).toEqual(['中国', '中国', '中国']);
  expect(map.JP).toBe('日本');
});

test('locations: every province with its cities, Hong Kong, Macau and Taiwan included', async () => {
  const list = (await new Client(s.app).get('/api/static/locations.json')).json();
  expect(list).toHaveLength(34);
  expect(list[0]).toMatchObject({ code: '11', name: '北京市' });
  expect(list.find((p: any) => p.name === '广东省').cities.map((c: any) => c.name)).toContain('深圳市');
  expect(list.map((p: any) => p.name)).toEqual(expect.arrayContaining(['香港特别行政区', '澳门特别行政区', '台湾省']));
});

test('the China map names each province by its statistics region code', async () => {
  const geo = (await new Client(s.app).get('/api/static/china-map.json')).json();
  expect(geo.type).toBe('FeatureCollection');
  const regions = geo.features.map((f: any) => f.properties.region).filter(Boolean);
  // every mainland province, Hong Kong, Macau and Taiwan has an outline
  const onMap = Object.keys(REGIONS).filter((k) => !['asia_pacific', 'europe', 'north_america', 'south_america', 'africa', 'oceania'].includes(k));
  expect(new Set(regions)).toEqual(new Set(onMap));
  // wound for a spherical projection: each outline is a province, not the rest of the globe
  const { geoArea } = await import('@visx/vendor/d3-geo');
  for (const f of geo.features) expect(geoArea(f)).toBeLessThan(0.1);
});

test('answers are cacheable: a matching ETag gets 304; an unknown name is 404', async () => {
  const c = new Client(s.app);
  const first = await c.get('/api/static/industries.json');
  expect(first.json()).toContain('互联网');
  expect(first.headers['cache-control']).toBe('public, max-age=86400');
  const again = await c.request({ method: 'GET', url: '/api/static/industries.json', headers: { 'if-none-match': String(first.headers.etag) } });
  expect(again.statusCode).toBe(304);
  expect((await c.get('/api/static/secrets.json')).statusCode).toBe(404);
});
