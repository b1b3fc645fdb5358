/**
 * The tester and the edge agree (issue 18): every case of tests/edge/rules-cases.ts (the evaluator's
 * tests and the examples of docs/edge-rules.md) is saved through the API as the rules of a real service
 * and sent as a real request through the edge; evaluate() on the stored rules and the same request must
 * predict what happened — status, Location, the URI and query that reached the origin, the method, body
 * and request headers the origin saw, the response headers the client saw, the limit rate and each
 * rule's outcome (the last two from the node's trace header, which only a caller with the node key gets).
 * A disagreement names the case and shows both outcomes.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { evaluate, type EdgeOutcome, type EdgeRule, type RunnableRule, type SampleRequest } from '../../src/shared/edgerules';
import { demoOriginValue } from '../../src/server/seed/edge';
import { nginxInstalled, startEdgeStack, type EdgeAnswer, type EdgeStack } from './harness';
import { CASES, type RuleCase } from './rules-cases';
import type { LiveAnswer } from '../../src/shared/edgerules/live';

const BUCKET = 'demo-cdn-01';
const HOST = 'act1.demo-example.com';
const d = nginxInstalled ? describe : describe.skip;

/** The answers of the test's origin: every path echoes what reached it, and carries X-Powered-By. */
const ORIGIN_HEADERS = { 'x-powered-by': 'test-origin', 'cache-control': 'no-store' };

/** 128 KB for the rate limit. */
const BIG = 'x'.repeat(128 * 1024);

let edge: EdgeStack;
let lastRules = '';
let stored: EdgeRule[] = [];
/** Rules saved outside the cases: the next case saves its own. */
const lastRulesReset = () => {
  lastRules = '';
};
let echo: http.Server;
let nodeAuth: string;

/** The node's last error-log lines (a rule's Lua failing would show there). */
function errorLog(): string {
  try {
    const lines = fs.readFileSync(path.join(edge.dir, 'logs/error.log'), 'utf8').trim().split('\n').filter((l) => /\[(error|crit|alert)\]/.test(l));
    return lines.length ? `节点错误日志：\n${lines.slice(-5).join('\n')}\n` : '';
  } catch {
    return '';
  }
}

/** Values made of random characters: compared by their length (integers as integers). */
function loosen(v: Seen, c: RuleCase): Seen {
  if (!c.random) return v;
  const mask = (x: string | undefined) => (x === undefined ? x : /^\d+$/.test(x) ? '<整数>' : `<${x.length} 个字符>`);
  return { ...v, response_headers: Object.fromEntries(Object.entries(v.response_headers).map(([k, x]) => [k, mask(x)])) };
}

/** What the client and the origin saw, in the shape both sides can predict. */
interface Seen {
  status: number;
  location: string | null;
  /** At the origin (null when the edge answered itself). */
  origin: { uri: string; method: string; body: string; headers: Record<string, string | undefined> } | null;
  response_headers: Record<string, string | undefined>;
  limit_rate: { after: number | null; rate: number | null };
  trace: string[];
}

async function saveRules(rules: RunnableRule[]): Promise<EdgeRule[]> {
  const list = JSON.parse((await edge.client.get(`/api/buckets/rewrite/?bucket_name=${BUCKET}&perPage=100`)).body);
  for (const r of list.data.rewrite as EdgeRule[]) {
    const res = await edge.client.request({ method: 'DELETE', url: `/api/buckets/rewrite/?rewrite_id=${r.rewrite_id}` });
    if (res.statusCode !== 200) throw new Error(`删除规则失败：${res.body}`);
  }
  const sorted = [...rules].sort((a, b) => a.priority - b.priority);
  let priority = 1;
  for (const r of sorted) {
    const { rewrite_id: _id, ...rest } = r;
    const body = { ...rest, bucket_name: BUCKET, priority, describe: r.describe || 'r' };
    const res = await edge.client.put('/api/buckets/rewrite/', body);
    // a rule the API refuses (a program that does not parse) never reaches the edge
    if (res.statusCode === 200) priority++;
  }
  await edge.waitLive();
  const stored = JSON.parse((await edge.client.get(`/api/buckets/rewrite/?bucket_name=${BUCKET}&perPage=100`)).body);
  return stored.data.rewrite as EdgeRule[];
}

