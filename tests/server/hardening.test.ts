/**
 * Issue 21 items 1, 2, 3 and 6: what a malformed request meets before any handler runs — bodies only
 * as JSON (multipart only on uploads), the origin check by scheme and host, integers bounded by their
 * columns, no NUL or lone surrogate in any string — and a write whose operation-log row fails leaves
 * nothing behind. The fuzz test (fuzz.test.ts) walks every route; these name the cases one by one.
 */
import { Client, startTestServer, type TestServer } from './helpers';

let s: TestServer;
let demo: Client;
beforeAll(async () => {
  s = await startTestServer();
  demo = await new Client(s.app).signIn('demo');
});
afterAll(() => s?.close());

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
