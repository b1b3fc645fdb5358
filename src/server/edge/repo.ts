/**
 * The edge section's data: the configuration a node pulls (every service's domains, certificates,
 * effective setting values and edge rules, by version), node keys, and what nodes report.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { DB } from '../db';
import type { SettingRegistry } from '../../../schemas/registry';
import type { ServiceKind } from '../../shared/services';
import { EDGE_API_PREFIX, EDGE_NODE_ALIVE_SECONDS, type EdgeApplyReport, type EdgeConfigAnswer, type EdgeRuleRow, type EdgeService, type EdgeSettingState, type EdgeStatus } from '../../shared/edge';
import './tables';

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** Registers (or re-keys) a node; answers the key when none was given. Only the key's hash is kept. */
export async function registerNode(db: DB, name: string, key = randomBytes(24).toString('base64url')): Promise<string> {
  const key_hash = hashKey(key);
  await db.insertInto('edge_nodes').values({ name, key_hash }).onConflict((oc) => oc.column('name').doUpdateSet({ key_hash })).execute();
  return key;
}

export async function nodeByKey(db: DB, key: string) {
  if (!key) return null;
  return (await db.selectFrom('edge_nodes').selectAll().where('key_hash', '=', hashKey(key)).executeTakeFirst()) ?? null;
}

/**
 * The version a node is given: the newest change older than every transaction still running (migration
 * 0102), so every change up to it has finished and none can arrive below it.
 */
export async function currentVersion(db: DB): Promise<number> {
  const { rows } = await sql<{ v: string }>`select edge_current_version()::text as v`.execute(db);
  return Number(rows[0]?.v ?? 0);
}

const TRIM_EVERY_MS = 60_000;
/** When each database (a process may hold several: the tests) was last trimmed. */
const trimmedAt = new WeakMap<DB, number>();

/**
 * Forgets the changes below the current version (only the newest finished one is needed), at most once
 * a minute per process; called by the config route, so a database that no node reads keeps a row per
 * change until one does.
 */
export async function trimChanges(db: DB, now = Date.now()): Promise<void> {
  if (now - (trimmedAt.get(db) ?? 0) < TRIM_EVERY_MS) return;
  trimmedAt.set(db, now);
  await sql`delete from edge_changes where version < edge_current_version()`.execute(db);
}

const CHUNK = 2000;
function chunks<T>(xs: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += CHUNK) out.push(xs.slice(i, i + CHUNK));
  return out;
}

/**
 * The services changed after `after` (all when 0), read in one repeatable-read transaction so that the
 * version and the rows agree.
 */
export async function configSnapshot(db: DB, registry: SettingRegistry, after: number, page: { from?: number; limit?: number } = {}): Promise<EdgeConfigAnswer> {
  return db.transaction().setIsolationLevel('repeatable read').execute(async (tx) => {
    const version = await currentVersion(tx as unknown as DB);
    let q = tx
      .selectFrom('buckets')
      .select(['id', 'name', 'kind', 'status', sql<string>`edge_version::text`.as('ev')])
      .where(sql<boolean>`edge_version > ${after}`)
      .where('id', '>', page.from ?? 0)
      .orderBy('id');
    if (page.limit) q = q.limit(page.limit);
    const changed = await q.execute();
    // a page that is full may have more after it (`next`: ask again from its last id); every service's id comes
    // with the last page only
    const more = !!page.limit && changed.length === page.limit;
    const ids = more ? [] : (await tx.selectFrom('buckets').select('id').orderBy('id').execute()).map((r) => r.id);
    const services = new Map<number, EdgeService>();
    for (const b of changed) {
      services.set(b.id, {
        id: b.id, name: b.name, kind: b.kind as ServiceKind, status: b.status, version: Number(b.ev), paused: false,
        domains: [], certificates: [], settings: {}, setting_versions: {}, rules: [],
      });
    }
    for (const part of chunks([...services.keys()])) {
      const domains = await tx
        .selectFrom('bucket_domains as d')
        .leftJoin('domain_https as h', 'h.domain_id', 'd.id')
        .select(['d.bucket_id', 'd.domain', 'h.https', 'h.force_https', 'h.certificate_id'])
        .where('d.bucket_id', 'in', part)
        .orderBy('d.id')
        .execute();
      const certIds = new Set<number>();
      for (const d of domains) {
        const https = !!d.https && d.certificate_id != null;
        if (https) certIds.add(d.certificate_id!);
        services.get(d.bucket_id)!.domains.push({ name: d.domain.toLowerCase(), https, force_https: https && !!d.force_https, certificate_id: https ? d.certificate_id! : null });
      }
      if (certIds.size) {
        const certs = await tx.selectFrom('certificates').select(['id', 'fingerprint', 'certificate', 'private_key']).where('id', 'in', [...certIds]).execute();
        const byId = new Map(certs.map((c) => [c.id, c]));
        for (const s of services.values()) {
          for (const id of new Set(s.domains.map((d) => d.certificate_id).filter((x): x is number => x != null))) {
            const c = byId.get(id);
            if (c) s.certificates.push({ id: c.id, fingerprint: c.fingerprint, certificate: c.certificate, private_key: c.private_key });
          }
        }
      }
      const settings = await tx
        .selectFrom('service_settings')
        .select(['bucket_id', 'setting_id', 'value', sql<string>`edge_version::text`.as('ev')])
        .where('bucket_id', 'in', part)
        .execute();
      for (const row of settings) {
        const s = services.get(row.bucket_id)!;
        s.settings[row.setting_id] = row.value;
        s.setting_versions[row.setting_id] = Number(row.ev);
      }
      const rules = await tx
        .selectFrom('edge_rules')
        .select(['id', 'bucket_id', 'type', 'priority', 'break', 'status', 'ip', 'content', 'pattern', 'rule'])
        .where('bucket_id', 'in', part)
        .orderBy('bucket_id')
        .orderBy('priority')
        .execute();
      for (const r of rules) {
        const { bucket_id, ...rule } = r;
        services.get(bucket_id)!.rules.push(rule as EdgeRuleRow);
      }
      const paused = await tx.selectFrom('cost_control_state').select('bucket_id').where('paused', '=', true).where('bucket_id', 'in', part).execute();
      for (const p of paused) services.get(p.bucket_id)!.paused = true;
    }
    // the effective value of every setting of the kind: fixed, else stored, else the default
    for (const s of services.values()) {
      const stored = s.settings;
      const effective: Record<string, unknown> = {};
      for (const d of registry.list()) {
        if (!d.meta.kinds.includes(s.kind)) continue;
        const id = d.meta.id;
        const fixed = registry.fixedFor(id, s.kind);
        effective[id] = fixed !== undefined ? fixed : id in stored ? stored[id] : registry.defaults(id);
      }
      s.settings = effective;
    }
    return { version, changed: true, services: [...services.values()], ids, storage_base: `${EDGE_API_PREFIX}/files`, ...(more ? { next: changed[changed.length - 1].id } : {}) };
  });
}

