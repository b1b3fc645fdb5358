/**
 * The domain-follow check of spec 001 §4: back-to-origin statistics by domain only for services whose
 * origin Host follows the accelerated domain (the origin setting's host empty, the default).
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { BACKSOURCE_FOLLOW_TEXT } from '../../src/shared/stats/constants';

let s: TestServer;
let demo: Client;
beforeAll(async () => {
  s = await startTestServer({ statsSettings: true });
  demo = await new Client(s.app).signIn('demo');
  // demo-static sends a fixed origin Host; demo-www keeps the default (follows the domain)
  const bucket = await s.db.selectFrom('buckets').select('id').where('name', '=', 'demo-static').executeTakeFirstOrThrow();
  const user = await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow();
  await s.db.insertInto('service_settings').values({ bucket_id: bucket.id, setting_id: 'origin', value: JSON.stringify({ protocol: 'http', host: 'origin.demo-example.com', servers: [], failover: false }), updated_by: user.id }).execute();
});
afterAll(() => s?.close());

const domainsOf = async (bucket: string) =>
  (await s.db.selectFrom('bucket_domains as d').innerJoin('buckets as b', 'b.id', 'd.bucket_id').select('d.domain').where('b.name', '=', bucket).execute()).map((r) => r.domain);

test('the check names which selected domains follow', async () => {
  const [www] = await domainsOf('demo-www');
  const [stat] = await domainsOf('demo-static');
  const r = await demo.get(`/api/flow/backsource/follow/?query_value=${www},${stat}`);
  expect(r.statusCode).toBe(200);
  expect(r.json().data).toEqual(expect.arrayContaining([
    { domain: www, bucket_name: 'demo-www', follows: true },
    { domain: stat, bucket_name: 'demo-static', follows: false },
  ]));
  // another account's domain is out of reach
  expect((await demo.get('/api/flow/backsource/follow/?query_value=www.secure-example.com')).json().error_code).toBe(21905);
});

test('back-to-origin by domain is refused for a service with a fixed origin Host, answered otherwise', async () => {
  const [www] = await domainsOf('demo-www');
  const [stat] = await domainsOf('demo-static');
  const q = (domains: string, source: string) => demo.get(`/api/flow/statistic/?flow_source=${source}&query_type=domain&query_value=${domains}`);
  const refused = await q(`${www},${stat}`, 'backsource');
  expect(refused.statusCode).toBe(400);
  expect(refused.json()).toMatchObject({ error_code: 21000, errors: [{ path: '/query_value', message: BACKSOURCE_FOLLOW_TEXT }] });
  expect((await q(www, 'backsource')).statusCode).toBe(200);
  // the edge traffic of the same domains, and back-to-origin by service, are not concerned
  expect((await q(`${www},${stat}`, 'cdn')).statusCode).toBe(200);
  expect((await demo.get('/api/flow/statistic/?flow_source=backsource&query_type=bucket&query_value=demo-www,demo-static')).statusCode).toBe(200);
});
