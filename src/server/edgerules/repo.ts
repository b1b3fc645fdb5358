/**
 * Edge rules in the database. Priorities of a service are 1..n without gaps: every change runs in a
 * transaction that locks the service's row, shifts the neighbours, then renumbers the service's rules
 * in (priority, id) order, so even rows left out of order by hand come back to 1..n.
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../db';
import type { Database } from '../db/schema';
import type { EdgeRule, EdgeRuleInput } from '../../shared/edgerules/types';

export interface EdgeRuleRow {
  id: number;
  bucket_id: number;
  describe: string;
  type: string;
  priority: number;
  break: boolean;
  status: string;
  ip: string | null;
  content: unknown;
  pattern: string | null;
  rule: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

type Trx = Transaction<Database>;

export function toApi(r: EdgeRuleRow, bucketName: string): EdgeRule {
  const base = {
    rewrite_id: r.id,
    bucket_name: bucketName,
    describe: r.describe,
    type: r.type as EdgeRule['type'],
    priority: r.priority,
    break: r.break,
    status: r.status as EdgeRule['status'],
    ...(r.ip ? { ip: r.ip } : {}),
  };
  const content = typeof r.content === 'string' ? JSON.parse(r.content) : r.content;
  return {
    ...base,
    ...(r.type === 'custom' ? { pattern: r.pattern ?? '', rule: r.rule ?? '' } : { content: content as EdgeRule['content'] }),
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

/** The stored columns of a normalized rule. */
function columns(v: EdgeRuleInput) {
  return {
    describe: v.describe,
    type: v.type,
    break: v.break,
    status: v.status,
    ip: v.status === 'DEBUG' ? (v.ip ?? null) : null,
    content: v.type === 'general' ? JSON.stringify(v.content ?? { conditions: [], actions: [] }) : null,
    pattern: v.type === 'custom' ? (v.pattern ?? '') : null,
    rule: v.type === 'custom' ? (v.rule ?? '') : null,
  };
}

export async function countRules(db: DB | Trx, bucketId: number): Promise<number> {
  const r = await db.selectFrom('edge_rules').select(db.fn.countAll<number>().as('n')).where('bucket_id', '=', bucketId).executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function listRules(db: DB, bucketId: number, page: number, perPage: number): Promise<{ rows: EdgeRuleRow[]; total: number }> {
  const total = await countRules(db, bucketId);
  const rows = await db
    .selectFrom('edge_rules')
    .selectAll()
    .where('bucket_id', '=', bucketId)
    .orderBy('priority')
    .orderBy('id')
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  return { rows: rows as EdgeRuleRow[], total };
}

export async function allRules(db: DB, bucketId: number): Promise<EdgeRuleRow[]> {
  return (await db.selectFrom('edge_rules').selectAll().where('bucket_id', '=', bucketId).orderBy('priority').orderBy('id').execute()) as EdgeRuleRow[];
}

/** A rule and its service's name and owner, or undefined. */
export async function ruleById(db: DB, id: number) {
  return db
    .selectFrom('edge_rules as r')
    .innerJoin('buckets as b', 'b.id', 'r.bucket_id')
    .selectAll('r')
    .select(['b.name as bucket_name', 'b.owner_id as owner_id'])
    .where('r.id', '=', id)
    .executeTakeFirst() as Promise<(EdgeRuleRow & { bucket_name: string; owner_id: number }) | undefined>;
}

/** Serialises changes to one service's rules (the row lock is held until the transaction ends). */
export async function lockBucket(trx: Trx, bucketId: number): Promise<void> {
  await trx.selectFrom('buckets').select('id').where('id', '=', bucketId).forUpdate().executeTakeFirst();
}

/** 1..n in (priority, id) order. */
async function renumber(trx: Trx, bucketId: number): Promise<void> {
  await sql`update edge_rules set priority = o.rn from (select id, row_number() over (order by priority, id) as rn from edge_rules where bucket_id = ${bucketId}) o where edge_rules.id = o.id and edge_rules.priority <> o.rn`.execute(trx);
}

/** Inserts at `priority` (clamped to 1..n+1); the rules from there on move down one. */
export async function insertRule(trx: Trx, bucketId: number, v: EdgeRuleInput, userId: number): Promise<number> {
  await lockBucket(trx, bucketId);
  const count = await countRules(trx, bucketId);
  const priority = Math.min(Math.max(1, v.priority), count + 1);
  await trx.updateTable('edge_rules').set((eb) => ({ priority: eb('priority', '+', 1) })).where('bucket_id', '=', bucketId).where('priority', '>=', priority).execute();
  const row = await trx
    .insertInto('edge_rules')
    .values({ bucket_id: bucketId, priority, ...columns(v), created_by: userId, updated_by: userId })
    .returning('id')
    .executeTakeFirstOrThrow();
  await renumber(trx, bucketId);
  return row.id;
}

/**
 * Moves a rule to `target` (clamped to 1..n): the moved rule takes the target's priority and the
 * rules between shift by one towards the place it left.
 */
export async function moveRule(trx: Trx, bucketId: number, id: number, target: number): Promise<number> {
  await lockBucket(trx, bucketId);
  await renumber(trx, bucketId);
  const count = await countRules(trx, bucketId);
  const to = Math.min(Math.max(1, target), count);
  const cur = await trx.selectFrom('edge_rules').select('priority').where('id', '=', id).executeTakeFirstOrThrow();
  const from = cur.priority;
  if (from === to) return to;
  if (from < to) {
    await trx.updateTable('edge_rules').set((eb) => ({ priority: eb('priority', '-', 1) })).where('bucket_id', '=', bucketId).where('priority', '>', from).where('priority', '<=', to).execute();
  } else {
    await trx.updateTable('edge_rules').set((eb) => ({ priority: eb('priority', '+', 1) })).where('bucket_id', '=', bucketId).where('priority', '>=', to).where('priority', '<', from).execute();
  }
  await trx.updateTable('edge_rules').set({ priority: to }).where('id', '=', id).execute();
  await renumber(trx, bucketId);
  return to;
}

/** Replaces a rule's fields and moves it to its new priority. */
export async function updateRule(trx: Trx, bucketId: number, id: number, v: EdgeRuleInput, userId: number): Promise<void> {
  await trx.updateTable('edge_rules').set({ ...columns(v), updated_by: userId, updated_at: sql`now()` }).where('id', '=', id).execute();
  await moveRule(trx, bucketId, id, v.priority);
}

export async function setStatus(trx: Trx, id: number, status: string, ip: string | null, userId: number): Promise<void> {
  await trx.updateTable('edge_rules').set({ status, ip, updated_by: userId, updated_at: sql`now()` }).where('id', '=', id).execute();
}

export async function deleteRule(trx: Trx, bucketId: number, id: number): Promise<void> {
  await lockBucket(trx, bucketId);
  await trx.deleteFrom('edge_rules').where('id', '=', id).execute();
  await renumber(trx, bucketId);
}