/** Addresses of the cases mapped to loopback ones this machine can send from. */
const ADDRESSES: Record<string, string> = { '10.0.0.1': '127.0.0.1', '10.0.0.2': '127.0.0.2' };
const mapAddresses = (rules: RunnableRule[]): RunnableRule[] => JSON.parse(JSON.stringify(rules).replace(/10\.0\.0\.[12]/g, (a) => ADDRESSES[a]));

/** The request as sent: what the evaluator is given too. */
function sample(c: RuleCase): SampleRequest & { path: string } {
  const r = c.request;
  let uri = r.uri;
  let query = r.query ?? '';
  const q = uri.indexOf('?');
  if (q >= 0) {
    if (r.query === undefined) query = uri.slice(q + 1);
    uri = uri.slice(0, q);
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers ?? {})) headers[k.toLowerCase()] = v;
  headers.host = HOST;
  if (r.body) headers['content-length'] = String(Buffer.byteLength(r.body));
  return {
    method: (r.method ?? 'GET').toUpperCase(),
    scheme: 'http',
    host: HOST,
    uri,
    query,
    headers,
    ...(r.body ? { body: r.body } : {}),
    ip: r.ip === '10.0.0.2' ? '127.0.0.2' : '127.0.0.1',
    path: query ? `${uri}?${query}` : uri,
  };
}

function parseTrace(v: string | string[] | undefined) {
  const text = Array.isArray(v) ? v[0] : (v ?? '');
  const part = (k: string) => new RegExp(`(?:^|;)${k}=([^;]*)`).exec(text)?.[1] ?? '';
  const num = (s: string) => (s === '' ? null : Number(s));
  return { rate: num(part('rate')), after: num(part('after')), rules: part('rules') ? part('rules').split(',') : [] };
}

function seen(res: EdgeAnswer, touched: { req: string[]; rsp: string[] }, outcomeRules: EdgeRule[]): Seen {
  const trace = parseTrace(res.headers['x-edge-trace']);
  const byId = new Map(trace.rules.map((t) => [Number(t.slice(0, t.indexOf(':'))), t.slice(t.indexOf(':') + 1)]));
  let origin: Seen['origin'] = null;
  if (res.headers['x-test-origin'] === 'echo' && res.text) {
    const e = JSON.parse(res.text);
    origin = { uri: e.url, method: e.method, body: e.body, headers: Object.fromEntries(touched.req.map((h) => [h, e.headers[h]])) };
  }
  // Node reads header values as Latin-1; the edge sends UTF-8
  const header = (h: string) => {
    const v = res.headers[h];
    const text = Array.isArray(v) ? v.join(', ') : v;
    return text === undefined ? undefined : Buffer.from(text, 'latin1').toString('utf8');
  };
  return {
    status: res.status,
    location: header('location') ?? null,
    origin,
    response_headers: Object.fromEntries(touched.rsp.map((h) => [h, header(h)])),
    limit_rate: { after: trace.after, rate: trace.rate },
    trace: outcomeRules.map((r) => byId.get(r.rewrite_id) ?? '(无)'),
  };
}

