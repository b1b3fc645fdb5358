/**
 * Edge-rule API (src/server/edgerules/routes.ts) on a real database: CRUD, priority moves that keep
 * 1..n without gaps, status changes, the check and test calls, and who may touch what.
 */
import { startTestServer, Client, type TestServer } from './helpers';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const general = (describe: string, extra: Record<string, unknown> = {}) => ({
  describe,
  type: 'general',
  priority: 1,
  break: false,
  status: 'ON',
  content: { conditions: [{ lvalue: { type: 'variable', value: 'http_uri' }, rvalue: { type: 'literal', value: `/${describe}` }, operator: 'equal', case_sensitive: true }], actions: [{ type: 'access_control', code: 403 }] },
  ...extra,
});
const custom = (describe: string, rule: string, extra: Record<string, unknown> = {}) => ({ describe, type: 'custom', priority: 1, break: false, status: 'ON', pattern: '', rule, ...extra });

async function demo() {
  return new Client(s.app).signIn('demo');
}

async function list(c: Client, bucket: string, page = 1) {
  const res = await c.get(`/api/buckets/rewrite/?bucket_name=${bucket}&page=${page}&perPage=10`);
  expect(res.statusCode).toBe(200);
  return res.json().data as { pager: { total: number; page: number; pages: number }; rewrite: any[] };
}

async function create(c: Client, bucket: string, rule: Record<string, unknown>) {
  const res = await c.put('/api/buckets/rewrite/', { bucket_name: bucket, ...rule });
  expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 200, body: expect.objectContaining({ result: true }) });
  return res.json().data;
}

const names = (rows: any[]) => rows.map((r) => `${r.priority}:${r.describe}`);

describe('list and create', () => {
  it('starts empty, with the pager of spec 002 §3', async () => {
    const c = await demo();
    expect(await list(c, 'demo-cdn-01')).toEqual({ pager: { total: 0, page: 1, pages: 0 }, rewrite: [] });
  });

  it('creates general and custom rules, inserts at the given priority and keeps 1..n', async () => {
    const c = await demo();
    await create(c, 'demo-cdn-01', general('a', { priority: 1 }));
    await create(c, 'demo-cdn-01', general('b', { priority: 2 }));
    const r = await create(c, 'demo-cdn-01', custom('c', "$ADD_RSP_HEADER(X-A, 1)", { priority: 1 }));
    expect(r).toEqual(expect.objectContaining({ rewrite_id: expect.any(Number), bucket_name: 'demo-cdn-01', describe: 'c', type: 'custom', priority: 1, pattern: '', rule: '$ADD_RSP_HEADER(X-A, 1)' }));
    expect(r.content).toBeUndefined();
    const { pager, rewrite } = await list(c, 'demo-cdn-01');
    expect(pager).toEqual({ total: 3, page: 1, pages: 1 });
    expect(names(rewrite)).toEqual(['1:c', '2:a', '3:b']);
    expect(rewrite[1].content.conditions[0].lvalue.value).toBe('http_uri');
    expect(rewrite[1].pattern).toBeUndefined();
  });

  it('keeps ip only for DEBUG rules and joins the prefixed variable with its parameter', async () => {
    const c = await demo();
    const rule = general('debug', { status: 'DEBUG', ip: '203.0.113.9' });
    rule.content.conditions[0] = { lvalue: { type: 'variable', value: 'http_header_User-Agent' }, rvalue: { type: 'literal', value: 'curl' }, operator: 'match', case_sensitive: false };
    const d = await create(c, 'demo-cdn-02', rule);
    expect(d.status).toBe('DEBUG');
    expect(d.ip).toBe('203.0.113.9');
    expect(d.content.conditions[0].lvalue.value).toBe('http_header_User-Agent');
    const on = await create(c, 'demo-cdn-02', general('on', { ip: '203.0.113.9' }));
    expect(on.ip).toBeUndefined();
    // normalised: the second condition gets combination "and", stray action fields go
    const two = general('two', { priority: 3 });
    two.content.conditions.push({ lvalue: { type: 'variable', value: 'http_method' }, rvalue: { type: 'literal', value: 'GET' }, operator: 'equal', case_sensitive: true });
    (two.content.actions[0] as any).target = '/unused';
    const t = await create(c, 'demo-cdn-02', two);
    expect(t.content.conditions[1].combination).toBe('and');
    expect(t.content.actions[0]).toEqual({ type: 'access_control', code: 403 });
  });

  it('pages by 10', async () => {
    const c = await demo();
    for (let i = 1; i <= 12; i++) await create(c, 'demo-cdn-03', general(`p${i}`, { priority: i }));
    const first = await list(c, 'demo-cdn-03');
    expect(first.pager).toEqual({ total: 12, page: 1, pages: 2 });
    expect(first.rewrite).toHaveLength(10);
    const second = await list(c, 'demo-cdn-03', 2);
    expect(names(second.rewrite)).toEqual(['11:p11', '12:p12']);
  });
});

