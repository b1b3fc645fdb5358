/**
 * The edge's traffic (docs/statistics.md "Edge traffic"): POST /edge/v1/traffic, a node's access log
 * summed per host, 5-minute slot and client place (src/edge/logs/shipper.ts), fed into the same
 * statistics tables as any log pipeline.
 *
 * A batch is counted once: its id is remembered per node, and a batch sent again (an agent killed
 * after the server had it, before it saved its offsets) changes nothing. Batches only add: what the
 * edge counted is summed in `edge_traffic` (over batches and nodes), and each slot a batch touches is
 * stored again from those sums through the statistics ingestion (ingestSlot: raw rows → 5-minute →
 * hour → day → region tables), in the same transaction as the batch id. Domains seen here are listed
 * in `edge_traffic_domains`: the demo's replay of yesterday leaves them alone from then on.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { DB } from '../db';
import { ok } from '../http/envelope';
import { nodeOfRequest } from './key';
import { ingestSlot } from '../stats/ingest';
import { retentionCutoff } from '../stats/retention';
import { SLOT_S } from '../../shared/stats/time';
import { EDGE_TRAFFIC_COUNTERS, EDGE_TRAFFIC_PATH, type EdgeTrafficAnswer, type EdgeTrafficBatch, type EdgeTrafficRecord } from '../../shared/edge-traffic';
import './traffic-tables';
import { BIGINT_MAX } from '../../shared/limits';

/** One lock for the edge's ingestion: two batches of one slot (two nodes) are stored one after the other. */
const LOCK = 4_218_018;
const counter = { type: 'integer', minimum: 0, maximum: BIGINT_MAX };

const batchSchema = {
  type: 'object',
  required: ['batch', 'node', 'records'],
  additionalProperties: false,
  properties: {
    batch: { type: 'string', minLength: 1, maxLength: 100 },
    node: { type: 'string', maxLength: 100 },
    lines: counter,
    bad: counter,
    unknown: counter,
    records: {
      type: 'array',
      maxItems: 50000,
      items: {
        type: 'object',
        required: ['host', 'svc', 'slot', 'bytes', 'reqs'],
        additionalProperties: false,
        properties: {
          host: { type: 'string', maxLength: 255 },
          svc: { type: 'integer' },
          slot: { type: 'integer', minimum: 0 },
          region: { type: 'string', maxLength: 40 },
          isp: { type: 'string', maxLength: 40 },
          ip_type: { type: 'string', enum: ['ipv4', 'ipv6'] },
          local: { type: 'boolean' },
          ...Object.fromEntries(EDGE_TRAFFIC_COUNTERS.map((c) => [c, counter])),
        },
      },
    },
  },
} as const;

export function edgeTrafficRoutes(app: FastifyInstance, db: DB): void {
  app.post(
    EDGE_TRAFFIC_PATH,
    { config: { access: 'public', openapi: { summary: '边缘节点上报访问流量（节点密钥）', description: '同一批次（batch）重复上报只计一次。' } }, bodyLimit: 32 * 1024 * 1024, schema: { body: batchSchema } },
    async (req: FastifyRequest) => {
      const node = await nodeOfRequest(db, req); // checked before the body (./key.ts)
      return ok(await storeTraffic(db, node.id, req.body as EdgeTrafficBatch));
    },
  );
}

let lastCleanup = 0;

