/**
 * Ingestion for a log pipeline (docs/api.md "Statistics ingestion"): one call per 5-minute slot with
 * the slot's records at full grain (domain, region, carrier, flow source, IP type, live direction).
 * Authenticated by the account's ingestion token (Authorization: Bearer …), idempotent per slot: a
 * second call for the same slot replaces that slot's records of the domains it names, and every
 * table built from them is rebuilt, so repeating a call changes nothing.
 *
 *   traffic_ingest (raw) → traffic_5m (the slot) → traffic_1h (its hour) → traffic_1d (its day)
 *                        → traffic_geo_1h, traffic_geo_1d (the slot's old contribution taken out, the new one added)
 *
 * traffic_coverage is not touched: without a row the 5-minute tier of an account is complete; the
 * seed writes one because it leaves 5-minute rows out for its older days.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DB } from '../db';
import { ok } from '../http/envelope';
import { ApiError } from '../http/errors';
import { randomToken } from '../accounts/passwords';
import { KIND_FLOW_TYPE, STORED_FLOW_TYPES, CARRIERS, REGIONS, OTHER_REGION, MAX_DAYS_BACK } from '../../shared/stats/constants';
import { DAY_S, SLOT_S, midnightOf } from '../../shared/stats/time';
import { parseTime } from '../../shared/stats/params';
import type { ServiceKind } from '../../shared/services';
import { BIGINT_MAX } from '../../shared/limits';

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

const COUNTERS = ['bytes', 'reqs', 'hit_reqs', 'dyn_reqs', 'https_reqs', 's2xx', 's3xx', 's4xx', 's5xx', 'time_ms', 'attack_bytes', 'filtered_bytes', 'xss', 'sql_inj', 'other_attack', 'bf_cp_bytes'] as const;

/** The columns of traffic_5m, traffic_1h and traffic_1d after their keys (the seed writes the same). */
export const ROLLUP_COLUMNS = 'account_id, bucket_id, bytes, reqs, hit_reqs, dyn_reqs, https_reqs, bytes_v6, reqs_v6, bs_bytes, bs_reqs, p_bytes, p_reqs, s2xx, s3xx, s4xx, s5xx, time_ms, attack_bytes, filtered_bytes, xss, sql_inj, other_attack, bf_cp_bytes';
/**
 * The edge bytes before compression of a row: `bf_cp_bytes`, or its bytes where that was not measured
 * (NULL: rows from before migration 0109, or written without it). Every read and rollup goes through it.
 */
export const BEFORE_COMPRESSION = 'coalesce(bf_cp_bytes, bytes)';
/** The counters of ROLLUP_COLUMNS (after account_id, bucket_id) summed: an hour from its slots, a day from its hours. */
export const ROLLUP_SUMS = ROLLUP_COLUMNS.split(', ')
  .slice(2)
  .map((c) => `sum(${c === 'bf_cp_bytes' ? BEFORE_COMPRESSION : c})`)
  .join(', ');

const counter = { type: 'integer', minimum: 0, maximum: BIGINT_MAX, errorMessage: { type: '须为非负整数', minimum: '须为非负整数' } };
const ingestBody = {
  type: 'object',
  required: ['slot', 'records'],
  additionalProperties: false,
  properties: {
    slot: { type: ['string', 'integer'], description: '5 分钟时间片的开始：YYYY-MM-DD HH:mm:ss（UTC+8）或秒级时间戳，须对齐到 5 分钟' },
    records: {
      type: 'array',
      maxItems: 20000,
      items: {
        type: 'object',
        required: ['domain', 'bytes', 'reqs'],
        additionalProperties: false,
        properties: {
          domain: { type: 'string', minLength: 1, maxLength: 255 },
          flow_type: { type: 'string', enum: [...STORED_FLOW_TYPES], description: '默认按服务类型' },
          direction: { type: 'string', enum: ['up', 'down'], description: '直播：上行或下行（默认 down）' },
          region: { type: 'string', maxLength: 40, description: '地区代码，默认 other' },
          isp: { type: 'string', maxLength: 40, description: '运营商 ctn、cmn、cun、small_operator、other，默认 other' },
          flow_source: { type: 'string', enum: ['cdn', 'backsource', 'pcdn'], description: '默认 cdn' },
          ip_type: { type: 'string', enum: ['ipv4', 'ipv6'], description: '默认 ipv4' },
          ...Object.fromEntries(COUNTERS.map((c) => [c === 'sql_inj' ? 'sql' : c === 'other_attack' ? 'other' : c, counter])),
          bf_cp_bytes: { ...counter, description: '压缩前的字节数（压缩后的正文按压缩前的大小计），默认等于 bytes' },
        },
      },
    },
  },
  errorMessage: { required: { slot: '请填写时间片 slot', records: '请填写 records' } },
};