/** Records an apply: the node's version, the reload row, and the services it refused or noted. */
export async function recordReport(db: DB, nodeId: number, report: EdgeApplyReport): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const now = new Date();
    const refused = report.services.filter((s) => s.state === 'refused');
    await tx
      .insertInto('edge_applies')
      .values({ node_id: nodeId, version: report.version, ok: report.ok, message: report.message ?? null, refused: refused.length, timings: JSON.stringify(report.timings ?? {}) })
      .execute();
    await tx
      .updateTable('edge_nodes')
      .set({ last_seen_at: now, ok: report.ok, message: report.message ?? null, ...(report.ok ? { applied_version: report.version, applied_at: now } : {}) })
      .where('id', '=', nodeId)
      .execute();
    const ids = report.services.map((s) => s.id);
    for (const part of chunks(ids)) await tx.deleteFrom('edge_service_status').where('node_id', '=', nodeId).where('bucket_id', 'in', part).execute();
    const rows = report.services
      .filter((s) => s.state === 'refused' || (s.notes && Object.keys(s.notes).length))
      .map((s) => ({ node_id: nodeId, bucket_id: s.id, version: s.version, state: s.state, message: s.message ?? null, notes: JSON.stringify(s.notes ?? {}), updated_at: now }));
    for (const part of chunks(rows)) await tx.insertInto('edge_service_status').values(part).execute();
  });
}


/** Whether an edge node called the edge API lately (within EDGE_NODE_ALIVE_SECONDS). */
export async function anyNodeOnline(db: DB): Promise<boolean> {
  const row = await db
    .selectFrom('edge_nodes')
    .select('id')
    .where('last_seen_at', '>', sql<Date>`now() - make_interval(secs => ${EDGE_NODE_ALIVE_SECONDS})`)
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
}

/** What the console shows about one service on the edge (the nodes seen lately; the worst of them). */
export async function edgeStatusOf(db: DB, bucketId: number, edgeEnabled: boolean): Promise<EdgeStatus> {
  const bucket = await db.selectFrom('buckets').select(sql<string>`edge_version::text`.as('ev')).where('id', '=', bucketId).executeTakeFirstOrThrow();
  const version = Number(bucket.ev);
  const empty: EdgeStatus = { enabled: false, node: null, version, applied_version: null, applied_at: null, state: null, message: null, notes: {}, settings: {} };
  if (!edgeEnabled) return empty;
  const nodes = await db
    .selectFrom('edge_nodes')
    .select(['id', 'name', sql<string | null>`applied_version::text`.as('av'), 'applied_at'])
    .where('last_seen_at', '>', sql<Date>`now() - make_interval(secs => ${EDGE_NODE_ALIVE_SECONDS})`)
    .orderBy(sql`applied_version`, 'asc')
    .execute();
  if (!nodes.length) return empty;
  const node = nodes[0];
  const applied = node.av == null ? null : Number(node.av);
  const status = await db.selectFrom('edge_service_status').selectAll().where('node_id', '=', node.id).where('bucket_id', '=', bucketId).executeTakeFirst();
  const notes = status ? (JSON.parse(status.notes) as Record<string, string>) : {};
  const refusedAt = status?.state === 'refused' ? Number(status.version) : null;
  const live = applied != null && applied >= version;
  const state: EdgeStatus['state'] = refusedAt != null && refusedAt >= version ? 'refused' : live && refusedAt == null ? 'applied' : 'pending';
  const settings: EdgeStatus['settings'] = {};
  const rows = await db.selectFrom('service_settings').select(['setting_id', sql<string>`edge_version::text`.as('ev')]).where('bucket_id', '=', bucketId).execute();
  for (const r of rows) {
    const v = Number(r.ev);
    let s: EdgeSettingState;
    if (notes[r.setting_id]) s = 'failed';
    else if (refusedAt != null && refusedAt >= v) s = 'failed';
    else s = applied != null && applied >= v && (refusedAt == null || refusedAt < v) ? 'applied' : 'pending';
    settings[r.setting_id] = s === 'failed' ? { state: s, message: notes[r.setting_id] ?? status?.message ?? undefined } : { state: s };
  }
  return {
    enabled: true,
    node: node.name,
    version,
    applied_version: applied,
    applied_at: node.applied_at ? new Date(node.applied_at).toISOString() : null,
    state,
    message: state === 'refused' ? status?.message ?? null : null,
    notes,
    settings,
  };
}
