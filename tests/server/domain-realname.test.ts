/**
 * Real-name verification before binding a domain (issue 21 item 13; docs/security.md "Domain ownership"):
 * every path that binds a domain to a service — POST /api/account/domains/ and PUT /api/buckets/ with
 * domains — refuses an account whose main account has not completed real-name verification with 22005
 * (请先完成实名认证) and the field message 绑定域名前请先完成实名认证, storing nothing; the same account
 * binds once the platform approves its verification; a sub-account is judged by its main account.
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { hashPassword } from '../../src/server/accounts/passwords';
import { accountCommands } from '../../src/server/accounts/commands';
import { DOMAIN_TEXTS } from '../../src/shared/domains';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
}, 180000);
afterAll(async () => {
  await s.close();
});

const REFUSED = { result: false, error_code: 22005, message: '请先完成实名认证' };
const addDomain = (c: Client, bucket: string, domain: string) => c.post('/api/account/domains/', { bucket_name: bucket, domain });
const bound = async (domain: string) => (await s.db.selectFrom('bucket_domains as d').innerJoin('buckets as b', 'b.id', 'd.bucket_id').select('b.name').where('d.domain', '=', domain).executeTakeFirst())?.name ?? null;
const logged = async (action: string, target: string) => (await s.db.selectFrom('operation_logs').select('id').where('action', '=', action).where('target', '=', target).execute()).length;
const idOf = async (username: string) => (await s.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;

/** A sub-account made for one test, with create_cdn and the given services granted. */
async function subAccount(name: string, parent: string, verify: 'yes' | 'not', granted: string[]): Promise<Client> {
  const row = await s.db
    .insertInto('users')
    .values({ username: name, email: null, mobile: null, password_hash: await hashPassword('demo123456'), verify_status: verify, parent_id: await idOf(parent), permissions: JSON.stringify(['cdn', 'create_cdn']) })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const b of granted) {
    const bucket = await s.db.selectFrom('buckets').select('id').where('name', '=', b).executeTakeFirstOrThrow();
    await s.db.insertInto('child_buckets').values({ child_id: row.id, bucket_id: bucket.id, bucket_type: 'cdn' }).execute();
  }
  return new Client(s.app).signIn(name);
}

/** The real verification flow: the account submits a company verification, the platform approves it. */
async function verify(c: Client, username: string) {
  const boundary = '----realname' + Math.random().toString(16).slice(2);
  const fields = { kind: 'company', name: '示例科技有限公司', id_number: '91350100M000100Y43', legal_person: '李四' };
  const parts: Buffer[] = Object.entries(fields).map(([k, v]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="license"; filename="l.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), Buffer.from(`\r\n--${boundary}--\r\n`));
  const res = await c.request({ method: 'POST', url: '/accounts/identity/certificate/', payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
  expect(res.json()).toMatchObject({ result: true, data: { status: 'pending' } });
  await accountCommands.find((x) => x.name === 'account-verify')!.run(s.db, { username, decision: 'approve' });
}

describe('an unverified main account (demonew)', () => {
  let c: Client;
  beforeAll(async () => {
    c = await new Client(s.app).signIn('demonew');
    expect((await s.db.selectFrom('users').select('verify_status').where('username', '=', 'demonew').executeTakeFirstOrThrow()).verify_status).toBe('not');
  });

  it('cannot create a service with domains (22005), nothing stored; without domains it can', async () => {
    const res = await c.put('/api/buckets/', { bucket_name: 'rn-new-site', kind: 'cdn', domains: ['www.bank-of-example.com', '*.bigcorp-example.com'] });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ ...REFUSED, errors: [{ path: '/domains', message: '绑定域名前请先完成实名认证' }] });
    expect(await s.db.selectFrom('buckets').select('id').where('name', '=', 'rn-new-site').executeTakeFirst()).toBeUndefined();
    expect(await bound('www.bank-of-example.com')).toBeNull();
    expect(await bound('*.bigcorp-example.com')).toBeNull();
    expect(await logged('bucket.create', 'rn-new-site')).toBe(0);
    // a service without domains: created (its domains come once the account is verified)
    const bare = await c.put('/api/buckets/', { bucket_name: 'rn-new-site', kind: 'cdn', domains: [] });
    expect(bare.statusCode).toBe(200);
    expect(bare.json().data).toMatchObject({ bucket_name: 'rn-new-site', domains: [] });
  });

  it('cannot add a domain to its service (22005): not a plain name, not a wildcard, not one another account holds', async () => {
    for (const domain of ['www.bank-of-example.com', '*.bigcorp-example.com']) {
      const res = await addDomain(c, 'rn-new-site', domain);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ ...REFUSED, errors: [{ path: '/domain', message: DOMAIN_TEXTS.realname }] });
      expect(await bound(domain)).toBeNull();
    }
    // a domain of demo's: refused for real-name first, so not even the ownership record is handed out
    const held = await addDomain(c, 'rn-new-site', 'www.demo-example.com');
    expect(held.json()).toEqual({ ...REFUSED, errors: [{ path: '/domain', message: DOMAIN_TEXTS.realname }] });
    expect(await bound('www.demo-example.com')).toBe('demo-www');
    expect(await logged('domain.add', 'rn-new-site')).toBe(0);
    expect((await c.get('/api/account/domains/?bucket_name=rn-new-site')).json()).toMatchObject({ data: [], total: 0 });
  });

  it('binds once the platform has approved its real-name verification', async () => {
    await verify(c, 'demonew');
    const res = await addDomain(c, 'rn-new-site', 'www.bank-of-example.com');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ domain: 'www.bank-of-example.com', bucket_name: 'rn-new-site' });
    const created = await c.put('/api/buckets/', { bucket_name: 'rn-second-site', kind: 'cdn', domains: ['*.bigcorp-example.com'] });
    expect(created.statusCode).toBe(200);
    expect(await bound('*.bigcorp-example.com')).toBe('rn-second-site');
  });
});

