import type { DB } from '../db';
import type { BucketInfo } from '../../shared/buckets';
import type { ServiceKind } from '../../shared/services';
import { ApiError } from '../http/errors';
import type { SessionUser } from '../accounts/session';

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

export function bucketInfo(b: BucketRow, domains?: { domain: string; cname: string }[]): BucketInfo {
  const kind = b.kind as ServiceKind;
  return {
    bucket_id: b.id,
    bucket_name: b.name,
    kind,
    type: kind === 'file' ? 'file' : 'ucdn',
    business_type: kind === 'live' ? 'live' : 'file',
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
 * it does not exist or belongs to someone else, so names of other accounts do not leak.
 */
export async function bucketForUser(db: DB, user: SessionUser, name: string): Promise<BucketRow> {
  const b = await db.selectFrom('buckets').selectAll().where('name', '=', name).executeTakeFirst();
  if (!b || b.owner_id !== user.account_id) throw new ApiError(21905, 404);
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