/** What the evaluator's outcome says the client and the origin see. */
function predicted(o: EdgeOutcome, s: SampleRequest, touched: { req: string[]; rsp: string[] }, res: EdgeAnswer): Seen {
  // request headers: the request's, plus those the edge sets for the origin, then the rules' changes in order
  const reqHeaders: Record<string, string | undefined> = { ...s.headers, 'x-forwarded-for': s.ip, 'x-real-ip': s.ip, 'x-forwarded-proto': 'http' };
  for (const h of o.request_headers) {
    if (!h.applied) continue;
    const k = h.name.toLowerCase();
    if (h.action === 'delete') delete reqHeaders[k];
    else reqHeaders[k] = !h.cover && reqHeaders[k] !== undefined ? `${reqHeaders[k]}, ${h.value}` : h.value;
  }
  // response headers: the origin's (or none when the edge answers), then the rules' changes in order;
  // a protected header the rules may not delete is whatever the edge sent
  const rspHeaders: Record<string, string | undefined> = o.status === null ? { ...ORIGIN_HEADERS } : {};
  const protectedSeen = new Set<string>();
  for (const h of o.response_headers) {
    const k = h.name.toLowerCase();
    if (!h.applied) {
      if (h.action === 'delete') protectedSeen.add(k);
      continue;
    }
    if (h.action === 'delete') delete rspHeaders[k];
    else rspHeaders[k] = !h.cover && rspHeaders[k] !== undefined ? `${rspHeaders[k]}, ${h.value}` : h.value;
  }
  for (const k of protectedSeen) if (!o.response_headers.some((h) => h.applied && h.name.toLowerCase() === k)) rspHeaders[k] = (res.headers[k] as string | undefined) ?? '(受保护，应仍存在)';
  const trace = o.trace.map((t) => (t.outcome === 'matched' ? (o.matched.find((m) => m.rewrite_id === t.rewrite_id)?.ended ?? 'matched') : t.outcome));
  return {
    status: o.status ?? 200,
    location: o.location,
    origin:
      o.status === null && s.method !== 'HEAD'
        ? { uri: o.uri, method: o.method, body: o.request_body ?? s.body ?? '', headers: Object.fromEntries(touched.req.map((h) => [h, reqHeaders[h]])) }
        : null,
    response_headers: Object.fromEntries(touched.rsp.map((h) => [h, rspHeaders[h]])),
    limit_rate: o.limit_rate,
    trace,
  };
}

d('edge rules on a real edge', () => {
  beforeAll(async () => {
    echo = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        for (const [k, v] of Object.entries(ORIGIN_HEADERS)) res.setHeader(k, v);
        res.setHeader('X-Test-Origin', 'echo');
        if (req.url === '/big') return res.end(BIG);
        res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }));
      });
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    edge = await startEdgeStack();
    nodeAuth = `Bearer ${edge.agent.opts.nodeKey}`;
    // the operator points the service at the test's origin (a loopback address no customer may set)
    const bucket = await edge.server.db.selectFrom('buckets').select('id').where('name', '=', BUCKET).executeTakeFirstOrThrow();
    await edge.server.db
      .updateTable('service_settings')
      .set({ value: JSON.stringify(demoOriginValue(`127.0.0.1:${(echo.address() as AddressInfo).port}`)) })
      .where('bucket_id', '=', bucket.id)
      .where('setting_id', '=', 'origin')
      .execute();
    await edge.waitLive();
  }, 60_000);

  afterAll(async () => {
    await edge?.close();
    echo?.closeAllConnections();
    echo?.close();
  });

describe('the tester and the edge agree', () => {


  it.each(CASES.map((c) => [c.name, c]))('%s', async (name, c) => {
    const rules = mapAddresses(c.rules);
    const key = JSON.stringify(rules);
    if (key !== lastRules) {
      stored = await saveRules(rules);
      lastRules = key;
    }
    for (let attempt = 1; ; attempt++) {
      const agreed = await once(name, c, stored);
      // $_TIME: the edge's clock may have turned to the next second since the sample was made
      if (agreed || !c.time || attempt === 2) break;
    }
  });
});