describe('sub-accounts act for their main account', () => {
  it('a sub-account of a verified main account binds (demo_ops; one whose own row says not, too)', async () => {
    const ops = await new Client(s.app).signIn('demo_ops');
    const res = await addDomain(ops, 'demo-www', 'rn-ops.demo-example.com');
    expect(res.statusCode).toBe(200);
    expect(await bound('rn-ops.demo-example.com')).toBe('demo-www');
    const own = await subAccount('rn_demo_child', 'demo', 'not', ['demo-www']);
    expect((await addDomain(own, 'demo-www', 'rn-child.demo-example.com')).statusCode).toBe(200);
    const created = await own.put('/api/buckets/', { bucket_name: 'rn-child-site', kind: 'cdn', domains: ['www.rn-child-example.com'] });
    expect(created.statusCode).toBe(200);
    expect(await bound('www.rn-child-example.com')).toBe('rn-child-site');
  });

  it('a sub-account of an unverified main account is refused, whatever its own row says', async () => {
    await s.db.insertInto('users').values({ username: 'rn_unverified', email: 'rn_unverified@example.com', mobile: null, password_hash: await hashPassword('demo123456'), verify_status: 'not', parent_id: null, permissions: '[]' }).execute();
    const main = await new Client(s.app).signIn('rn_unverified');
    expect((await main.put('/api/buckets/', { bucket_name: 'rn-unverified-www', kind: 'cdn', domains: [] })).statusCode).toBe(200);
    const sub = await subAccount('rn_unverified_ops', 'rn_unverified', 'yes', ['rn-unverified-www']);
    const add = await addDomain(sub, 'rn-unverified-www', 'www.rn-unverified-example.com');
    expect(add.statusCode).toBe(403);
    expect(add.json()).toEqual({ ...REFUSED, errors: [{ path: '/domain', message: DOMAIN_TEXTS.realname }] });
    const create = await sub.put('/api/buckets/', { bucket_name: 'rn-unverified-two', kind: 'cdn', domains: ['www.rn-unverified-example.com'] });
    expect(create.json()).toEqual({ ...REFUSED, errors: [{ path: '/domains', message: DOMAIN_TEXTS.realname }] });
    expect(await bound('www.rn-unverified-example.com')).toBeNull();
    expect(await s.db.selectFrom('buckets').select('id').where('name', '=', 'rn-unverified-two').executeTakeFirst()).toBeUndefined();
  });
});
