/**
 * The scale seed (`npm run platform -- edge-seed`, src/server/seed/scale.ts): N synthetic CDN services with a
 * domain each, the demo origin, some settings and an edge rule; idempotent; `--remove` takes them away. A small
 * N here (the 100,000 figure is in docs/edge.md "How it scales").
 */
import { sql } from 'kysely';
import { edgeCommands } from '../../src/server/edge/commands';
import { configSnapshot, currentVersion } from '../../src/server/edge/repo';
import { seedScale, SCALE_REMARK } from '../../src/server/seed/scale';
import { startTestServer, Client, type TestServer } from './helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
}, 60_000);
afterAll(async () => t?.close());

const run = (args: Record<string, string>) => edgeCommands.find((c) => c.name === 'edge-seed')!.run(t.db, args) as Promise<string>;

async function counts() {
  const owner = (await t.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
  const one = async (q: ReturnType<typeof sql<{ n: number }>>) => Number((await q.execute(t.db)).rows[0].n);
  const mine = sql`select id from buckets where owner_id = ${owner} and remark = ${SCALE_REMARK}`;
  return {
    services: await one(sql<{ n: number }>`select count(*)::int as n from (${mine}) m`),
    domains: await one(sql<{ n: number }>`select count(*)::int as n from bucket_domains where bucket_id in (${mine}) and domain like 's%.scale.example'`),
    origin: await one(sql<{ n: number }>`select count(*)::int as n from service_settings where bucket_id in (${mine}) and setting_id = 'origin'`),
    cors: await one(sql<{ n: number }>`select count(*)::int as n from service_settings where bucket_id in (${mine}) and setting_id = 'cors'`),
    compression: await one(sql<{ n: number }>`select count(*)::int as n from service_settings where bucket_id in (${mine}) and setting_id = 'compression'`),
    rules: await one(sql<{ n: number }>`select count(*)::int as n from edge_rules where bucket_id in (${mine})`),
  };
}

test('creates N services with a domain each, the demo origin, settings on some and a rule on some', async () => {
  const before = await currentVersion(t.db);
  const out = await run({ account: 'demo', services: '60' });
  expect(out).toContain('现有 60 个');
  expect(await counts()).toEqual({ services: 60, domains: 60, origin: 60, cors: 6, compression: 12, rules: 2 });
  const d = await t.db.selectFrom('bucket_domains as d').innerJoin('buckets as b', 'b.id', 'd.bucket_id').select(['b.name', 'b.kind', 'd.domain']).where('d.domain', '=', 's7.scale.example').executeTakeFirstOrThrow();
  expect(d).toEqual({ name: 'scale-7', kind: 'cdn', domain: 's7.scale.example' });
});

test('the seeded values are valid settings and rules, and the edge is sent them', async () => {
  const rows = await t.db.selectFrom('service_settings as s').innerJoin('buckets as b', 'b.id', 's.bucket_id').select(['s.setting_id', 's.value']).where('b.remark', '=', SCALE_REMARK).execute();
  for (const id of new Set(rows.map((r) => r.setting_id))) {
    const value = rows.find((r) => r.setting_id === id)!.value;
    expect({ id, errors: t.registry.check(id, typeof value === 'string' ? JSON.parse(value) : value) }).toEqual({ id, errors: [] });
  }
  // the customer's console reads them as saved
  const demo = await new Client(t.app).signIn('demo');
  const cors = await demo.get('/api/settings/cors/?bucket_name=scale-10');
  expect(cors.statusCode).toBe(200);
  expect(JSON.stringify(cors.json())).toContain('"enable":true');
  const rules = await demo.get('/api/buckets/rewrite/?bucket_name=scale-25');
  expect(rules.statusCode).toBe(200);
  expect(JSON.stringify(rules.json())).toContain('scale-deny');
  // a node pulling from version 0 gets them with their domains, origin, settings and rules
  const answer = await configSnapshot(t.db, t.registry, 0);
  const s25 = answer.services.find((s) => s.name === 'scale-25')!;
  expect(s25.domains.map((x) => x.name)).toEqual(['s25.scale.example']);
  expect(s25.rules.length).toBe(1);
  expect(s25.setting_versions.origin).toBeGreaterThan(0);
  expect(s25.setting_versions.compression).toBeGreaterThan(0);
});

test('idempotent: a second run adds nothing; a smaller N removes the ones above it', async () => {
  const again = await seedScale(t.db, { account: 'demo', services: 60, origin: '127.0.0.1:8082' });
  expect(again).toMatchObject({ services: 60, added: 0, removed: 0 });
  expect(await counts()).toEqual({ services: 60, domains: 60, origin: 60, cors: 6, compression: 12, rules: 2 });
  const fewer = await seedScale(t.db, { account: 'demo', services: 40, origin: '127.0.0.1:8082' });
  expect(fewer).toMatchObject({ services: 40, added: 0, removed: 20 });
  expect(await counts()).toEqual({ services: 40, domains: 40, origin: 40, cors: 4, compression: 8, rules: 1 });
});

test('skips a name or domain another account holds', async () => {
  const other = (await t.db.selectFrom('users').select('id').where('username', '=', 'demo2fa').executeTakeFirstOrThrow()).id;
  await t.db.insertInto('buckets').values({ name: 'scale-41', owner_id: other, kind: 'cdn', remark: 'not the seed' }).execute();
  const r = await seedScale(t.db, { account: 'demo', services: 42, origin: '127.0.0.1:8082' });
  expect(r).toMatchObject({ services: 41, added: 1 });
  expect((await t.db.selectFrom('buckets').select('owner_id').where('name', '=', 'scale-41').executeTakeFirstOrThrow()).owner_id).toBe(other);
  await t.db.deleteFrom('buckets').where('name', '=', 'scale-41').execute();
});

test('--remove deletes the seed services with their domains, settings and rules, and nothing else', async () => {
  const others = Number((await sql<{ n: number }>`select count(*)::int as n from buckets where remark is distinct from ${SCALE_REMARK}`.execute(t.db)).rows[0].n);
  expect(await run({ account: 'demo', remove: 'true' })).toContain('已删除账号 demo 的 41 个');
  expect(await counts()).toEqual({ services: 0, domains: 0, origin: 0, cors: 0, compression: 0, rules: 0 });
  expect(Number((await sql<{ n: number }>`select count(*)::int as n from buckets`.execute(t.db)).rows[0].n)).toBe(others);
});

test('refuses an unknown account and a bad N', async () => {
  await expect(run({ account: 'nobody-here', services: '3' })).rejects.toThrow('账号 nobody-here 不存在');
  await expect(run({ account: 'demo', services: '-1' })).rejects.toThrow('--services');
  await expect(run({ account: 'demo' })).rejects.toThrow('缺少参数 --services');
});
