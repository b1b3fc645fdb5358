import { sql, type SelectQueryBuilder } from 'kysely';
import type { DB } from '../db';
import type { Database } from '../db/schema';
import { prepare } from '../db/prepared';
import { BUCKET_COLUMNS, bucketCacheOf } from './bucket-cache';
import { grantedKind, grantedOnly, maySeeKind, visibleKinds } from '../../shared/permissions';
import type { BucketInfo } from '../../shared/buckets';
import { SERVICE_KINDS, type ServiceKind } from '../../shared/services';
import { ApiError } from '../http/errors';
import type { SessionUser } from '../accounts/session';

/**
 * A service's domains (name and CNAME, in the order they were added) as a column of a query on
 * `buckets`: the service list and the statistics selector read them with the page, in one statement.
 */
export const DOMAIN_LIST_SQL = sql<{ domain: string; cname: string }[]>`(select coalesce(json_agg(json_build_object('domain', d.domain, 'cname', d.cname) order by d.id), '[]'::json) from bucket_domains as d where d.bucket_id = buckets.id)`;

export interface BucketRow {
  id: number;
  name: string;
  owner_id: number;
  kind: string;
  remark: string | null;
  status: string;
  storage_used: number;
  created_at: Date | string;
}

/** The storage type and business type a service of that kind reports (spec 002 §3 "Service info"). */
export const typesOfKind = (kind: ServiceKind) => ({ type: kind === 'file' ? ('file' as const) : ('ucdn' as const), business_type: kind === 'live' ? ('live' as const) : ('file' as const) });

export function bucketInfo(b: BucketRow, domains?: { domain: string; cname: string }[]): BucketInfo {
  const kind = b.kind as ServiceKind;
  return {
    bucket_id: b.id,
    bucket_name: b.name,
    kind,
    ...typesOfKind(kind),
    fusion_cdn: kind === 'fusion',
    websocket: kind === 'websocket',
    abroad: kind === 'overseas',
    security_cdn: kind === 'scdn',
    remark: b.remark,
    status: b.status,
    storage: { used: Number(b.storage_used) },
    ...(domains ? { domains } : {}),
    created_at: new Date(b.created_at).toISOString(),
  };
}

/**
 * The bucket of that name if the user may work on it; otherwise 21905 — the same answer whether
 * it does not exist, belongs to someone else or is out of a sub-account's reach, so names do not leak.
 * A sub-account reaches a bucket of a kind whose permission it holds (cdn, file, live, …) and, for the
 * kinds granted one by one (cdn with fusion, file, live), only a bucket granted to it — whatever its data
 * scope (spec 000 §2.5, §6: the bucket lists decide which services it may open and configure).
 */
/** A bucket by name (compiled once: the settings path runs it on every request). */
const bucketByName = prepare<BucketRow, [string]>('bucket_by_name', 1, (db, name) => db.selectFrom('buckets').select(BUCKET_COLUMNS).where('name', '=', name));

/** A bucket by name from the DB's bucket cache (./bucket-cache.ts), or the database (and then cached); frozen. */
async function bucketNamed(db: DB, name: string): Promise<BucketRow | undefined> {
  const cache = bucketCacheOf(db);
  const cached = cache?.get(name);
  if (cached) return cached;
  const generation = cache?.begin() ?? 0;
  const [b] = await bucketByName(db, name);
  if (!b) return undefined;
  Object.freeze(b);
  cache?.put(name, b, Infinity, generation);
  return b;
}

export async function bucketForUser(db: DB, user: SessionUser, name: string): Promise<BucketRow> {
  const b = await bucketNamed(db, name);
  if (!b || b.owner_id !== user.account_id) throw new ApiError(21905, 404);
  if (!(await childReaches(db, user, b))) throw new ApiError(21905, 404);
  return b;
}

/** Whether a user reaches one of its account's buckets (always, for a main account). */
export async function childReaches(db: DB, user: SessionUser, b: Pick<BucketRow, 'id' | 'kind'>): Promise<boolean> {
  if (user.parent_id === null) return true;
  if (!maySeeKind(user, b.kind as ServiceKind)) return false;
  if (!grantedKind(b.kind as ServiceKind)) return true;
  const bind = await db.selectFrom('child_buckets').select('id').where('child_id', '=', user.id).where('bucket_id', '=', b.id).executeTakeFirst();
  return Boolean(bind);
}

/**
 * Narrows a query on `buckets` to what the user reaches: the account's buckets, and for a
 * sub-account the kinds it holds and, of the kinds granted one by one, the buckets granted to it.
 * The lists (GET /api/buckets/, the summary) filter with this, as bucketForUser checks one.
 */
export function visibleTo<Q extends SelectQueryBuilder<Database, 'buckets', any>>(query: Q, user: SessionUser): Q {
  let q = query.where('buckets.owner_id', '=', user.account_id) as Q;
  if (user.parent_id === null) return q;
  const kinds = visibleKinds(user, SERVICE_KINDS);
  if (kinds.length === 0) return q.where(sql<boolean>`false`) as Q;
  q = q.where('buckets.kind', 'in', kinds) as Q;
  const byGrant = kinds.filter(grantedKind);
  if (byGrant.length === 0) return q;
  const open = kinds.filter((k) => !grantedKind(k));
  return q.where((eb: any) =>
    eb.or([
      ...(open.length ? [eb('buckets.kind', 'in', open)] : []),
      eb('buckets.id', 'in', eb.selectFrom('child_buckets').select('child_buckets.bucket_id').where('child_buckets.child_id', '=', user.id)),
    ]),
  ) as Q;
}

/**
 * Narrows a query on `buckets` to those whose data a user may manage (statistics, monitor, cache refresh,
 * log download; spec 000 §6 "authorized_service"): a main account's all; a sub-account holding
 * authorized_service ("authorization") only the buckets granted to it; any other sub-account (data scope
 * "all") every bucket of its account. The route still needs the data permission itself (`needs`).
 */
export function dataScopeTo<Q extends SelectQueryBuilder<Database, 'buckets', any>>(query: Q, user: SessionUser): Q {
  const q = query.where('buckets.owner_id', '=', user.account_id) as Q;
  if (!grantedOnly(user)) return q;
  return q.where('buckets.id', 'in', (eb: any) => eb.selectFrom('child_buckets').select('child_buckets.bucket_id').where('child_buckets.child_id', '=', user.id)) as Q;
}

/** One bucket by name if its data is in the user's data scope (dataScopeTo); otherwise 21905, as bucketForUser. */
export async function dataBucketForUser(db: DB, user: SessionUser, name: string): Promise<BucketRow> {
  const b = await dataScopeTo(db.selectFrom('buckets').selectAll(), user).where('name', '=', name).executeTakeFirst();
  if (!b) throw new ApiError(21905, 404);
  return b as BucketRow;
}

export async function domainsOf(db: DB, bucketIds: number[]) {
  const map = new Map<number, { domain: string; cname: string }[]>();
  if (bucketIds.length === 0) return map;
  const rows = await db.selectFrom('bucket_domains').select(['bucket_id', 'domain', 'cname']).where('bucket_id', 'in', bucketIds).orderBy('id').execute();
  for (const r of rows) {
    if (!map.has(r.bucket_id)) map.set(r.bucket_id, []);
    map.get(r.bucket_id)!.push({ domain: r.domain, cname: r.cname });
  }
  return map;
}