describe('validation', () => {
  it('refuses with the form declaration\'s Chinese messages', async () => {
    const c = await demo();
    const res = await c.put('/api/buckets/rewrite/', { bucket_name: 'demo-cdn-04', ...general(''), status: 'DEBUG' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_code).toBe(20001);
    expect(res.json().errors).toEqual(expect.arrayContaining([{ path: '/describe', message: '请填写规则名称' }, { path: '/ip', message: '请填写 IP' }]));
  });

  it('limits the priority to the number of rules plus one', async () => {
    const c = await demo();
    await create(c, 'demo-cdn-04', general('x'));
    const res = await c.put('/api/buckets/rewrite/', { bucket_name: 'demo-cdn-04', ...general('y', { priority: 3 }) });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ path: '/priority', message: '优先级最大为 2' }]);
  });

  it('refuses a custom rule that does not parse, with its position (23007)', async () => {
    const c = await demo();
    const res = await c.put('/api/buckets/rewrite/', { bucket_name: 'demo-cdn-04', ...custom('bad', '$WHEN($_URI') });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(expect.objectContaining({ error_code: 23007, message: '元数据校验未通过', errors: [{ path: '/rule', message: '第 1 行第 1 列：函数 $WHEN 缺少右括号 )', code: 23007 }] }));
  });

  it('refuses a program over 4096 characters with 23002', async () => {
    const c = await demo();
    const res = await c.put('/api/buckets/rewrite/', { bucket_name: 'demo-cdn-04', ...custom('long', `/${'a'.repeat(4096)}`) });
    expect(res.json().error_code).toBe(23002);
    expect(res.json().message).toBe('规则程序不能超过 4096 个字符');
  });

  it('refuses services without edge rules (21201) and another account\'s services (21905)', async () => {
    const c = await demo();
    expect((await c.get('/api/buckets/rewrite/?bucket_name=demo-live')).json().error_code).toBe(21201);
    const res = await c.put('/api/buckets/rewrite/', { bucket_name: 'secure-www', ...general('z') });
    expect(res.statusCode).toBe(404);
    expect(res.json().error_code).toBe(21905);
  });
});