interface IngestRecord {
  domain: string;
  flow_type?: string;
  direction?: string;
  region?: string;
  isp?: string;
  flow_source?: string;
  ip_type?: string;
  [k: string]: unknown;
}

/** The pipeline's report of one slot: at most 20,000 records of a few hundred bytes each. */
export const INGEST_BODY_LIMIT = 16 * 1024 * 1024;

export function ingestRoutes(app: FastifyInstance, db: DB): void {
  const tokens = new WeakMap<FastifyRequest, { id: number; account_id: number }>();
  app.post(
    '/api/flow/ingest/token',
    { config: { access: 'parent', openapi: { summary: '生成统计数据上报令牌（旧令牌作废，新令牌只显示这一次）' } } },
    async (req) => {
      const token = `sti_${randomToken(24)}`;
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('stats_ingest_tokens').where('account_id', '=', req.user!.account_id).execute();
        await trx.insertInto('stats_ingest_tokens').values({ account_id: req.user!.account_id, token_hash: hash(token) }).execute();
      });
      return ok({ token });
    },
  );

  app.post<{ Body: { slot: string | number; records: IngestRecord[] } }>(
    '/api/flow/ingest/',
    {
      config: {
        access: 'public',
        openapi: {
          summary: '上报一个 5 分钟时间片的流量（日志管道调用，Authorization: Bearer 令牌）',
          description: '同一时间片重复上报时，以最后一次为准：替换该时间片内所列域名的全部记录并重建汇总，结果与只上报一次相同。',
          errors: { 401: '21110 令牌缺失或无效', 400: '21000 时间片不正确', 404: '21905 域名不属于该账号' },
        },
      },
      schema: { body: ingestBody },
      // up to 20,000 records: the pipeline's token is checked before the body is read (issue 34 item 1)
      bodyLimit: INGEST_BODY_LIMIT,
      onRequest: async (req) => {
        const auth = String(req.headers.authorization ?? '');
        const m = /^Bearer\s+(\S+)$/i.exec(auth);
        const tok = m ? await db.selectFrom('stats_ingest_tokens').select(['id', 'account_id']).where('token_hash', '=', hash(m[1])).executeTakeFirst() : undefined;
        if (!tok) throw new ApiError(21110, 401);
        tokens.set(req, tok);
      },
    },
    async (req) => {
      const tok = tokens.get(req)!;
      const slot = parseTime(req.body.slot);
      const now = Math.floor(Date.now() / 1000);
      if (slot === null || slot % SLOT_S !== 0 || slot > now || slot < midnightOf(now) - MAX_DAYS_BACK * DAY_S) {
        throw new ApiError(21000, 400, [{ path: '/slot', message: '时间片须对齐到 5 分钟，且在最近 182 天内、不晚于当前时刻' }]);
      }
      const result = await ingestSlot(db, tok.account_id, slot, req.body.records);
      await db.updateTable('stats_ingest_tokens').set({ last_used_at: new Date() }).where('id', '=', tok.id).execute();
      return ok(result);
    },
  );
}

