/**
 * No request may stall the server (issue 34 items 1, 3 and 11's last point). Worst-case bodies within each
 * route's limit — 100,000 wrong-typed items, JSON nested 5,000 deep — are refused with 400 (or 413 past
 * the limit, 401 without a session or key), and a plain GET sent beside each one is answered. The bound
 * is a generous timeout, not a speed assertion: before the fix one such body held the event loop for
 * minutes.
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { MAX_JSON_DEPTH, TOO_DEEP_MESSAGE, JSON_BODY_LIMIT } from '../../src/shared/limits';
import { jsonDepth } from '../../src/server/http/body';
import { boundedValidator, cutArrays, MESSAGE_ITEMS } from '../../schemas/bounded';
import { createAjv, createFirstErrorAjv } from '../../schemas/vocabulary';
import { toFieldErrors } from '../../schemas/errors';

jest.setTimeout(120_000);

let t: TestServer;
let demo: Client;
let ingestToken = '';

beforeAll(async () => {
  t = await startTestServer();
  demo = await new Client(t.app).signIn('demo');
  const tok = await demo.post('/api/flow/ingest/token', {});
  ingestToken = JSON.parse(tok.body).data.token;
});
afterAll(() => t.close());

const ITEMS = 100_000;
const wrongItems = () => Array(ITEMS).fill(1);

/** A worst-case body on a route, and a GET beside it: both must be answered within `bound` ms. */
async function besideGet(send: () => Promise<{ statusCode: number }>, bound = 60_000) {
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within the bound')), bound).unref());
  const [heavy, get] = await Promise.race([Promise.all([send(), demo.get('/api/accounts/security/')]), timeout]);
  return { heavy: heavy.statusCode, get: get.statusCode };
}

const routes: [string, (items: unknown) => object][] = [
  ['/api/buckets/purge/', (x) => ({ rules: x })],
  ['/api/https/letsencrypt', (x) => ({ domains: x })],
  ['/api/https/migrate/domain', (x) => ({ domains: x, certificate_id: 1 })],
];

describe('100,000 wrong-typed items at the route limit', () => {
  test.each(routes)('%s: 400 signed in, and a GET beside it is answered', async (url, body) => {
    const payload = JSON.stringify(body(wrongItems()));
    expect(payload.length).toBeLessThan(JSON_BODY_LIMIT);
    const r = await besideGet(() => demo.request({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } }));
    expect(r).toEqual({ heavy: 400, get: 200 });
  });

  test.each(routes)('%s: 401 signed out (the session before the body)', async (url, body) => {
    const res = await t.app.inject({ method: 'POST', url, payload: JSON.stringify(body(wrongItems())), headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(401);
    expect(JSON.parse(res.body).error_code).toBe(21110);
  });

  test('the message pass still names the array limit (purge: 个数超出限制)', async () => {
    const res = await demo.post('/api/buckets/purge/', { rules: Array(200).fill('https://www.example.com/a/*') });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).errors).toContainEqual({ path: '/rules', message: '个数超出限制' });
  });

  test('POST /api/flow/ingest/: 401 without its token whatever the body, 400 with it, a GET beside it answered', async () => {
    const payload = JSON.stringify({ slot: 0, records: wrongItems() });
    const anon = await t.app.inject({ method: 'POST', url: '/api/flow/ingest/', payload, headers: { 'content-type': 'application/json' } });
    expect(anon.statusCode).toBe(401);
    const r = await besideGet(() => t.app.inject({ method: 'POST', url: '/api/flow/ingest/', payload, headers: { 'content-type': 'application/json', authorization: `Bearer ${ingestToken}` } }));
    expect(r).toEqual({ heavy: 400, get: 200 });
  });

  test('a body past the route limit answers 413', async () => {
    const payload = JSON.stringify({ rules: Array(JSON_BODY_LIMIT).fill('x') });
    const res = await demo.request({ method: 'POST', url: '/api/buckets/purge/', payload, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(413);
  });
});

describe('the edge API: the node key before the body', () => {
  test.each(['/edge/v1/report', '/edge/v1/traffic', '/edge/v1/purge/report'])('%s without a key: 401 20010 for a 2 MB body', async (url) => {
    const payload = JSON.stringify({ services: Array(500_000).fill(1) });
    const res = await t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(401);
    expect(JSON.parse(res.body).error_code).toBe(20010);
  });
});

describe('deep nesting is refused while parsing (item 3)', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  test.each([
    ['/api/https/letsencrypt', 'domains'],
    ['/api/https/trustasia', 'domains'],
    ['/api/buckets/purge/', 'rules'],
    ['/api/ddos/l7', 'rules'],
  ])('%s with 5,000 levels: 400 with the Chinese message', async (url, key) => {
    const res = await demo.request({ method: url === '/api/ddos/l7' ? 'PUT' : 'POST', url, payload: `{"${key}":${deep(5000)}}`, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ error_code: 20001, errors: [{ path: '/', message: TOO_DEEP_MESSAGE }] });
  });

  test('depth is counted outside strings only, up to the limit', () => {
    expect(jsonDepth('{"a":"[[[[[[[[[[[["}')).toBe(1);
    expect(jsonDepth('{"a":"\\"[[[["}')).toBe(1);
    expect(jsonDepth(deep(MAX_JSON_DEPTH))).toBe(MAX_JSON_DEPTH);
    expect(jsonDepth(deep(100_000))).toBe(MAX_JSON_DEPTH + 1);
  });

  test('JSON at the depth limit still parses', async () => {
    const res = await demo.request({ method: 'POST', url: '/api/buckets/purge/', payload: `{"rules":${deep(MAX_JSON_DEPTH - 1)}}`, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).errors[0].message).not.toBe(TOO_DEEP_MESSAGE);
  });
});

