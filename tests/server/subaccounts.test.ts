/**
 * Sub-accounts through the API (spec 000 §2.5, §4–§9): the list and its pager, create / update /
 * status / delete with every rule of the declaration and its guard, the limit of 10 (41006), the
 * real-name requirement (22005), names unique across every account (21100), grants and revocations
 * with the limit of 100 per type, signing in as a sub-account, and the operation log.
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { hashPassword } from '../../src/server/accounts/passwords';
import { errorText } from '../../src/shared/errors';

let s: TestServer;
let demo: Client;
beforeAll(async () => {
  s = await startTestServer({ config: { billHiddenAccounts: ['demokey'] } });
  demo = await new Client(s.app).signIn('demo');
});
afterAll(async () => {
  await s.close();
});

const ORIGIN = {};
const del = (c: Client, url: string, payload: unknown) => c.request({ method: 'DELETE', url, payload: payload as object, headers: ORIGIN });

async function bucketId(name: string): Promise<number> {
  return (await s.db.selectFrom('buckets').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
}

async function create(c: Client, body: Record<string, unknown>) {
  return c.put('/api/account/child/', { password: 'secret123', permissions: ['cdn', 'stats'], ...body });
}

/** A main account made for one test, verified unless told otherwise. */
async function mainAccount(name: string, verify: 'yes' | 'not' = 'yes'): Promise<Client> {
  await s.db
    .insertInto('users')
    .values({ username: name, email: `${name}@example.com`, mobile: null, password_hash: await hashPassword('demo123456'), verify_status: verify, parent_id: null, permissions: '[]' })
    .execute();
  return new Client(s.app).signIn(name);
}