/** Stores one batch of a node (once per batch id) and rebuilds the slots it touches. */
export async function storeTraffic(db: DB, nodeId: number, b: EdgeTrafficBatch, nowMs = Date.now()): Promise<EdgeTrafficAnswer> {
  const now = Math.floor(nowMs / 1000);
  // raw statistics rows older than this are gone: a slot there cannot be stored again without counting twice in the region tables
  const oldest = retentionCutoff('traffic_ingest', now);
  const answer = await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${LOCK})`.execute(trx);
    const fresh = await trx
      .insertInto('edge_traffic_batches')
      .values({ node_id: nodeId, batch: b.batch, lines: b.lines ?? 0, bad: b.bad ?? 0, unknown: b.unknown ?? 0, records: b.records.length })
      .onConflict((oc) => oc.columns(['node_id', 'batch']).doNothing())
      .returning('batch')
      .executeTakeFirst();
    if (!fresh) {
      await trx.updateTable('edge_traffic_batches').set({ repeats: sql`repeats + 1` }).where('node_id', '=', nodeId).where('batch', '=', b.batch).execute();
      return { counted: false, dropped: 0 };
    }
    // hosts → domains: the exact domain, else a wildcard domain of the service nginx served it under
    const hosts = [...new Set(b.records.map((r) => r.host))];
    const exact = hosts.length
      ? await trx.selectFrom('bucket_domains as d').innerJoin('buckets as b', 'b.id', 'd.bucket_id').select(['d.id', 'd.domain', 'd.bucket_id', 'b.owner_id']).where('d.domain', 'in', hosts).execute()
      : [];
    const byHost = new Map(exact.map((d) => [d.domain, d]));
    const svcs = [...new Set(b.records.filter((r) => !byHost.has(r.host)).map((r) => r.svc))];
    const wild = svcs.length
      ? await trx.selectFrom('bucket_domains as d').innerJoin('buckets as b', 'b.id', 'd.bucket_id').select(['d.id', 'd.domain', 'd.bucket_id', 'b.owner_id']).where('d.bucket_id', 'in', svcs).where('d.domain', 'like', '*.%').execute()
      : [];
    const domainOf = (r: EdgeTrafficRecord) => byHost.get(r.host) ?? wild.find((d) => d.bucket_id === r.svc && r.host.endsWith(d.domain.slice(1)));
    const coverage = new Map(
      (await trx.selectFrom('traffic_coverage').select(['account_id', 'since']).where('tier', '=', '5m').execute()).map((c) => [c.account_id, Math.floor(new Date(c.since).getTime() / 1000)]),
    );

    let dropped = 0;
    const touched = new Map<string, { account: number; slot: number; domains: Set<number> }>();
    const sums = new Map<string, Record<string, unknown>>();
    for (const r of b.records) {
      const d = domainOf(r);
      const slot = Math.floor(r.slot / SLOT_S) * SLOT_S;
      if (!d || slot < oldest || slot > now + SLOT_S || slot < (coverage.get(d.owner_id) ?? 0)) {
        dropped++;
        continue;
      }
      const key = [d.id, slot, r.region ?? 'other', r.isp ?? 'other', r.ip_type ?? 'ipv4', r.local ? 1 : 0].join('|');
      const row = sums.get(key) ?? {
        domain_id: d.id, slot: new Date(slot * 1000), region: r.region ?? 'other', carrier: r.isp ?? 'other', ip_type: r.ip_type ?? 'ipv4', local: !!r.local,
        ...Object.fromEntries(EDGE_TRAFFIC_COUNTERS.map((c) => [c, 0])),
      };
      // a record without bf_cp_bytes (an agent of an earlier version) was not compressed
      for (const c of EDGE_TRAFFIC_COUNTERS) row[c] = (row[c] as number) + ((c === 'bf_cp_bytes' ? (r.bf_cp_bytes ?? r.bytes) : r[c]) ?? 0);
      sums.set(key, row);
      const t = `${d.owner_id}|${slot}`;
      const entry = touched.get(t) ?? { account: d.owner_id, slot, domains: new Set<number>() };
      entry.domains.add(d.id);
      touched.set(t, entry);
    }
    const rows = [...sums.values()];
    for (let i = 0; i < rows.length; i += 500) {
      await trx
        .insertInto('edge_traffic')
        .values(rows.slice(i, i + 500) as never)
        .onConflict((oc) =>
          oc.columns(['domain_id', 'slot', 'region', 'carrier', 'ip_type', 'local']).doUpdateSet(
            Object.fromEntries(EDGE_TRAFFIC_COUNTERS.map((c) => [c, sql`edge_traffic.${sql.ref(c)} + excluded.${sql.ref(c)}`])) as never,
          ),
        )
        .execute();
    }
    // the domains whose traffic now comes from the edge, from their first slot
    const firsts = new Map<number, number>();
    for (const e of touched.values()) for (const id of e.domains) firsts.set(id, Math.min(firsts.get(id) ?? Infinity, e.slot));
    for (const [id, slot] of firsts) {
      await sql`insert into edge_traffic_domains (domain_id, since) values (${id}, to_timestamp(${slot}))
        on conflict (domain_id) do update set since = least(edge_traffic_domains.since, excluded.since)`.execute(trx);
    }
    // each touched slot stored again from the edge's sums of its domains
    for (const e of touched.values()) {
      const ids = [...e.domains];
      const all = await sql<{ domain: string } & Record<string, string | number | boolean>>`
        select d.domain, t.region, t.carrier, t.ip_type, ${sql.raw(EDGE_TRAFFIC_COUNTERS.map((c) => `sum(t.${c})::float8 as ${c}`).join(', '))}
        from edge_traffic t join bucket_domains d on d.id = t.domain_id
        where t.domain_id in (${sql.join(ids)}) and t.slot = to_timestamp(${e.slot})
        group by d.domain, t.region, t.carrier, t.ip_type`.execute(trx);
      const records: Record<string, unknown>[] = [];
      for (const r of all.rows) {
        const n = (k: string) => Number(r[k]);
        const cell = { domain: r.domain, region: r.region, isp: r.carrier, ip_type: r.ip_type };
        records.push({
          ...cell, flow_source: 'cdn', bytes: n('bytes'), reqs: n('reqs'), hit_reqs: n('hit_reqs'), dyn_reqs: n('dyn_reqs'), https_reqs: n('https_reqs'),
          s2xx: n('s2xx'), s3xx: n('s3xx'), s4xx: n('s4xx'), s5xx: n('s5xx'), time_ms: n('time_ms'), bf_cp_bytes: n('bf_cp_bytes'),
        });
        // back-to-origin is not split by IP type (docs/statistics.md): its IPv4 row
        if (n('bs_reqs') > 0) records.push({ ...cell, ip_type: 'ipv4', flow_source: 'backsource', bytes: n('bs_bytes'), reqs: n('bs_reqs') });
      }
      await ingestSlot(trx as unknown as DB, e.account, e.slot, records as never);
    }
    if (dropped) await trx.updateTable('edge_traffic_batches').set({ dropped }).where('node_id', '=', nodeId).where('batch', '=', b.batch).execute();
    return { counted: true, dropped };
  });
  // the sums and batch ids of slots that cannot be stored again any more
  if (nowMs - lastCleanup > 3600_000) {
    lastCleanup = nowMs;
    await db.deleteFrom('edge_traffic').where('slot', '<', new Date(oldest * 1000)).execute();
    await db.deleteFrom('edge_traffic_batches').where('received_at', '<', new Date((oldest - 86400) * 1000)).execute();
  }
  return answer;
}