describe('priority, status, edit and delete', () => {
  let ids: Record<string, number>;
  let c: Client;
  beforeAll(async () => {
    c = await demo();
    ids = {};
    for (const [i, n] of ['A', 'B', 'C', 'D'].entries()) ids[n] = (await create(c, 'demo-cdn-05', general(n, { priority: i + 1 }))).rewrite_id;
  });
  const order = async () => names((await list(c, 'demo-cdn-05')).rewrite);
  const move = (id: number, priority: number) => c.post('/api/buckets/rewrite/priority/', { rewrite_id: id, priority });

  it('moves a rule to the target\'s priority and shifts the others (down and up)', async () => {
    expect(await order()).toEqual(['1:A', '2:B', '3:C', '4:D']);
    expect((await move(ids.D, 1)).json()).toEqual({ result: true, error_code: 0, data: { rewrite_id: ids.D, priority: 1 } });
    expect(await order()).toEqual(['1:D', '2:A', '3:B', '4:C']);
    await move(ids.D, 3);
    expect(await order()).toEqual(['1:A', '2:B', '3:D', '4:C']);
    await move(ids.A, 4);
    expect(await order()).toEqual(['1:B', '2:D', '3:C', '4:A']);
    await move(ids.C, 3);
    expect(await order()).toEqual(['1:B', '2:D', '3:C', '4:A']);
  });

  it('refuses a priority beyond the rules with 23004', async () => {
    const res = await move(ids.A, 5);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(expect.objectContaining({ error_code: 23004, message: '优先级调整失败', errors: [{ path: '/priority', message: '优先级最大为 4' }] }));
  });

  it('changes the status; DEBUG takes the caller\'s address, ON drops it', async () => {
    const res = await c.post('/api/buckets/rewrite/status/', { rewrite_id: ids.B, status: 'DEBUG' });
    expect(res.json().data).toEqual({ rewrite_id: ids.B, status: 'DEBUG', ip: '127.0.0.1' });
    let row = (await list(c, 'demo-cdn-05')).rewrite.find((r) => r.rewrite_id === ids.B);
    expect(row).toEqual(expect.objectContaining({ status: 'DEBUG', ip: '127.0.0.1' }));
    await c.post('/api/buckets/rewrite/status/', { rewrite_id: ids.B, status: 'OFF' });
    row = (await list(c, 'demo-cdn-05')).rewrite.find((r) => r.rewrite_id === ids.B);
    expect(row.status).toBe('OFF');
    expect(row.ip).toBeUndefined();
    const bad = await c.post('/api/buckets/rewrite/status/', { rewrite_id: ids.B, status: 'PAUSED' });
    expect(bad.json().errors).toEqual([{ path: '/status', message: '请选择规则状态' }]);
  });

  it('edits a rule, switching its mode and moving it; count + 1 puts it last', async () => {
    const res = await c.post('/api/buckets/rewrite/', { rewrite_id: ids.B, ...custom('B2', '$EXIT(404)', { priority: 5 }) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual(expect.objectContaining({ describe: 'B2', type: 'custom', rule: '$EXIT(404)', priority: 4 }));
    expect(res.json().data.content).toBeUndefined();
    expect(await order()).toEqual(['1:D', '2:C', '3:A', '4:B2']);
    const tooFar = await c.post('/api/buckets/rewrite/', { rewrite_id: ids.B, ...custom('B2', '$EXIT(404)', { priority: 6 }) });
    expect(tooFar.json().errors).toEqual([{ path: '/priority', message: '优先级最大为 5' }]);
  });

  it('deletes a rule and closes the gap; a second delete answers 23001', async () => {
    const res = await c.request({ method: 'DELETE', url: `/api/buckets/rewrite/?rewrite_id=${ids.C}` });
    expect(res.json()).toEqual({ result: true, error_code: 0 });
    expect(await order()).toEqual(['1:D', '2:A', '3:B2']);
    const again = await c.request({ method: 'DELETE', url: `/api/buckets/rewrite/?rewrite_id=${ids.C}` });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual(expect.objectContaining({ error_code: 23001, message: '边缘规则不存在或已被删除' }));
  });

  it('writes every change to operation_logs', async () => {
    const rows = await s.db.selectFrom('operation_logs').select(['action', 'target']).where('target', 'like', 'demo-cdn-05/rewrite/%').execute();
    const actions = new Set(rows.map((r) => r.action));
    for (const a of ['edge_rule.create', 'edge_rule.priority', 'edge_rule.status', 'edge_rule.update', 'edge_rule.delete']) expect(actions.has(a)).toBe(true);
  });
});

describe('who may touch what', () => {
  it('answers 23001 for another account\'s rule and changes nothing', async () => {
    const owner = await demo();
    const rule = await create(owner, 'demo-cdn-06', general('mine'));
    const other = new Client(s.app);
    await other.put('/accounts/two_step_verify/code', { username: 'demo2fa', password: 'demo123456', verify_type: 'sms' });
    const sms = await s.db.selectFrom('sms_outbox').select('text').orderBy('id', 'desc').executeTakeFirstOrThrow();
    await other.post('/accounts/signin/', { username: 'demo2fa', password: 'demo123456', code: /(\d{6})/.exec(sms.text)![1] });
    expect((await other.get('/api/buckets/rewrite/?bucket_name=demo-cdn-06')).json().error_code).toBe(21905);
    for (const res of [
      await other.post('/api/buckets/rewrite/', { rewrite_id: rule.rewrite_id, ...general('stolen') }),
      await other.post('/api/buckets/rewrite/priority/', { rewrite_id: rule.rewrite_id, priority: 1 }),
      await other.post('/api/buckets/rewrite/status/', { rewrite_id: rule.rewrite_id, status: 'OFF' }),
      await other.request({ method: 'DELETE', url: `/api/buckets/rewrite/?rewrite_id=${rule.rewrite_id}` }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error_code).toBe(23001);
    }
    expect((await list(owner, 'demo-cdn-06')).rewrite).toEqual([expect.objectContaining({ describe: 'mine', status: 'ON' })]);
  });

  it('lets key customers read but not write (21210)', async () => {
    const key = await new Client(s.app).signIn('demokey');
    expect((await key.get('/api/buckets/rewrite/?bucket_name=key-www')).statusCode).toBe(200);
    const res = await key.put('/api/buckets/rewrite/', { bucket_name: 'key-www', ...general('k') });
    expect(res.statusCode).toBe(403);
    expect(res.json().error_code).toBe(21210);
  });

  it('needs a session', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/api/buckets/rewrite/?bucket_name=demo-www' });
    expect(res.statusCode).toBe(401);
  });

  it('allows at most 100 rules per service (23008)', async () => {
    const c = await demo();
    const bucket = await s.db.selectFrom('buckets').select('id').where('name', '=', 'demo-cdn-07').executeTakeFirstOrThrow();
    await s.db
      .insertInto('edge_rules')
      .values(Array.from({ length: 100 }, (_, i) => ({ bucket_id: bucket.id, describe: `r${i}`, type: 'custom', priority: i + 1, break: false, status: 'OFF', ip: null, content: null, pattern: '', rule: '$EXIT(403)', created_by: 1, updated_by: 1 })))
      .execute();
    const res = await c.put('/api/buckets/rewrite/', { bucket_name: 'demo-cdn-07', ...general('one-more') });
    expect(res.json()).toEqual(expect.objectContaining({ error_code: 23008, message: '每个服务最多配置 100 条边缘规则' }));
  });
});

describe('check, test, address and countries', () => {
  it('checks a program: true, or false with the reason and the position', async () => {
    const c = await demo();
    expect((await c.post('/api/buckets/rewrite/check/', { rule: '/$1', pattern: '^/(a)$' })).json()).toEqual(expect.objectContaining({ result: true, error_code: 0 }));
    const bad = await c.post('/api/buckets/rewrite/check/', { rule: "$WHEN($MATCH($_URI, 'x'))\n  $REDIRECT(/a)", pattern: '' });
    expect(bad.statusCode).toBe(200);
    expect(bad.json()).toEqual({
      result: false,
      error_code: 23007,
      message: '元数据校验未通过',
      data: { part: 'rule', reason: '函数 $REDIRECT 至少需要 2 个参数，实际只有 1 个', line: 2, column: 3, start: 28, end: 41 },
      errors: [{ path: '/rule', message: '第 2 行第 3 列：函数 $REDIRECT 至少需要 2 个参数，实际只有 1 个' }],
    });
    const pattern = await c.post('/api/buckets/rewrite/check/', { rule: '/x', pattern: '(' });
    expect(pattern.json().data).toEqual(expect.objectContaining({ part: 'pattern', reason: 'URI 提取模式不是合法的正则表达式' }));
  });

  it('tests the stored rules of a service on a sample request', async () => {
    const c = await demo();
    await create(c, 'demo-cdn-08', custom('m3u8', "$WHEN($MATCH($_URI, '\\.m3u8$'), $NOT($_GET_sign))$EXIT(403)", { priority: 1 }));
    await create(c, 'demo-cdn-08', custom('hdr', '$ADD_RSP_HEADER(X-Served-By, edge, 1)', { priority: 2 }));
    const denied = await c.post('/api/buckets/rewrite/test/', { bucket_name: 'demo-cdn-08', request: { uri: '/live/a.m3u8' } });
    expect(denied.statusCode).toBe(200);
    expect(denied.json().data).toEqual(expect.objectContaining({ status: 403, matched: [expect.objectContaining({ describe: 'm3u8', priority: 1, ended: 'exit' })] }));
    const passed = await c.post('/api/buckets/rewrite/test/', { bucket_name: 'demo-cdn-08', request: { uri: '/live/a.m3u8', query: 'sign=1' } });
    const data = passed.json().data;
    expect(data).toEqual(
      expect.objectContaining({
        status: null,
        location: null,
        body: null,
        uri: '/live/a.m3u8?sign=1',
        request_headers: [],
        response_headers: [expect.objectContaining({ action: 'add', name: 'X-Served-By', value: 'edge', cover: true, applied: true })],
        limit_rate: { after: null, rate: null },
        matched: [expect.objectContaining({ describe: 'hdr' })],
      }),
    );
  });

  it('tests an edited rule merged into the stored ones, as saving would', async () => {
    const c = await demo();
    const stored = await list(c, 'demo-cdn-08');
    const hdr = stored.rewrite.find((r) => r.describe === 'hdr');
    const res = await c.post('/api/buckets/rewrite/test/', {
      bucket_name: 'demo-cdn-08',
      rules: [{ rewrite_id: hdr.rewrite_id, ...custom('hdr', '$REDIRECT(https://example.com$_URI, 302)', { priority: 1 }) }],
      request: { uri: '/live/a.m3u8' },
    });
    expect(res.json().data).toEqual(expect.objectContaining({ status: 302, location: 'https://example.com/live/a.m3u8' }));
    expect(res.json().rules.map((r: any) => `${r.priority}:${r.describe}`)).toEqual(['1:hdr', '2:m3u8']);
    // rules alone, without a service
    const alone = await c.post('/api/buckets/rewrite/test/', { rules: [general('x', { content: { conditions: [], actions: [{ type: 'limit_rate', rate: '100KB', after: '1MB' }] } })], request: { uri: '/' } });
    expect(alone.json().data.limit_rate).toEqual({ after: 1024 * 1024, rate: 100 * 1024 });
    const neither = await c.post('/api/buckets/rewrite/test/', { request: { uri: '/' } });
    expect(neither.json().errors).toEqual([{ path: '', message: '请提供服务名称或要测试的规则' }]);
    const badReq = await c.post('/api/buckets/rewrite/test/', { bucket_name: 'demo-cdn-08', request: { uri: 'no-slash', ip: 'x' } });
    expect(badReq.json().errors).toEqual(expect.arrayContaining([{ path: '/request/uri', message: '请填写以 / 开头的 URI' }, { path: '/request/ip', message: '请填写合法的 IP' }]));
  });

  it('a DEBUG rule applies to the caller\'s own requests in the tester', async () => {
    const c = await demo();
    await create(c, 'demo-cdn-09', general('dbg', { status: 'DEBUG', ip: '127.0.0.1' }));
    const mine = await c.post('/api/buckets/rewrite/test/', { bucket_name: 'demo-cdn-09', request: { uri: '/dbg' } });
    expect(mine.json().data.status).toBe(403);
    const other = await c.post('/api/buckets/rewrite/test/', { bucket_name: 'demo-cdn-09', request: { uri: '/dbg', ip: '198.51.100.1' } });
    expect(other.json().data.status).toBeNull();
    expect(other.json().data.trace[0].outcome).toBe('debug_ip');
  });

  it('answers the caller\'s address and the countries', async () => {
    const c = await demo();
    expect((await c.get('/api/ip')).json()).toEqual({ result: true, error_code: 0, data: { ip: '127.0.0.1' } });
    const countries = (await c.get('/api/buckets/rewrite/countries/')).json().data;
    expect(countries.CN).toBe('中国');
    expect(Object.keys(countries).length).toBeGreaterThan(50);
  });
});
