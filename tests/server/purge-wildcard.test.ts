/**
 * A wildcard domain's owner purges and preheats URLs under it (issue 34 item 15: 21224 before). A host is
 * the account's when the domain that serves it on the edge is — its own name, else its nearest wildcard
 * parent (src/shared/domains.ts servingCandidates, the order of edge_core.lua's host_id) — so a name under
 * the wildcard that another account binds exactly stays that account's. The node's task names the service.
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { registerNode } from '../../src/server/edge/repo';

let s: TestServer;
let c: Client;
let other: Client;
beforeAll(async () => {
  s = await startTestServer();
  c = await new Client(s.app).signIn('demo');
  other = await new Client(s.app).signIn('demonew');
}, 180000);
afterAll(async () => {
  await s.close();
});

const bucketId = async (name: string) => (await s.db.selectFrom('buckets').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;

test('URLs under *.wild-example.com are the owner’s; another account’s exact name under it and the bare parent are not', async () => {
  expect((await c.post('/api/account/domains/', { bucket_name: 'demo-cdn-03', domain: '*.wild-example.com' })).statusCode).toBe(200);
  // another account's service holding a name under the wildcard exactly (bound in the table: the account is not verified)
  const theirs = 'wild-other';
  expect((await other.put('/api/buckets/', { bucket_name: theirs, kind: 'cdn', domains: [] })).statusCode).toBe(200);
  await s.db.insertInto('bucket_domains').values({ bucket_id: await bucketId(theirs), domain: 'www.wild-example.com', cname: 'wild-other.cdn-cname.example.net' }).execute();

  const res = await c.post('/api/purge/', { urls: ['https://a.wild-example.com/index.html', 'http://A.B.Wild-Example.com/app.js'] });
  expect(res.statusCode).toBe(200);
  expect(res.json().data.count).toBe(2);
  const ids: number[] = res.json().data.task_ids;
  expect((await c.post('/api/preheat', { urls: ['https://img.wild-example.com/logo.png'] })).statusCode).toBe(200);
  expect((await c.post('/api/buckets/purge/', { rules: ['https://img.wild-example.com/static/*'] })).statusCode).toBe(200);

  for (const url of ['https://www.wild-example.com/x.html', 'https://wild-example.com/x.html']) {
    const r = await c.post('/api/purge/', { urls: ['https://a.wild-example.com/ok.html', url] });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ error_code: 21224, errors: [{ path: '/urls/1' }] });
  }
  // and the other account cannot purge under the wildcard, only its own name
  expect((await other.post('/api/purge/', { urls: ['https://a.wild-example.com/x.html'] })).json()).toMatchObject({ error_code: 21224 });
  expect((await other.post('/api/purge/', { urls: ['https://www.wild-example.com/x.html'] })).statusCode).toBe(200);

  // the node gets the wildcard's service for each task
  const key = await registerNode(s.db, 'node-w');
  const pulled = (await s.app.inject({ method: 'GET', url: '/edge/v1/purge?wait=0', headers: { authorization: `Bearer ${key}` } })).json().data.tasks as { id: number; host: string; service: { id: number } | null }[];
  const svc = await bucketId('demo-cdn-03');
  for (const id of ids) expect(pulled.find((t) => t.id === id)).toMatchObject({ service: { id: svc } });
  expect(pulled.find((t) => t.host === 'www.wild-example.com')?.service?.id).toBe(await bucketId(theirs));
});
