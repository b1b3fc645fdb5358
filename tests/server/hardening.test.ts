/**
 * Issue 21 items 1, 2, 3 and 6: what a malformed request meets before any handler runs — bodies only
 * as JSON (multipart only on uploads), the origin check by scheme and host, integers bounded by their
 * columns, no NUL or lone surrogate in any string — and a write whose operation-log row fails leaves
 * nothing behind. The fuzz test (fuzz.test.ts) walks every route; these name the cases one by one.
 */
import { sql } from 'kysely';
import { UNSAFE_TEXT_MESSAGE } from '../../schemas/vocabulary';
import { unboundedNumbers } from '../../schemas/bounds';
import { OUT_OF_RANGE_MESSAGE } from '../../src/shared/limits';
import { routeTableOf } from '../../src/server/openapi/collect';
import { Client, startTestServer, type TestServer } from './helpers';

let s: TestServer;
let demo: Client;
beforeAll(async () => {
  s = await startTestServer();
  demo = await new Client(s.app).signIn('demo');
});
afterAll(() => s?.close());

const general = (describe: string) => ({
  describe,
  type: 'general',
  priority: 1,
  break: false,
  status: 'ON',
  content: { conditions: [{ lvalue: { type: 'variable', value: 'http_uri' }, rvalue: { type: 'literal', value: '/x' }, operator: 'equal', case_sensitive: true }], actions: [{ type: 'access_control', code: 403 }] },
});