/** One request of a case; true when the two sides agree (throws with both outcomes otherwise, unless a retry may help). */
async function once(name: string, c: RuleCase, stored: EdgeRule[]): Promise<boolean> {
  const s = { ...sample(c), time: Math.floor(Date.now() / 1000) };
  const outcome = evaluate(stored, s);
  const touched = {
    req: [...new Set(outcome.request_headers.map((h) => h.name.toLowerCase()))],
    rsp: [...new Set(outcome.response_headers.map((h) => h.name.toLowerCase()))],
  };
  const { host: _h, 'content-length': _l, ...headers } = s.headers!;
  const res = await edge.request(HOST, s.path, {
    method: s.method,
    headers: { ...headers, 'x-edge-trace': nodeAuth },
    ...(s.body ? { body: s.body } : {}),
    ...(s.ip !== '127.0.0.1' ? { localAddress: s.ip } : {}),
  });
  const edgeSaw = loosen(seen(res, touched, stored), c);
  const tester = loosen(predicted(outcome, s, touched, res), c);
  if (JSON.stringify(edgeSaw) !== JSON.stringify(tester)) {
    if (c.time && Math.floor(Date.now() / 1000) !== s.time) return false;
    throw new Error(`用例「${name}」不一致\n${errorLog()}规则测试：${JSON.stringify(tester, null, 1)}\n边缘节点：${JSON.stringify(edgeSaw, null, 1)}`);
  }
  return true;
}

