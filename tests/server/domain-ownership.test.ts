/**
 * Domain ownership (issue 21 item 13; src/server/domains/ownership.ts): an account that took someone's
 * domain no longer keeps its owner out. The owner is told which DNS TXT record proves the domain; with
 * it in DNS (a stub resolver given through the configuration, as the CNAME tests do) the owner's add
 * takes the binding over. Without the proof, with both accounts' proofs, or with DNS not answering,
 * the domain stays where it is (21215).
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { domainConfigFromEnv } from '../../src/server/domains/config';
import type { CnameResolver } from '../../src/server/domains/resolver';
import { ownershipValue } from '../../src/server/domains/ownership';

/** What the stub "DNS" holds: TXT records by name, or a node:dns error code. */
const txt = new Map<string, string[][] | string>();
const stub: CnameResolver = {
  async resolveCname() {
    throw Object.assign(new Error('no data'), { code: 'ENODATA' });
  },
  async resolveTxt(host) {
    const v = txt.get(host);
    if (v === undefined) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    if (typeof v === 'string') throw Object.assign(new Error(v), { code: v });
    return v;
  },
};

let s: TestServer;
let squatter: Client; // demo
let owner: Client; // demo2fa
let squatterBucket: string;
let ownerBucket: string;

async function firstCdn(username: string) {
  const u = await s.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow();
  return (await s.db.selectFrom('buckets').select('name').where('owner_id', '=', u.id).where('kind', '=', 'cdn').orderBy('id').executeTakeFirstOrThrow()).name;
}
const holderOf = async (domain: string) =>
  (await s.db.selectFrom('bucket_domains as d').innerJoin('buckets as b', 'b.id', 'd.bucket_id').select('b.name').where('d.domain', '=', domain).execute()).map((r) => r.name);
const add = (c: Client, bucket: string, domain: string) => c.post('/api/account/domains/', { bucket_name: bucket, domain });

beforeAll(async () => {
  s = await startTestServer({ config: { domains: { ...domainConfigFromEnv({}), resolver: stub } } });
  squatter = await new Client(s.app).signIn('demo');
  // demo2fa's second step is not what this is about
  await s.db.updateTable('users').set({ two_step: false }).where('username', '=', 'demo2fa').execute();
  owner = await new Client(s.app).signIn('demo2fa');
  squatterBucket = await firstCdn('demo');
  ownerBucket = await firstCdn('demo2fa');
}, 60_000);
afterAll(async () => {
  await s.close();
});

describe.each(['www.bank-of-example.com', '*.bigcorp-example.com'])('%s', (domain) => {
  const record = `_cdn-verify.${domain.replace(/^\*\./, '')}`;
  let ownerProof: { type: string; name: string; value: string };

  it('an account without proof binds a free domain (the spec flow), and its owner is refused with the record to add', async () => {
    expect((await add(squatter, squatterBucket, domain)).json()).toMatchObject({ result: true });
    const refused = await add(owner, ownerBucket, domain);
    expect(refused.statusCode).toBe(409);
    const body = refused.json();
    expect(body).toMatchObject({ error_code: 21215, data: { verify: { type: 'TXT', name: record, value: expect.stringMatching(/^cdn-verify=[0-9a-f]{32}$/) } } });
    ownerProof = body.data.verify;
    expect(body.errors[0].message).toContain(`请在 DNS 中添加 TXT 记录 ${record}，值为 ${ownerProof.value}`);
    // the same token every time, another one for another account
    expect((await add(owner, ownerBucket, domain)).json().data.verify.value).toBe(ownerProof.value);
    expect((await add(squatter, squatterBucket, domain)).json().error_code).toBe(21245);
    expect(await holderOf(domain)).toEqual([squatterBucket]);
  });

  it('DNS not answering, or another value in the record: still refused', async () => {
    txt.set(record, 'ETIMEOUT');
    expect((await add(owner, ownerBucket, domain)).json().error_code).toBe(21215);
    txt.set(record, [['cdn-verify=0123456789abcdef0123456789abcdef'], ['v=spf1 -all']]);
    expect((await add(owner, ownerBucket, domain)).json().error_code).toBe(21215);
    expect(await holderOf(domain)).toEqual([squatterBucket]);
  });

  it("both accounts' proofs in DNS: the holder keeps it", async () => {
    const holderId = (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
    txt.set(record, [[ownerProof.value], [await ownershipValue(s.db, holderId, domain)]]);
    expect((await add(owner, ownerBucket, domain)).json().error_code).toBe(21215);
    expect(await holderOf(domain)).toEqual([squatterBucket]);
  });

  it('with the proof in DNS the owner takes the domain over; the squatter cannot take it back', async () => {
    // a TXT record may come in pieces (long strings): they are joined
    txt.set(record, [['v=spf1 -all'], [ownerProof.value.slice(0, 20), ownerProof.value.slice(20)]]);
    const taken = await add(owner, ownerBucket, domain);
    expect(taken.json()).toMatchObject({ result: true, data: { domain, bucket_name: ownerBucket } });
    expect(await holderOf(domain)).toEqual([ownerBucket]);
    const log = await s.db.selectFrom('operation_logs').selectAll().where('action', '=', 'domain.takeover').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.stringify(log)).toContain(squatterBucket);
    const back = await add(squatter, squatterBucket, domain);
    expect(back.json()).toMatchObject({ error_code: 21215, data: { verify: { name: record } } });
    expect(await holderOf(domain)).toEqual([ownerBucket]);
    txt.delete(record);
  });
});

it("the same account's other service: a plain 21215 (it moves the domain itself), no proof offered", async () => {
  const other = (await s.db.selectFrom('buckets').select('name').where('owner_id', '=', (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id).where('kind', '=', 'cdn').orderBy('id', 'desc').executeTakeFirstOrThrow()).name;
  expect((await add(squatter, squatterBucket, 'same-account.example.org')).json().result).toBe(true);
  const res = (await add(squatter, other, 'same-account.example.org')).json();
  expect(res.error_code).toBe(21215);
  expect(res.data).toBeUndefined();
});