const monitorCount = async () => Number((await s.db.selectFrom('monitor_tasks').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('bodies are JSON only as application/json', () => {
  const body = JSON.stringify({ name: '任务', metric: 'bandwidth' });
  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/json', 'application/jsonx'])('refuses %s with 415 and 20001', async (type) => {
    const before = await monitorCount();
    const res = await demo.request({ method: 'POST', url: '/api/monitor/', payload: body, headers: { 'content-type': type } });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ result: false, error_code: 20001, message: '提交的数据不符合要求，请检查后重试' });
    expect(await monitorCount()).toBe(before);
  });

  it('takes application/json with a charset', async () => {
    const res = await demo.request({ method: 'POST', url: '/api/monitor/', payload: JSON.stringify({ id: 1 }), headers: { 'content-type': 'Application/JSON; charset=utf-8' } });
    expect(res.statusCode).toBe(400); // read as JSON: the schema names the missing fields
    expect(res.json().errors.map((e: { path: string }) => e.path)).toContain('/name');
  });

  it('takes multipart on an upload route, and JSON there only to say which file is missing', async () => {
    const boundary = 'xyz';
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`;
    const up = await demo.request({ method: 'POST', url: '/work_order/attachment/', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(up.statusCode).toBe(200);
    expect((await demo.post('/work_order/attachment/', { file: 'x' })).json().error_code).toBe(26206);
    expect((await demo.request({ method: 'POST', url: '/work_order/attachment/', payload: 'x', headers: { 'content-type': 'text/plain' } })).statusCode).toBe(415);
  });
});

describe('the origin check compares scheme and host', () => {
  const send = (origin: string) => demo.request({ method: 'POST', url: '/api/monitor/', payload: { id: 1 }, headers: { origin, host: 'console.example:8080' } });
  it.each(['https://console.example:8080', 'http://console.example', 'http://evil.example:8080', 'null', 'not a url'])('refuses Origin %s with 21112', async (origin) => {
    const res = await send(origin);
    expect(res.statusCode).toBe(403);
    expect(res.json().error_code).toBe(21112);
  });
  it('lets the same scheme and host through', async () => {
    expect((await send('http://console.example:8080')).statusCode).toBe(400);
  });
});

const count = async (table: 'edge_rules' | 'monitor_tasks' | 'ddos_orders' | 'operation_logs' | 'signin_attempts') =>
  Number((await s.db.selectFrom(table).select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

describe('no NUL and no lone surrogate in any string (one rule for every route)', () => {
  const refused = (res: { statusCode: number; json(): any }, path: string) => {
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error_code: 20001, errors: [{ path, message: UNSAFE_TEXT_MESSAGE }] });
  };

  it('refuses them without a session: sign-in, register_check, two_step_verify/status', async () => {
    const anon = new Client(s.app);
    const attempts = await count('signin_attempts');
    refused(await anon.post('/accounts/signin/', { username: 'a\u0000b', password: 'demo123456' }), '/username');
    refused(await anon.get('/accounts/register_check/?check_type=username&check_value=a%00b'), '/check_value');
    refused(await anon.get('/accounts/two_step_verify/status/?username=demo%00'), '/username');
    expect(await count('signin_attempts')).toBe(attempts);
  });

  it('refuses a lone surrogate in a free-text field and saves nothing (PUT /api/buckets/rewrite/)', async () => {
    const before = await count('edge_rules');
    const logs = await count('operation_logs');
    for (const describe of ['\udc00', 'a\ud800', 'x\u0000y']) {
      refused(await demo.put('/api/buckets/rewrite/', { bucket_name: 'demo-cdn-04', ...general(describe) }), '/describe');
    }
    expect(await count('edge_rules')).toBe(before);
    expect(await count('operation_logs')).toBe(logs);
    // a whole pair (an emoji) is ordinary text
    expect((await demo.put('/api/buckets/rewrite/', { bucket_name: 'demo-cdn-04', ...general('规则😀') })).statusCode).toBe(200);
  });

  it('reads property names, nested values and query strings too', async () => {
    refused(await demo.post('/api/monitor/', { ['name\u0000']: 1 }), '/name\u0000');
    refused(await demo.put('/api/monitor/', { name: '任务', metric: 'bandwidth', buckets: ['demo-www', 'a\udfff'] }), '/buckets/1');
    refused(await demo.get('/api/settings/tls13/?bucket_name=demo-www%00'), '/bucket_name');
  });
});

describe('a write and its operation-log row commit together', () => {
  // the log row cannot be written: every write that logs must then leave nothing behind
  beforeAll(async () => {
    await sql`create or replace function fail_oplog() returns trigger language plpgsql as $$ begin raise exception 'operation log unavailable'; end $$`.execute(s.db);
    await sql`create trigger fail_oplog before insert on operation_logs for each row execute function fail_oplog()`.execute(s.db);
  });
  afterAll(async () => {
    await sql`drop trigger if exists fail_oplog on operation_logs`.execute(s.db);
  });

  it.each([
    ['PUT /api/buckets/rewrite/', 'edge_rules', () => demo.put('/api/buckets/rewrite/', { bucket_name: 'demo-cdn-04', ...general('atomic') })],
    ['PUT /api/monitor/', 'monitor_tasks', () => demo.put('/api/monitor/', { name: '原子性', metric: 'bandwidth', operator: 'gt', threshold: 100, period: 10, buckets: ['demo-www'], notify_message: true, notify_sms: false })],
    ['POST /api/ddos/order', 'ddos_orders', () => demo.post('/api/ddos/order', { package: 'basic', nodes: [3], months: 1 })],
  ] as const)('%s fails whole: no %s row', async (_name, table, send) => {
    const before = await count(table);
    const res = await send();
    expect(res.statusCode).toBe(500);
    expect(await count(table)).toBe(before);
  });
});

describe('integers bounded by what their column holds', () => {
  it('every integer and number of every route has both bounds (the OpenAPI document shows them)', () => {
    const open = routeTableOf(s.app)!.flatMap((r) => (['body', 'querystring', 'params'] as const).flatMap((part) => unboundedNumbers(r[part]).map((at) => `${r.method} ${r.url} ${part}${at}`)));
    expect(open).toEqual([]);
  });

  it('refuses an id above 2³¹−1 in a body and 10²⁰ in a query with 400 at the field, in Chinese', async () => {
    const body = await demo.request({ method: 'DELETE', url: '/api/monitor/', payload: { id: 2147483648 } });
    expect(body.statusCode).toBe(400);
    expect(body.json()).toMatchObject({ error_code: 20001, errors: [{ path: '/id', message: OUT_OF_RANGE_MESSAGE }] });
    const query = await demo.get('/api/workorder/detail/?id=100000000000000000000');
    expect(query.statusCode).toBe(400);
    expect(query.json().errors).toEqual([{ path: '/id', message: OUT_OF_RANGE_MESSAGE }]);
    const negative = await demo.get('/api/ddos/l7?since=-99999999999');
    expect(negative.statusCode).toBe(400);
  });

  it('answers the largest id like any id that does not exist', async () => {
    const res = await demo.request({ method: 'DELETE', url: '/api/monitor/', payload: { id: 2147483647 } });
    expect(res.statusCode).toBe(404);
  });
});
