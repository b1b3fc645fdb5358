/**
 * The scale seed (docs/edge.md "How it scales"; `npm run platform -- edge-seed --account <name> --services N`):
 * N synthetic CDN services in one account, so that anyone can load a node to 100,000 services and time it.
 *
 *   service  scale-<i> (i = 1 … N), kind cdn, remark SCALE_REMARK (what marks them as the seed's)
 *   domain   s<i>.scale.example (CNAME scale-<i>.cdn-cname.example.net)
 *   origin   every one: the demo origin (config.edge.demoOrigin), as the demo's services have it
 *   settings every 10th: CORS (Access-Control-Allow-Origin *); every 5th: compression (gzip level 5, Brotli)
 *   rule     every 25th: a general edge rule refusing /scale-deny with 403
 *
 * Idempotent: a second run adds what is missing (rows that exist are left out before the insert, so their
 * triggers do not run again) and removes the seed's services above N (so the account ends
 * with exactly N); a service name or domain already taken by another account is skipped. Every row is made
 * by a few INSERT … SELECT over generate_series in one transaction, so the database's own triggers (the edge
 * versions, the caches' notifications) run as for any write. `removeScale` deletes the seed's services (their
 * domains, settings and rules go with them).
 */
import { sql } from 'kysely';
import type { DB } from '../db';
import { demoOriginValue } from './edge';

export const SCALE_REMARK = 'edge-seed 规模测试服务';
export const SCALE_MAX_SERVICES = 1_000_000;

export const SCALE_CORS = { enable: true, allow_origins: ['*'], allow_methods: ['GET', 'POST'], allow_headers: [], expose_headers: [], max_age: 0, allow_credentials: false };
export const SCALE_COMPRESSION = { status: 'enable', gzip: { disable: false, level: 5 }, br: { disable: false, level: 5 } };
export const SCALE_RULE = {
  conditions: [{ lvalue: { type: 'variable', value: 'http_uri' }, rvalue: { type: 'literal', value: '/scale-deny' }, operator: 'equal', case_sensitive: true }],
  actions: [{ type: 'access_control', code: 403 }],
};

export interface ScaleResult {
  account: string;
  services: number;
  added: number;
  removed: number;
  ms: number;
}

async function ownerOf(db: DB, account: string): Promise<number> {
  const u = await db.selectFrom('users').select('id').where('username', '=', account).executeTakeFirst();
  if (!u) throw new Error(`账号 ${account} 不存在`);
  return u.id;
}

/** The seed's services of `owner`, with their number i, as a SQL fragment (`ours` below). */
const ours = (owner: number) => sql`select id, case when name ~ '^scale-[0-9]+$' then substr(name, 7)::int end as i from buckets where owner_id = ${owner} and remark = ${SCALE_REMARK} and name ~ '^scale-[0-9]+$'`;

export async function seedScale(db: DB, opts: { account: string; services: number; origin: string }): Promise<ScaleResult> {
  const n = opts.services;
  if (!Number.isInteger(n) || n < 0 || n > SCALE_MAX_SERVICES) throw new Error(`--services 须为 0 到 ${SCALE_MAX_SERVICES} 之间的整数`);
  const t0 = Date.now();
  const owner = await ownerOf(db, opts.account);
  const origin = JSON.stringify(demoOriginValue(opts.origin));
  const { added, removed } = await db.transaction().execute(async (tx) => {
    const gone = await sql`delete from buckets b using (${ours(owner)}) o where b.id = o.id and o.i > ${n}`.execute(tx);
    const made = await sql`insert into buckets (name, owner_id, kind, remark)
      select 'scale-' || i, ${owner}, 'cdn', ${SCALE_REMARK} from generate_series(1, ${n}::int) i
       where not exists (select 1 from buckets b where b.name = 'scale-' || i)
      on conflict (name) do nothing`.execute(tx);
    await sql`insert into bucket_domains (bucket_id, domain, cname)
      select o.id, 's' || o.i || '.scale.example', 'scale-' || o.i || '.cdn-cname.example.net' from (${ours(owner)}) o
       where not exists (select 1 from bucket_domains d where d.domain = 's' || o.i || '.scale.example')
      on conflict (domain) do nothing`.execute(tx);
    await sql`insert into service_settings (bucket_id, setting_id, value, updated_by)
      select o.id, 'origin', ${origin}::jsonb, ${owner} from (${ours(owner)}) o where not exists (select 1 from service_settings s where s.bucket_id = o.id and s.setting_id = 'origin')
      on conflict do nothing`.execute(tx);
    await sql`insert into service_settings (bucket_id, setting_id, value, updated_by)
      select o.id, 'cors', ${JSON.stringify(SCALE_CORS)}::jsonb, ${owner} from (${ours(owner)}) o where o.i % 10 = 0 and not exists (select 1 from service_settings s where s.bucket_id = o.id and s.setting_id = 'cors')
      on conflict do nothing`.execute(tx);
    await sql`insert into service_settings (bucket_id, setting_id, value, updated_by)
      select o.id, 'compression', ${JSON.stringify(SCALE_COMPRESSION)}::jsonb, ${owner} from (${ours(owner)}) o where o.i % 5 = 0 and not exists (select 1 from service_settings s where s.bucket_id = o.id and s.setting_id = 'compression')
      on conflict do nothing`.execute(tx);
    await sql`insert into edge_rules (bucket_id, describe, type, priority, break, status, ip, content, pattern, rule, created_by, updated_by)
      select o.id, 'scale-deny', 'general', 1, false, 'ON', null, ${JSON.stringify(SCALE_RULE)}::jsonb, null, null, ${owner}, ${owner}
        from (${ours(owner)}) o where o.i % 25 = 0 and not exists (select 1 from edge_rules r where r.bucket_id = o.id)`.execute(tx);
    return { added: Number(made.numAffectedRows ?? 0), removed: Number(gone.numAffectedRows ?? 0) };
  });
  const { rows } = await sql<{ c: number }>`select count(*)::int as c from (${ours(owner)}) o`.execute(db);
  return { account: opts.account, services: Number(rows[0].c), added, removed, ms: Date.now() - t0 };
}

export async function removeScale(db: DB, account: string): Promise<ScaleResult> {
  const t0 = Date.now();
  const owner = await ownerOf(db, account);
  const gone = await sql`delete from buckets b using (${ours(owner)}) o where b.id = o.id`.execute(db);
  return { account, services: 0, added: 0, removed: Number(gone.numAffectedRows ?? 0), ms: Date.now() - t0 };
}