describe('the bounded validator gives the same messages as the full one', () => {
  const schema = {
    type: 'object',
    required: ['a'],
    properties: {
      a: { type: 'array', maxItems: 400, items: { type: 'string', errorMessage: { type: '须为文本' } }, errorMessage: { maxItems: '太多了' } },
      b: { type: 'string', errorMessage: '须为文本 b' },
    },
    errorMessage: { required: { a: '请填写 a' } },
  };
  const v = boundedValidator(createFirstErrorAjv(), createAjv(), schema);
  const full = createAjv().compile(schema);
  test.each([
    [{ a: [1, 'x', 2], b: 3 }],
    [{}],
    [{ a: Array(300).fill('x').concat([1]) }], // past the cut: the quick pass's error with its schema text
    [{ a: Array(401).fill('x') }], // a maxItems the cut hides
  ])('%#', (data) => {
    expect(v(data)).toBe(false);
    full(data);
    const mine = toFieldErrors(v.errors);
    expect(mine.length).toBeGreaterThan(0);
    for (const e of mine) expect(toFieldErrors(full.errors)).toContainEqual(e);
  });
  test('a valid payload passes; arrays are cut only in a copy', () => {
    expect(v({ a: ['x'] })).toBe(true);
    const data = { a: Array(MESSAGE_ITEMS + 44).fill('x') };
    expect((cutArrays(data) as { a: unknown[] }).a).toHaveLength(MESSAGE_ITEMS);
    expect(data.a).toHaveLength(MESSAGE_ITEMS + 44);
  });
});

describe('the rule tester has a time budget (item 2)', () => {
  const rule = (pattern: string) => ({ describe: 'redos', type: 'custom', priority: 1, break: false, status: 'ON', pattern, rule: '$EXIT(403)' });
  test('a catastrophic pattern answers 400 23009 and a GET beside it is answered', async () => {
    const uri = `/${'a'.repeat(2000)}!`;
    const r = await besideGet(() => demo.post('/api/buckets/rewrite/test/', { rules: [rule('^/(a+)+$')], request: { uri } }), 30_000);
    expect(r).toEqual({ heavy: 400, get: 200 });
    const res = await demo.post('/api/buckets/rewrite/test/', { rules: [rule('^/(a+)+$')], request: { uri: '/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' } });
    expect(res.json()).toMatchObject({ error_code: 23009, errors: [{ path: '/rules', message: expect.stringContaining('灾难性回溯') }] });
  });
  test('the same pattern on a short URI still answers', async () => {
    const res = await demo.post('/api/buckets/rewrite/test/', { rules: [rule('^/(a+)+$')], request: { uri: '/aaa' } });
    expect(res.statusCode).toBe(200);
  });
});