/** Stores one slot's records for an account and rebuilds what is built from them. */
export async function ingestSlot(db: DB, accountId: number, slot: number, records: IngestRecord[]) {
  const names = [...new Set(records.map((r) => r.domain))];
  const domains = names.length
    ? await db
        .selectFrom('bucket_domains as d')
        .innerJoin('buckets as b', 'b.id', 'd.bucket_id')
        .select(['d.id', 'd.domain', 'b.id as bucket_id', 'b.kind'])
        .where('b.owner_id', '=', accountId)
        .where('d.domain', 'in', names)
        .execute()
    : [];
  if (domains.length !== names.length) throw new ApiError(21905, 404);
  // hours are rebuilt from their 5-minute rows: a slot older than the account's 5-minute rows would
  // wipe the hourly history the seed wrote there (docs/statistics.md "Ingestion")
  const cov = await db.selectFrom('traffic_coverage').select('since').where('account_id', '=', accountId).where('tier', '=', '5m').executeTakeFirst();
  if (cov && slot < Math.floor(new Date(cov.since).getTime() / 1000)) {
    throw new ApiError(21000, 400, [{ path: '/slot', message: '该时间片早于 5 分钟明细的保留范围' }]);
  }
  const byName = new Map(domains.map((d) => [d.domain, d]));
  // one raw row per grain: records repeating a grain are added up
  const rows = new Map<string, Record<string, unknown>>();
  for (const r of records) {
    const d = byName.get(r.domain)!;
    const flowType = r.flow_type ?? KIND_FLOW_TYPE[d.kind as ServiceKind];
    const direction = flowType === 'live' ? (r.direction ?? 'down') : '';
    const region = r.region && (r.region in REGIONS || r.region === OTHER_REGION) ? r.region : OTHER_REGION;
    const carrier = r.isp && ([...CARRIERS, 'other'] as string[]).includes(r.isp) ? r.isp : 'other';
    const key = [d.id, flowType, direction, region, carrier, r.flow_source ?? 'cdn', r.ip_type ?? 'ipv4'].join('|');
    const row = rows.get(key) ?? {
      account_id: accountId, bucket_id: d.bucket_id, domain_id: d.id, slot: new Date(slot * 1000), flow_type: flowType, direction, region, carrier,
      flow_source: r.flow_source ?? 'cdn', ip_type: r.ip_type ?? 'ipv4', ...Object.fromEntries(COUNTERS.map((c) => [c, 0])),
    };
    for (const c of COUNTERS) {
      // bytes before compression: as sent where the pipeline does not say
      const v = Number(r[c === 'sql_inj' ? 'sql' : c === 'other_attack' ? 'other' : c] ?? (c === 'bf_cp_bytes' ? r.bytes : 0) ?? 0);
      row[c] = (row[c] as number) + v;
    }
    rows.set(key, row);
  }
  const ids = domains.map((d) => d.id);
  const hour = Math.floor(slot / 3600) * 3600;
  const day = midnightOf(slot);
  const at = (e: number) => sql`to_timestamp(${e})`;
  const idList = sql.join(ids.map((id) => sql`${id}::int`));
  const edge = (c: string) => sql.raw(`sum(case when flow_source = 'cdn' then ${c} else 0 end)`);
  const geoDelta = (sign: 1 | -1, table: 'traffic_geo_1h' | 'traffic_geo_1d', time: 'hour' | 'day', e: number) => sql`
    insert into ${sql.table(table)} (domain_id, flow_type, direction, ${sql.raw(time)}, region, carrier, account_id, bucket_id,
      bytes, reqs, hit_reqs, dyn_reqs, https_reqs, bytes_v6, reqs_v6, bs_bytes, bs_reqs, p_bytes, p_reqs)
    select domain_id, flow_type, direction, ${at(e)}, region, carrier, min(account_id), min(bucket_id),
      ${sign} * ${edge('bytes')}, ${sign} * ${edge('reqs')}, ${sign} * ${edge('hit_reqs')}, ${sign} * ${edge('dyn_reqs')}, ${sign} * ${edge('https_reqs')},
      ${sign} * sum(case when flow_source = 'cdn' and ip_type = 'ipv6' then bytes else 0 end), ${sign} * sum(case when flow_source = 'cdn' and ip_type = 'ipv6' then reqs else 0 end),
      ${sign} * sum(case when flow_source = 'backsource' then bytes else 0 end), ${sign} * sum(case when flow_source = 'backsource' then reqs else 0 end),
      ${sign} * sum(case when flow_source = 'pcdn' then bytes else 0 end), ${sign} * sum(case when flow_source = 'pcdn' then reqs else 0 end)
    from traffic_ingest where domain_id in (${idList}) and slot = ${at(slot)}
    group by domain_id, flow_type, direction, region, carrier
    on conflict (domain_id, flow_type, direction, ${sql.raw(time)}, region, carrier) do update set
      bytes = ${sql.table(table)}.bytes + excluded.bytes, reqs = ${sql.table(table)}.reqs + excluded.reqs,
      hit_reqs = ${sql.table(table)}.hit_reqs + excluded.hit_reqs, dyn_reqs = ${sql.table(table)}.dyn_reqs + excluded.dyn_reqs,
      https_reqs = ${sql.table(table)}.https_reqs + excluded.https_reqs, bytes_v6 = ${sql.table(table)}.bytes_v6 + excluded.bytes_v6,
      reqs_v6 = ${sql.table(table)}.reqs_v6 + excluded.reqs_v6, bs_bytes = ${sql.table(table)}.bs_bytes + excluded.bs_bytes,
      bs_reqs = ${sql.table(table)}.bs_reqs + excluded.bs_reqs, p_bytes = ${sql.table(table)}.p_bytes + excluded.p_bytes,
      p_reqs = ${sql.table(table)}.p_reqs + excluded.p_reqs`;
  const sums = ROLLUP_SUMS;
  const cols = ROLLUP_COLUMNS;

  // inside a caller's transaction (the edge's traffic, src/server/edge/traffic.ts) or in its own
  const inTransaction = <T>(f: (trx: DB) => Promise<T>): Promise<T> => (db.isTransaction ? f(db) : db.transaction().execute((trx) => f(trx as unknown as DB)));
  await inTransaction(async (trx) => {
    // the slot's previous contribution leaves the region tables, its raw rows are replaced
    await geoDelta(-1, 'traffic_geo_1h', 'hour', hour).execute(trx);
    await geoDelta(-1, 'traffic_geo_1d', 'day', day).execute(trx);
    await trx.deleteFrom('traffic_ingest').where('domain_id', 'in', ids).where('slot', '=', new Date(slot * 1000)).execute();
    const list = [...rows.values()];
    for (let i = 0; i < list.length; i += 500) await trx.insertInto('traffic_ingest').values(list.slice(i, i + 500) as never).execute();
    await geoDelta(1, 'traffic_geo_1h', 'hour', hour).execute(trx);
    await geoDelta(1, 'traffic_geo_1d', 'day', day).execute(trx);
    // the 5-minute rows of the slot, from the raw rows
    await sql`delete from traffic_5m where domain_id in (${idList}) and slot = ${at(slot)}`.execute(trx);
    await sql`
      insert into traffic_5m (domain_id, flow_type, direction, slot, ${sql.raw(cols)})
      select domain_id, flow_type, direction, slot, min(account_id), min(bucket_id),
        ${edge('bytes')}, ${edge('reqs')}, ${edge('hit_reqs')}, ${edge('dyn_reqs')}, ${edge('https_reqs')},
        sum(case when flow_source = 'cdn' and ip_type = 'ipv6' then bytes else 0 end), sum(case when flow_source = 'cdn' and ip_type = 'ipv6' then reqs else 0 end),
        sum(case when flow_source = 'backsource' then bytes else 0 end), sum(case when flow_source = 'backsource' then reqs else 0 end),
        sum(case when flow_source = 'pcdn' then bytes else 0 end), sum(case when flow_source = 'pcdn' then reqs else 0 end),
        ${edge('s2xx')}, ${edge('s3xx')}, ${edge('s4xx')}, ${edge('s5xx')}, ${edge('time_ms')},
        sum(attack_bytes), sum(filtered_bytes), sum(xss), sum(sql_inj), sum(other_attack), ${edge(BEFORE_COMPRESSION)}
      from traffic_ingest where domain_id in (${idList}) and slot = ${at(slot)}
      group by domain_id, flow_type, direction, slot`.execute(trx);
    // the hour from its 5-minute rows, the day from its hours
    await sql`delete from traffic_1h where domain_id in (${idList}) and hour = ${at(hour)}`.execute(trx);
    await sql`
      insert into traffic_1h (domain_id, flow_type, direction, hour, ${sql.raw(cols)}, peak_bytes, peak_at)
      select domain_id, flow_type, direction, ${at(hour)}, min(account_id), min(bucket_id), ${sql.raw(sums)},
             max(bytes), to_timestamp(-(max(array[bytes, -extract(epoch from slot)::bigint]))[2])
      from traffic_5m where domain_id in (${idList}) and slot >= ${at(hour)} and slot < ${at(hour + 3600)}
      group by domain_id, flow_type, direction`.execute(trx);
    await sql`delete from traffic_1d where domain_id in (${idList}) and day = ${at(day)}`.execute(trx);
    await sql`
      insert into traffic_1d (domain_id, flow_type, direction, day, ${sql.raw(cols)}, peak_bytes, peak_at)
      select domain_id, flow_type, direction, ${at(day)}, min(account_id), min(bucket_id), ${sql.raw(sums)},
             max(peak_bytes), to_timestamp(-(max(array[peak_bytes, -extract(epoch from peak_at)::bigint]))[2])
      from traffic_1h where domain_id in (${idList}) and hour >= ${at(day)} and hour < ${at(day + DAY_S)}
      group by domain_id, flow_type, direction`.execute(trx);
  });
  return { slot, domains: ids.length, records: rows.size };
}