describe('PUT /api/account/child/ (create)', () => {
  it('creates a sub-account, answers its id, and lists it', async () => {
    const res = await create(demo, { child_name: 'ops_create', nickname: '运维小王', permissions: ['cdn', 'create_cdn', 'stats', 'log'] });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ result: true, error_code: 0, data: { child_id: expect.any(Number) } });
    const list = (await demo.get('/api/account/child/')).json();
    expect(list.result).toBe(true);
    const row = list.children.find((c: any) => c.child_name === 'ops_create');
    expect(row).toEqual({
      child_id: body.data.child_id,
      child_name: 'ops_create',
      nickname: '运维小王',
      status: 'Y',
      permissions: ['cdn', 'create_cdn', 'stats', 'log'],
      created_at: expect.any(String),
    });
    expect(JSON.stringify(list)).not.toContain('password');
    const u = await s.db.selectFrom('users').selectAll().where('username', '=', 'ops_create').executeTakeFirstOrThrow();
    expect(u.password_hash).not.toContain('secret123');
    expect(u.parent_id).toBe((await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id);
  });

  it.each([
    [{ child_name: 'abcd' }, '/child_name', '子账号长度限定 5 - 20 位字符'],
    [{ child_name: 'a'.repeat(21) }, '/child_name', '子账号长度限定 5 - 20 位字符'],
    [{ child_name: 'Upper_case' }, '/child_name', '小写英文开头，小写英文、数字、下划线和中划线组合'],
    [{ child_name: '9lives' }, '/child_name', '小写英文开头，小写英文、数字、下划线和中划线组合'],
    [{ child_name: 'ops_pw1', password: 'short1' }, '/password', '密码长度仅限 8~20 位'],
    [{ child_name: 'ops_pw2', password: 'x'.repeat(21) }, '/password', '密码长度仅限 8~20 位'],
    [{ child_name: 'ops_pw3', password: '1234567890' }, '/password', '为了账号安全，不允许使用全数字密码'],
    [{ child_name: 'ops_nick1', nickname: '长'.repeat(61) }, '/nickname', '字符长度超过限制'],
    [{ child_name: 'ops_nick2', nickname: 'a b' }, '/nickname', '仅限中文，大小写英文，数字，下划线和中划线'],
    [{ child_name: 'ops_perm', permissions: ['cdn', 'root'] }, '/permissions/1', '包含不支持的权限'],
  ])('refuses %j with 20001 and the message at its field', async (body, path, message) => {
    const res = await create(demo, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error_code).toBe(20001);
    expect(res.json().errors).toEqual(expect.arrayContaining([{ path, message }]));
  });

  it('refuses a missing name and password with the spec texts', async () => {
    const res = await demo.put('/api/account/child/', { permissions: ['cdn'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual(expect.arrayContaining([
      { path: '/child_name', message: '子账号不能为空' },
      { path: '/password', message: '密码不能为空' },
    ]));
  });

  it('refuses a name any account already has, whatever its case (21100)', async () => {
    // main accounts and sub-accounts, of this account or another
    await s.db.updateTable('users').set({ username: 'MixedCase1' }).where('username', '=', 'demonew').execute();
    for (const name of ['demo2fa', 'demo_ops', 'demokey', 'mixedcase1']) {
      const res = await create(demo, { child_name: name });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual(expect.objectContaining({ error_code: 21100, message: '该账号已存在，请重新输入', errors: [{ path: '/child_name', message: '该账号已存在，请重新输入' }] }));
    }
    await s.db.updateTable('users').set({ username: 'demonew' }).where('username', '=', 'MixedCase1').execute();
  });

  it.each([
    [['authorized_service', 'stats'], 41011, '请先选择授权的服务'],
    [['live', 'authorized_service', 'stats', 'monitor'], 41012, '仅选择了直播服务时不能授予监控和缓存刷新权限'],
    [['live', 'cache'], 41012, '仅选择了直播服务时不能授予监控和缓存刷新权限'],
    [['cdn', 'forbidden_down_ssl'], 41010, '请先开启 SSL 证书权限后再禁止下载证书'],
    [['cdn', 'cloud_audit'], 41008, '请先开通内容识别后再授权子账号'],
    [[], 41005, '请至少选择一项权限'],
    [['authorized_service', 'cdn'], 41005, '请至少选择一项权限'],
  ])('refuses the permissions %j with the rule of rules.ts (%i)', async (permissions, code, message) => {
    const res = await create(demo, { child_name: 'ops_rules', permissions });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(expect.objectContaining({ result: false, error_code: code, message }));
    expect(res.json().errors).toContainEqual({ path: '/permissions', message, code });
    expect(await s.db.selectFrom('users').select('id').where('username', '=', 'ops_rules').executeTakeFirst()).toBeUndefined();
  });

  it('refuses bill for a special account (41009) and accepts it for others', async () => {
    const key = await new Client(s.app).signIn('demokey');
    const list = (await key.get('/api/account/child/')).json();
    expect(list.grantable).toEqual({ bill: false });
    const refused = await create(key, { child_name: 'key_bill', permissions: ['bill'] });
    expect(refused.json().error_code).toBe(41009);
    expect((await demo.get('/api/account/child/')).json().grantable).toEqual({ bill: true });
    expect((await create(demo, { child_name: 'demo_bill', permissions: ['bill'] })).statusCode).toBe(200);
  });

  it('refuses an account that is not real-name verified (22005)', async () => {
    const res = await create(await new Client(s.app).signIn('demonew'), { child_name: 'new_child' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(expect.objectContaining({ error_code: 22005, message: '请先完成实名认证' }));
  });

  it('allows at most 10 sub-accounts per account (41006)', async () => {
    const owner = await mainAccount('limit_owner');
    for (let i = 0; i < 10; i++) {
      const res = await create(owner, { child_name: `limit_child_${i}` });
      expect(res.statusCode).toBe(200);
    }
    const res = await create(owner, { child_name: 'limit_child_x' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(expect.objectContaining({ error_code: 41006, message: errorText(41006) }));
    // deleting one makes room again
    const list = (await owner.get('/api/account/child/')).json();
    expect(list.children).toHaveLength(10);
    expect(list.pager).toEqual({ since: null, max: null });
    expect((await del(owner, '/api/account/child/', { child_id: list.children[0].child_id })).statusCode).toBe(200);
    expect((await create(owner, { child_name: 'limit_child_x' })).statusCode).toBe(200);
  });

  it('is for main accounts only (21111)', async () => {
    const ops = await new Client(s.app).signIn('demo_ops');
    const res = await create(ops, { child_name: 'ops_of_ops' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error_code).toBe(21111);
    expect((await ops.get('/api/account/child/')).json().error_code).toBe(21111);
  });
});

describe('GET /api/account/child/check/', () => {
  it('says whether a name is taken by any account', async () => {
    const taken = (await demo.get('/api/account/child/check/?check_type=username&check_value=demo2fa')).json();
    expect(taken).toEqual({ result: true, error_code: 0, data: { exists: true } });
    expect((await demo.get('/api/account/child/check/?check_type=username&check_value=Demo_Ops')).json().result).toBe(true);
    const free = (await demo.get('/api/account/child/check/?check_type=username&check_value=nobody_here')).json();
    expect(free).toEqual({ result: false, error_code: 0, data: { exists: false } });
    expect((await demo.get('/api/account/child/check/?check_type=email&check_value=x')).statusCode).toBe(400);
  });
});

describe('the list pages by cursor', () => {
  it('pages forwards and back with since/max', async () => {
    const owner = await mainAccount('pager_owner');
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create(owner, { child_name: `pager_child_${i}` })).json().data.child_id);
    const p1 = (await owner.get('/api/account/child/?limit=2')).json();
    expect(p1.children.map((c: any) => c.child_id)).toEqual(ids.slice(0, 2));
    expect(p1.pager).toEqual({ since: null, max: ids[1] });
    const p2 = (await owner.get(`/api/account/child/?limit=2&max=${p1.pager.max}`)).json();
    expect(p2.children.map((c: any) => c.child_id)).toEqual(ids.slice(2, 4));
    expect(p2.pager).toEqual({ since: ids[2], max: ids[3] });
    const p3 = (await owner.get(`/api/account/child/?limit=2&max=${p2.pager.max}`)).json();
    expect(p3.children.map((c: any) => c.child_id)).toEqual([ids[4]]);
    expect(p3.pager).toEqual({ since: ids[4], max: null });
    const back = (await owner.get(`/api/account/child/?limit=2&since=${p3.pager.since}`)).json();
    expect(back.children.map((c: any) => c.child_id)).toEqual(ids.slice(2, 4));
    const empty = (await (await mainAccount('pager_empty')).get('/api/account/child/')).json();
    expect(empty).toEqual(expect.objectContaining({ result: true, children: [], pager: { since: null, max: null } }));
    expect((await owner.get('/api/account/child/?limit=11')).statusCode).toBe(400);
  });
});

describe('POST /api/account/child/ (update and status)', () => {
  let childId: number;
  beforeAll(async () => {
    childId = (await create(demo, { child_name: 'ops_update', nickname: '旧备注', permissions: ['cdn', 'stats'] })).json().data.child_id;
  });

  it('updates permissions and nickname; a blank password leaves it unchanged', async () => {
    const res = await demo.post('/api/account/child/', { child_id: childId, nickname: '新备注', permissions: ['file', 'stats', 'log', 'https', 'forbidden_down_ssl'] });
    expect(res.statusCode).toBe(200);
    const row = (await demo.get('/api/account/child/')).json().children.find((c: any) => c.child_id === childId);
    expect(row.nickname).toBe('新备注');
    expect(row.permissions).toEqual(['file', 'stats', 'log', 'https', 'forbidden_down_ssl']);
    expect((await new Client(s.app).post('/accounts/signin/', { username: 'ops_update', password: 'secret123' })).statusCode).toBe(200);
  });

  it('changes the password with the same rules, and signs the sub-account out', async () => {
    const child = await new Client(s.app).signIn('ops_update', 'secret123');
    expect((await child.get('/api/accounts/v2/usage/')).statusCode).toBe(200);
    const digits = await demo.post('/api/account/child/', { child_id: childId, password: '12345678', permissions: ['cdn'] });
    expect(digits.json().errors).toEqual([{ path: '/password', message: '为了账号安全，不允许使用全数字密码' }]);
    expect((await demo.post('/api/account/child/', { child_id: childId, password: 'newpass123', permissions: ['cdn', 'stats'] })).statusCode).toBe(200);
    expect((await child.get('/api/accounts/v2/usage/')).statusCode).toBe(401);
    expect((await new Client(s.app).post('/accounts/signin/', { username: 'ops_update', password: 'secret123' })).json().error_code).toBe(21108);
    expect((await new Client(s.app).post('/accounts/signin/', { username: 'ops_update', password: 'newpass123' })).statusCode).toBe(200);
  });

  it('keeps the name read-only and refuses the rules of the guard', async () => {
    const rename = await demo.post('/api/account/child/', { child_id: childId, child_name: 'ops_renamed', permissions: ['cdn'] });
    expect(rename.json().errors).toEqual([{ path: '/child_name', message: '子账号名称不能修改' }]);
    const same = await demo.post('/api/account/child/', { child_id: childId, child_name: 'ops_update', permissions: ['cdn', 'stats'] });
    expect(same.statusCode).toBe(200);
    expect((await demo.post('/api/account/child/', { child_id: childId, permissions: ['cdn', 'cloud_audit'] })).json().error_code).toBe(41008);
    expect((await demo.post('/api/account/child/', { child_id: childId, permissions: [] })).json().error_code).toBe(41005);
    expect((await demo.post('/api/account/child/', { child_id: childId })).json().errors).toEqual([{ path: '/permissions', message: '请选择权限' }]);
  });

  it('keeps cloud_audit on a sub-account that already holds it, and lets it go', async () => {
    await s.db.updateTable('users').set({ permissions: JSON.stringify(['cdn', 'cloud_audit']) }).where('id', '=', childId).execute();
    expect((await demo.post('/api/account/child/', { child_id: childId, permissions: ['cdn', 'cloud_audit', 'stats'] })).statusCode).toBe(200);
    expect((await demo.post('/api/account/child/', { child_id: childId, permissions: ['cdn', 'stats'] })).statusCode).toBe(200);
    expect((await demo.post('/api/account/child/', { child_id: childId, permissions: ['cdn', 'cloud_audit'] })).json().error_code).toBe(41008);
  });

  it('refuses cloud_audit with 41008 while the account has no content audit (GET /api/audit/exists false)', async () => {
    await s.db.updateTable('users').set({ permissions: JSON.stringify(['cdn', 'cloud_audit']) }).where('id', '=', childId).execute();
    const demoId = (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
    const saved = await s.db.selectFrom('audit_services').selectAll().where('account_id', '=', demoId).execute();
    expect(saved.length).toBeGreaterThan(0);
    await s.db.deleteFrom('audit_services').where('account_id', '=', demoId).execute();
    try {
      expect((await demo.get(`/api/audit/exists?user_id=${demoId}`)).json().data.exists).toBe(false);
      const res = await demo.post('/api/account/child/', { child_id: childId, permissions: ['cdn', 'cloud_audit', 'stats'] });
      expect(res.json()).toEqual(expect.objectContaining({ error_code: 41008, message: '请先开通内容识别后再授权子账号' }));
      const held = await s.db.selectFrom('users').select('permissions').where('id', '=', childId).executeTakeFirstOrThrow();
      expect(held.permissions).toEqual(['cdn', 'cloud_audit']);
      // letting it go needs no audit
      expect((await demo.post('/api/account/child/', { child_id: childId, permissions: ['cdn', 'stats'] })).statusCode).toBe(200);
    } finally {
      await s.db.insertInto('audit_services').values(saved).execute();
    }
  });

  it('disables and enables; a disabled sub-account is signed out and cannot sign in (41014)', async () => {
    const child = await new Client(s.app).signIn('ops_update', 'newpass123');
    const off = await demo.post('/api/account/child/', { child_id: childId, status: 'N' });
    expect(off.statusCode).toBe(200);
    expect((await demo.get('/api/account/child/')).json().children.find((c: any) => c.child_id === childId).status).toBe('N');
    expect((await child.get('/api/accounts/v2/usage/')).statusCode).toBe(401);
    const refused = await new Client(s.app).post('/accounts/signin/', { username: 'ops_update', password: 'newpass123' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual(expect.objectContaining({ error_code: 41014, message: '该子账号已被禁用，请联系主账号' }));
    expect((await demo.post('/api/account/child/', { child_id: childId, status: 'Y' })).statusCode).toBe(200);
    expect((await new Client(s.app).post('/accounts/signin/', { username: 'ops_update', password: 'newpass123' })).statusCode).toBe(200);
    expect((await demo.post('/api/account/child/', { child_id: childId, status: 'X' })).statusCode).toBe(400);
    expect((await demo.post('/api/account/child/', { child_id: childId, status: 'N', permissions: ['cdn'] })).json().errors).toEqual([{ path: '/status', message: '修改权限时不能同时修改状态' }]);
  });

  it('does not touch another account\'s sub-accounts (41001)', async () => {
    const other = await mainAccount('other_owner');
    expect((await other.post('/api/account/child/', { child_id: childId, status: 'N' })).json().error_code).toBe(41001);
    expect((await del(other, '/api/account/child/', { child_id: childId })).json().error_code).toBe(41001);
    expect((await other.get(`/api/bucket/child/?child_id=${childId}`)).json().error_code).toBe(41001);
    expect((await other.get('/api/account/child/')).json().children).toEqual([]);
  });
});

describe('grants: /api/bucket/child/', () => {
  let childId: number;
  beforeAll(async () => {
    childId = (await create(demo, { child_name: 'ops_grants', permissions: ['cdn', 'file', 'live', 'authorized_service', 'stats'] })).json().data.child_id;
  });

  it('grants one bucket per call, lists the binds, and revokes', async () => {
    const www = await bucketId('demo-www');
    const g1 = await demo.put('/api/bucket/child/', { child_id: childId, bucket_id: www });
    expect(g1.statusCode).toBe(200);
    const id = g1.json().data.id;
    // granting again answers the same grant
    expect((await demo.put('/api/bucket/child/', { child_id: childId, bucket_id: www })).json().data.id).toBe(id);
    await demo.put('/api/bucket/child/', { child_id: childId, bucket_id: await bucketId('demo-assets') });
    await demo.put('/api/bucket/child/', { child_id: childId, bucket_id: await bucketId('demo-fusion') });
    const all = (await demo.get(`/api/bucket/child/?child_id=${childId}`)).json();
    expect(all.binds).toEqual([
      { id, bucket_id: www, bucket_name: 'demo-www', bucket_type: 'cdn' },
      { id: expect.any(Number), bucket_id: await bucketId('demo-assets'), bucket_name: 'demo-assets', bucket_type: 'file' },
      { id: expect.any(Number), bucket_id: await bucketId('demo-fusion'), bucket_name: 'demo-fusion', bucket_type: 'cdn' },
    ]);
    const cdn = (await demo.get(`/api/bucket/child/?child_id=${childId}&bucket_type=cdn&limit=100`)).json();
    expect(cdn.binds.map((b: any) => b.bucket_name)).toEqual(['demo-www', 'demo-fusion']);
    expect((await del(demo, '/api/bucket/child/', { id })).statusCode).toBe(200);
    expect((await del(demo, '/api/bucket/child/', { id })).json().error_code).toBe(41013);
    expect((await demo.get(`/api/bucket/child/?child_id=${childId}&bucket_type=cdn`)).json().binds.map((b: any) => b.bucket_name)).toEqual(['demo-fusion']);
  });

  it('refuses another account\'s bucket (21905), a type that cannot be granted (41015) and a kind the sub-account lacks (41007)', async () => {
    expect((await demo.put('/api/bucket/child/', { child_id: childId, bucket_id: await bucketId('secure-www') })).json().error_code).toBe(21905);
    expect((await demo.put('/api/bucket/child/', { child_id: childId, bucket_id: await bucketId('demo-shop') })).json().error_code).toBe(41015);
    const noFile = (await create(demo, { child_name: 'ops_nofile', permissions: ['cdn', 'stats'] })).json().data.child_id;
    const res = await demo.put('/api/bucket/child/', { child_id: noFile, bucket_id: await bucketId('demo-assets') });
    expect(res.json()).toEqual(expect.objectContaining({ error_code: 41007, message: errorText(41007) }));
    expect((await demo.put('/api/bucket/child/', { child_id: 999999, bucket_id: await bucketId('demo-www') })).json().error_code).toBe(41001);
  });

  it('grants at most 100 buckets of a type (41004)', async () => {
    const owner = await mainAccount('many_owner');
    const ownerId = (await s.db.selectFrom('users').select('id').where('username', '=', 'many_owner').executeTakeFirstOrThrow()).id;
    const child = (await create(owner, { child_name: 'many_child', permissions: ['cdn', 'file', 'stats'] })).json().data.child_id;
    const rows = await s.db
      .insertInto('buckets')
      .values(Array.from({ length: 101 }, (_, i) => ({ name: `many-cdn-${i}`, owner_id: ownerId, kind: 'cdn' })))
      .returning('id')
      .execute();
    await s.db.insertInto('child_buckets').values(rows.slice(0, 100).map((r) => ({ child_id: child, bucket_id: r.id, bucket_type: 'cdn' }))).execute();
    const res = await owner.put('/api/bucket/child/', { child_id: child, bucket_id: rows[100].id });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(expect.objectContaining({ error_code: 41004, message: '每类服务最多授权 100 个' }));
    // another type still has room
    const file = await s.db.insertInto('buckets').values({ name: 'many-file', owner_id: ownerId, kind: 'file' }).returning('id').executeTakeFirstOrThrow();
    expect((await owner.put('/api/bucket/child/', { child_id: child, bucket_id: file.id })).statusCode).toBe(200);
    expect((await owner.get(`/api/bucket/child/?child_id=${child}&bucket_type=cdn&limit=100`)).json().binds).toHaveLength(100);
  });

  it('deleting a sub-account removes its grants', async () => {
    const id = (await create(demo, { child_name: 'ops_gone', permissions: ['cdn', 'stats'] })).json().data.child_id;
    await demo.put('/api/bucket/child/', { child_id: id, bucket_id: await bucketId('demo-static') });
    expect((await del(demo, '/api/account/child/', { child_id: id })).json()).toEqual({ result: true, error_code: 0, data: { child_id: id } });
    expect(await s.db.selectFrom('child_buckets').select('id').where('child_id', '=', id).execute()).toEqual([]);
    expect(await s.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    expect((await new Client(s.app).post('/accounts/signin/', { username: 'ops_gone', password: 'secret123' })).json().error_code).toBe(21108);
  });
});

describe('a sub-account signed in', () => {
  it('signs in with its name and password and carries its permissions', async () => {
    const ops = new Client(s.app);
    const res = await ops.post('/accounts/signin/', { username: 'demo_ops', password: 'demo123456' });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toEqual(expect.objectContaining({ username: 'demo_ops', child: { permissions: ['cdn', 'stats', 'authorized_service'] } }));
  });

  it('sees only the kinds it holds and, with authorized_service, its granted buckets', async () => {
    const ops = await new Client(s.app).signIn('demo_ops');
    const list = (await ops.get('/api/buckets/?limit=100')).json();
    expect(list.data.map((b: any) => b.bucket_name)).toEqual(['demo-www']);
    const summary = (await ops.get('/api/buckets/summary/')).json().data;
    expect(summary).toEqual({ file: 0, cdn: 1, scdn: 0, live: 0, websocket: 0, overseas: 0, fusion: 0 });
    expect((await ops.get('/api/buckets/info/?bucket_name=demo-www')).statusCode).toBe(200);
    expect((await ops.get('/api/buckets/info/?bucket_name=demo-static')).json().error_code).toBe(21905);
    expect((await ops.get('/api/buckets/info/?bucket_name=demo-assets')).json().error_code).toBe(21905);
    expect((await ops.get('/api/settings/compression/?bucket_name=demo-static')).json().error_code).toBe(21905);
    expect((await ops.get('/api/settings/compression/?bucket_name=demo-www')).statusCode).toBe(200);
  });

  it('with data scope all (no authorized_service) opens only the services granted to it, and sees the data of every service', async () => {
    // spec 000 §2.5, §6: the bucket lists decide which services it may open and configure;
    // authorized_service decides the data it sees (statistics, monitor, cache refresh, log download)
    const id = (await create(demo, { child_name: 'ops_allcdn', permissions: ['cdn', 'live', 'scdn', 'stats', 'log'] })).json().data.child_id;
    const www = await s.db.selectFrom('buckets').select('id').where('name', '=', 'demo-www').executeTakeFirstOrThrow();
    expect((await demo.put('/api/bucket/child/', { child_id: id, bucket_id: www.id })).statusCode).toBe(200);
    const c = await new Client(s.app).signIn('ops_allcdn', 'secret123');
    const names = (await c.get('/api/buckets/?limit=100')).json().data.map((b: any) => b.bucket_name);
    // the one CDN service granted, no live service (none granted), and every SCDN service (SCDN has no bucket list)
    expect(names).toContain('demo-www');
    expect(names).not.toContain('demo-static');
    expect(names).not.toContain('demo-live');
    expect(names).toContain('demo-shop');
    const summary = (await c.get('/api/buckets/summary/')).json().data;
    expect(summary).toEqual(expect.objectContaining({ cdn: 1, fusion: 0, live: 0, file: 0, scdn: 2 }));
    expect((await c.get('/api/buckets/info/?bucket_name=demo-static')).json().error_code).toBe(21905);
    expect((await c.get('/api/settings/compression/?bucket_name=demo-static')).json().error_code).toBe(21905);
    expect((await c.post('/api/settings/compression/', { bucket_name: 'demo-static', status: 'disable', gzip: { disable: true, level: 1 }, br: { disable: true, level: 1 } })).json().error_code).toBe(21905);
    expect((await c.get('/api/settings/compression/?bucket_name=demo-www')).statusCode).toBe(200);
    // the data: every CDN service of the account in the statistics selector, and the log of one not granted
    const statsNames = (await c.get('/api/stats/buckets/?flow_type=cdn&limit=100')).json().data.map((b: any) => b.bucket_name);
    expect(statsNames).toEqual(expect.arrayContaining(['demo-www', 'demo-static']));
    expect((await c.get('/api/analysis/?bucket_name=demo-static')).statusCode).toBe(200);
    await del(demo, '/api/account/child/', { child_id: id });
  });

  it('with authorized_service, its data is the granted services only', async () => {
    const ops = await new Client(s.app).signIn('demo_ops');
    const statsNames = (await ops.get('/api/stats/buckets/?flow_type=cdn&limit=100')).json().data.map((b: any) => b.bucket_name);
    expect(statsNames).toEqual(['demo-www']);
  });

  it('permission changes apply at once, without signing in again', async () => {
    const id = (await create(demo, { child_name: 'ops_live', permissions: ['cdn', 'stats'] })).json().data.child_id;
    const bucketId = async (name: string) => (await s.db.selectFrom('buckets').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    await demo.put('/api/bucket/child/', { child_id: id, bucket_id: await bucketId('demo-www') });
    const c = await new Client(s.app).signIn('ops_live', 'secret123');
    expect((await c.get('/api/buckets/info/?bucket_name=demo-www')).statusCode).toBe(200);
    await demo.post('/api/account/child/', { child_id: id, permissions: ['file', 'stats'] });
    expect((await c.get('/api/buckets/info/?bucket_name=demo-www')).json().error_code).toBe(21905);
    expect((await c.get('/api/buckets/info/?bucket_name=demo-assets')).json().error_code).toBe(21905);
    await demo.put('/api/bucket/child/', { child_id: id, bucket_id: await bucketId('demo-assets') });
    expect((await c.get('/api/buckets/info/?bucket_name=demo-assets')).statusCode).toBe(200);
  });
});

describe('GET /api/logs/ (operation log)', () => {
  it('records every change with who, what, target, when and address, newest first', async () => {
    const owner = await mainAccount('log_owner');
    const ownerId = (await s.db.selectFrom('users').select('id').where('username', '=', 'log_owner').executeTakeFirstOrThrow()).id;
    const bucket = await s.db.insertInto('buckets').values({ name: 'log-cdn', owner_id: ownerId, kind: 'cdn' }).returning('id').executeTakeFirstOrThrow();
    await s.db.updateTable('users').set({ smart_compression: true }).where('id', '=', ownerId).execute(); // compression is behind this business flag
    const child = (await create(owner, { child_name: 'log_child', permissions: ['cdn', 'stats'] })).json().data.child_id;
    await owner.post('/api/account/child/', { child_id: child, permissions: ['cdn', 'stats', 'log'] });
    const grant = (await owner.put('/api/bucket/child/', { child_id: child, bucket_id: bucket.id })).json().data.id;
    // a change made by the sub-account itself (on the service granted to it) is in its main account's log
    const sub = await new Client(s.app).signIn('log_child', 'secret123');
    expect((await sub.post('/api/settings/compression/', { bucket_name: 'log-cdn', status: 'disable', gzip: { disable: true, level: 1 }, br: { disable: true, level: 1 } })).statusCode).toBe(200);
    await del(owner, '/api/bucket/child/', { id: grant });
    await owner.post('/api/account/child/', { child_id: child, status: 'N' });
    await owner.post('/api/account/child/', { child_id: child, status: 'Y' });
    await del(owner, '/api/account/child/', { child_id: child });

    const res = await owner.get('/api/logs/');
    expect(res.statusCode).toBe(200);
    const log = res.json();
    expect(log.data.map((e: any) => [e.action, e.target, e.username])).toEqual([
      ['child.delete', 'log_child', 'log_owner'],
      ['child.enable', 'log_child', 'log_owner'],
      ['child.disable', 'log_child', 'log_owner'],
      ['child.revoke', 'log_child/log-cdn', 'log_owner'],
      ['setting.update', 'log-cdn/compression', 'log_child'],
      ['child.grant', 'log_child/log-cdn', 'log_owner'],
      ['child.update', 'log_child', 'log_owner'],
      ['child.create', 'log_child', 'log_owner'],
    ]);
    expect(log.data[0]).toEqual(expect.objectContaining({ action_text: '删除子账号', ip: expect.any(String), created_at: expect.any(String), user_id: ownerId }));
    expect(log.data.find((e: any) => e.action === 'child.grant').action_text).toBe('授权空间');
    expect(JSON.stringify(log)).not.toContain('secret123');
    // the sub-account, though deleted, is still named
    expect(log.data[4].username).toBe('log_child');
    expect(log.pager).toEqual({ since: null, max: null });
    // paging, newest first
    const p1 = (await owner.get('/api/logs/?limit=3')).json();
    expect(p1.data.map((e: any) => e.action)).toEqual(['child.delete', 'child.enable', 'child.disable']);
    expect(p1.pager).toEqual({ since: null, max: p1.data[2].id });
    const p2 = (await owner.get(`/api/logs/?limit=3&max=${p1.pager.max}`)).json();
    expect(p2.data.map((e: any) => e.action)).toEqual(['child.revoke', 'setting.update', 'child.grant']);
    expect(p2.pager).toEqual({ since: p2.data[0].id, max: p2.data[2].id });
    const back = (await owner.get(`/api/logs/?limit=3&since=${p2.pager.since}`)).json();
    expect(back.data.map((e: any) => e.id)).toEqual(p1.data.map((e: any) => e.id));
    // another account sees none of it; a sub-account may not read the log
    expect((await (await mainAccount('log_stranger')).get('/api/logs/')).json().data).toEqual([]);
    expect((await (await new Client(s.app).signIn('demo_ops')).get('/api/logs/')).json().error_code).toBe(21111);
  });
});
