/**
 * Which rows a statistics query may read: the selection (all services, named services or named
 * domains, the single selectors' bucket_name / domain) resolved to domain ids of services the user
 * may see the data of (dataScopeTo: the account's, narrowed to the granted ones for authorized_service), and the stored flow type, live
 * direction and metric columns the query's flow type, flow source and IP type stand for.
 */
import type { DB } from '../db';
import type { SessionUser } from '../accounts/session';
import { dataScopeTo } from '../buckets/repo';
import { followingBuckets } from './follow';
import { ApiError } from '../http/errors';
import { BACKSOURCE_FOLLOW_TEXT, FLOW_TYPE_KINDS, type StoredFlowType } from '../../shared/stats/constants';
import type { StatsQuery } from '../../shared/stats/params';

export interface Scope {
  account_id: number;
  domainIds: number[];
  /** domain id → { domain, bucket } for rankings and downloads */
  names: Map<number, { domain: string; bucket: string; bucket_id: number }>;
  flowType: StoredFlowType;
  direction: string;
  /** the byte and request columns of the flow source and IP type */
  bytesCol: string;
  reqsCol: string;
}

/** Refusal of a malformed statistics request (spec 001 §8: 21000). */
export function malformed(errors?: { path: string; message: string }[]): ApiError {
  return new ApiError(21000, 400, errors);
}

export function columnsFor(q: Pick<StatsQuery, 'flow_type' | 'flow_source' | 'ip_type' | 'type'>): { bytesCol: string; reqsCol: string } {
  let source = q.flow_source;
  if (q.flow_type === 'pcdn') source = 'pcdn';
  if (q.flow_type === 'mingmou') source = q.type === 'pcdn' ? 'pcdn' : source;
  if (q.ip_type === 'ipv6') {
    if (source !== 'cdn') throw malformed([{ path: '/ip_type', message: 'IPv6 仅统计边缘访问流量' }]);
    return { bytesCol: 'bytes_v6', reqsCol: 'reqs_v6' };
  }
  if (source === 'backsource') return { bytesCol: 'bs_bytes', reqsCol: 'bs_reqs' };
  if (source === 'pcdn') return { bytesCol: 'p_bytes', reqsCol: 'p_reqs' };
  return { bytesCol: 'bytes', reqsCol: 'reqs' };
}

export function storedFlowType(q: Pick<StatsQuery, 'flow_type'>): StoredFlowType {
  return q.flow_type === 'pcdn' ? 'cdn' : q.flow_type;
}

export async function resolveScope(db: DB, user: SessionUser, q: StatsQuery): Promise<Scope> {
  const kinds = FLOW_TYPE_KINDS[q.flow_type];
  let buckets = dataScopeTo(db.selectFrom('buckets').select(['buckets.id', 'buckets.name']), user).where('buckets.kind', 'in', kinds);
  const bucketNames = new Set<string>();
  const domainNames = new Set<string>();
  if (q.query_type === 'bucket') q.values.forEach((v) => bucketNames.add(v));
  if (q.query_type === 'domain') q.values.forEach((v) => domainNames.add(v));
  if (q.bucket_name) bucketNames.add(q.bucket_name);
  if (q.domain) domainNames.add(q.domain);
  if (bucketNames.size) buckets = buckets.where('buckets.name', 'in', [...bucketNames]);
  const reach = await buckets.execute();
  if (bucketNames.size && reach.length !== bucketNames.size) throw new ApiError(21905, 404);
  const ids = reach.map((b) => b.id);
  const byId = new Map(reach.map((b) => [b.id, b.name]));
  let domains = ids.length
    ? await db.selectFrom('bucket_domains').select(['id', 'domain', 'bucket_id']).where('bucket_id', 'in', ids).orderBy('id').execute()
    : [];
  if (domainNames.size) {
    domains = domains.filter((d) => domainNames.has(d.domain));
    if (domains.length !== domainNames.size) throw new ApiError(21905, 404);
  }
  // back-to-origin by domain: only services whose origin Host follows the domain (spec 001 §4)
  if (q.flow_source === 'backsource' && q.query_type === 'domain' && domains.length) {
    const ids = [...new Set(domains.map((d) => d.bucket_id))];
    const following = await followingBuckets(db, ids);
    if (following.size !== ids.length) throw malformed([{ path: '/query_value', message: BACKSOURCE_FOLLOW_TEXT }]);
  }
  const { bytesCol, reqsCol } = columnsFor(q);
  return {
    account_id: user.account_id,
    domainIds: domains.map((d) => d.id),
    names: new Map(domains.map((d) => [d.id, { domain: d.domain, bucket: byId.get(d.bucket_id)!, bucket_id: d.bucket_id }])),
    flowType: storedFlowType(q),
    direction: q.flow_type === 'live' ? q.live_type || 'down' : '',
    bytesCol,
    reqsCol,
  };
}
