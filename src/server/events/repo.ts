import { sql } from 'kysely';
import dayjs from 'dayjs';
import type { DB } from '../db';
import type { EventFamily } from '../../shared/events';

export async function countEvent(db: DB, family: EventFamily, type: number, accountId: number, at = new Date()): Promise<void> {
  await db
    .insertInto('event_counts')
    .values({ family, type, day: dayjs(at).format('YYYY-MM-DD'), account_id: accountId, count: 1 })
    .onConflict((oc) => oc.columns(['family', 'day', 'type', 'account_id']).doUpdateSet({ count: sql`event_counts.count + 1` }))
    .execute();
}

export interface EventCount {
  family: string;
  type: number;
  day: string;
  count: number;
  accounts: number;
}

/** Counts per family, type and day (all accounts together, with how many accounts sent them). */
export async function eventCounts(db: DB, opts: { family?: EventFamily; from: string; to: string }): Promise<EventCount[]> {
  let q = db
    .selectFrom('event_counts')
    .select(['family', 'type', sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'), sql<number>`sum(count)::int`.as('count'), sql<number>`count(*)::int`.as('accounts')])
    .where('day', '>=', opts.from)
    .where('day', '<=', opts.to)
    .groupBy(['family', 'type', 'day'])
    .orderBy('day')
    .orderBy('family')
    .orderBy('type');
  if (opts.family) q = q.where('family', '=', opts.family);
  return (await q.execute()).map((r) => ({ ...r, count: Number(r.count), accounts: Number(r.accounts) }));
}