describe('what the comparison does not show', () => {
  it('limits the rate for real after the first bytes', async () => {
    await saveRules([{ describe: '限速', type: 'custom', priority: 1, break: false, status: 'ON', pattern: '^/big$', rule: '$LIMIT_RATE_AFTER(16, k)$LIMIT_RATE(32, k)' }]);
    lastRulesReset();
    const started = Date.now();
    const res = await edge.request(HOST, '/big');
    const seconds = (Date.now() - started) / 1000;
    expect(res.body.length).toBe(BIG.length);
    // (128 - 16) KB at 32 KB/s is 3.5 s; nginx may send a little ahead, never much
    expect(seconds).toBeGreaterThan(2);
    const fast = Date.now();
    await edge.request(HOST, '/small');
    expect((Date.now() - fast) / 1000).toBeLessThan(2);
  });

  it('shows its trace only to the node key, and never passes the trace header on to the origin', async () => {
    await saveRules([{ describe: 'h', type: 'custom', priority: 1, break: false, status: 'ON', pattern: '', rule: '$ADD_RSP_HEADER(X-Rule, 1)' }]);
    lastRulesReset();
    const stranger = await edge.request(HOST, '/t', { headers: { 'x-edge-trace': 'Bearer guess' } });
    expect(stranger.headers['x-edge-trace']).toBeUndefined();
    expect(stranger.headers['x-rule']).toBe('1');
    expect(JSON.parse(stranger.text).headers['x-edge-trace']).toBeUndefined();
    const node = await edge.request(HOST, '/t', { headers: { 'x-edge-trace': nodeAuth } });
    expect(node.headers['x-edge-trace']).toMatch(/rules=\d+:matched$/);
  });

  it('answers an error page with the content of its page', async () => {
    await saveRules([{ describe: 'e', type: 'custom', priority: 1, break: false, status: 'ON', pattern: '^/down$', rule: '$ERROR_PAGE(503, /maintenance.html)' }]);
    lastRulesReset();
    const res = await edge.request(HOST, '/down');
    expect(res.status).toBe(503);
    expect(JSON.parse(res.text).url).toBe('/maintenance.html');
  });

  it('refuses on save a regular expression the edge\'s PCRE refuses, with the check call\'s message', async () => {
    const rule = "$WHEN($MATCH($_URI, '(?<=a+)b'))$EXIT(403)";
    const check = JSON.parse((await edge.client.post('/api/buckets/rewrite/check/', { rule })).body);
    expect(check.result).toBe(false);
    expect(check.errors[0].message).toBe('第 1 行第 21 列：正则表达式不合法：(?<=a+)b');
    const saved = await edge.client.put('/api/buckets/rewrite/', { bucket_name: BUCKET, describe: 'x', type: 'custom', priority: 1, break: false, status: 'ON', pattern: '', rule });
    expect(saved.statusCode).toBe(400);
    expect(JSON.parse(saved.body).errors).toEqual([expect.objectContaining({ path: '/rule', message: check.errors[0].message })]);
    // the URI extraction pattern
    const checkPattern = JSON.parse((await edge.client.post('/api/buckets/rewrite/check/', { rule: '/x', pattern: '^/(\\w+)\\u0041' })).body);
    expect(checkPattern.result).toBe(false);
    const savedPattern = await edge.client.put('/api/buckets/rewrite/', { bucket_name: BUCKET, describe: 'x', type: 'custom', priority: 1, break: false, status: 'ON', pattern: '^/(\\w+)\\u0041', rule: '/x' });
    expect(savedPattern.statusCode).toBe(400);
    expect(JSON.parse(savedPattern.body).errors).toEqual([expect.objectContaining({ path: '/pattern', message: checkPattern.errors[0].message })]);
    // a general rule's match condition, at its field
    const general = await edge.client.put('/api/buckets/rewrite/', {
      bucket_name: BUCKET, describe: 'x', type: 'general', priority: 1, break: false, status: 'ON',
      content: { conditions: [{ lvalue: { type: 'variable', value: 'http_uri' }, rvalue: { type: 'literal', value: '(?<=a*)b' }, operator: 'match', case_sensitive: true }], actions: [{ type: 'access_control', code: 403 }] },
    });
    expect(general.statusCode).toBe(400);
    expect(JSON.parse(general.body).errors).toEqual([expect.objectContaining({ path: '/content/conditions/0/rvalue/value', message: '正则表达式不合法：(?<=a*)b' })]);

  });

  it('发送真实请求: the tester sends the sample through the edge and shows both outcomes, agreeing', async () => {
    await saveRules([
      { describe: 'a', type: 'custom', priority: 1, break: false, status: 'ON', pattern: '^/live/(.*)$', rule: '$ADD_RSP_HEADER(X-Live, $1)$LIMIT_RATE(512, k)' },
      { describe: 'b', type: 'custom', priority: 2, break: false, status: 'ON', pattern: '', rule: "$WHEN($EQ($_GET_go, away))$REDIRECT(/gone, 302)" },
    ]);
    lastRulesReset();
    const res = await edge.client.post('/api/buckets/rewrite/send/', { bucket_name: BUCKET, request: { uri: '/live/x?a=1', headers: { 'X-Edge-Trace': 'mine' } } });
    expect([res.statusCode, res.statusCode === 200 ? '' : res.body]).toEqual([200, '']);
    const answer = JSON.parse(res.body).data as LiveAnswer;
    expect(answer.request).toEqual({ host: HOST, uri: '/live/x?a=1', ip: '127.0.0.1' });
    expect(answer.edge).toEqual(expect.objectContaining({ status: 200, location: null, limit_rate: { rate: 512 * 1024, after: null } }));
    expect(answer.edge.headers['x-live']).toBe('x');
    expect(answer.edge.rules.map((r) => r.outcome)).toEqual(['matched', 'condition_false']);
    expect(answer.predicted.response_headers).toEqual([expect.objectContaining({ name: 'X-Live', value: 'x' })]);
    expect(answer.differences).toEqual([]);
    // the origin did not see the node's trace header, nor the one the sample carried
    expect(JSON.parse(answer.edge.body).headers['x-edge-trace']).toBeUndefined();
    const away = JSON.parse((await edge.client.post('/api/buckets/rewrite/send/', { bucket_name: BUCKET, request: { uri: '/a?go=away' } })).body).data as LiveAnswer;
    expect(away.edge).toEqual(expect.objectContaining({ status: 302, location: '/gone' }));
    expect(away.predicted).toEqual(expect.objectContaining({ status: 302, location: '/gone' }));
    expect(away.differences).toEqual([]);
  });
});
});
