/**
 * Jobs run once across servers (issue 21 item 16). Every server process runs the same timers (bill
 * settlement, purge worker, monitor, certificates, media, backups, cost control, referral rebates,
 * cleanup, the demo's traffic); on one PostgreSQL shared by several servers each due run must happen
 * in one of them only. `runOnce(db, job, fn)` takes a PostgreSQL session advisory lock named after the
 * job (`pg_try_advisory_lock(JOB_LOCK_CLASS, <job>)`) without waiting: the server that gets it runs
 * the job, the others skip this tick (they try again at their next one, when the job may be due
 * again). The lock ends with the run, or with the connection if the server dies mid-run.
 *
 * The locks of one process live on one connection borrowed from the pool while any job runs, given
 * back when none does: the jobs' own queries use the rest of the pool (a connection held per job
 * could exhaust a pool of 10 with the 11 jobs and wait forever).
 *
 * On PGlite there is no other server: one process per data folder (src/server/db/lock.ts), and its
 * single connection cannot be held aside; the job just runs.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db';

/** The jobs, each with its lock number (never reuse a number for another job). */
export const JOBS = {
  billing: 1,
  purge: 2,
  monitor: 3,
  certificatesAcme: 4,
  certificateOrders: 5,
  media: 6,
  backup: 7,
  costControl: 8,
  referrals: 9,
  cleanup: 10,
  demoTraffic: 11,
} as const;
export type JobName = keyof typeof JOBS;

/** The first key of the two-integer advisory locks of jobs ('JOBS'); the one-bigint locks elsewhere are another key space. */
export const JOB_LOCK_CLASS = 0x4a4f4253;

interface Session {
  conn: Kysely<any>;
  give: () => void;
}
interface Keeper {
  session: Promise<Session> | null;
  users: number;
  held: Set<JobName>;
}

const keepers = new WeakMap<DB, Keeper>();
const kinds = new WeakMap<DB, Promise<boolean>>();

/** Whether `db` is a PostgreSQL server (not PGlite): asked once per database. */
function isServer(db: DB): Promise<boolean> {
  let k = kinds.get(db);
  if (!k) {
    k = sql<{ v: string }>`select version() as v`.execute(db).then((r) => !/PGlite/i.test(r.rows[0]?.v ?? ''));
    kinds.set(db, k);
  }
  return k;
}

function keeperOf(db: DB): Keeper {
  let k = keepers.get(db);
  if (!k) keepers.set(db, (k = { session: null, users: 0, held: new Set() }));
  return k;
}

/** Borrows the process's lock connection (the first user takes it from the pool). */
function borrow(db: DB, k: Keeper): Promise<Session> {
  k.users++;
  if (!k.session) {
    k.session = new Promise<Session>((resolve, reject) => {
      db.connection()
        .execute((conn) => new Promise<void>((give) => resolve({ conn, give })))
        .catch(reject);
    });
    k.session.catch(() => (k.session = null));
  }
  return k.session;
}

/** Gives it back when the last job of the process is done. */
async function giveBack(k: Keeper): Promise<void> {
  k.users--;
  if (k.users > 0 || !k.session) return;
  const s = k.session;
  k.session = null;
  (await s.catch(() => null))?.give();
}

export type RunOnce<T> = { ran: true; value: T } | { ran: false };

/**
 * Runs `fn` unless another server (or this one, for the same job) is running `job` now; then
 * `{ ran: false }` and nothing happens.
 */
export async function runOnce<T>(db: DB, job: JobName, fn: () => Promise<T>): Promise<RunOnce<T>> {
  const k = keeperOf(db);
  if (k.held.has(job)) return { ran: false }; // session locks are re-entrant: the same job twice here is refused by hand
  if (!(await isServer(db))) {
    k.held.add(job);
    try {
      return { ran: true, value: await fn() };
    } finally {
      k.held.delete(job);
    }
  }
  k.held.add(job);
  try {
    const s = await borrow(db, k);
    try {
      const got = await sql<{ got: boolean }>`select pg_try_advisory_lock(${JOB_LOCK_CLASS}::int, ${JOBS[job]}::int) as got`.execute(s.conn);
      if (!got.rows[0]?.got) return { ran: false };
      try {
        return { ran: true, value: await fn() };
      } finally {
        await sql`select pg_advisory_unlock(${JOB_LOCK_CLASS}::int, ${JOBS[job]}::int)`.execute(s.conn).catch(() => undefined);
      }
    } finally {
      await giveBack(k);
    }
  } finally {
    k.held.delete(job);
  }
}

/** `runOnce` for a timer's tick: the job's value, or `undefined` when another server had it. */
export async function tickOnce<T>(db: DB, job: JobName, fn: () => Promise<T>): Promise<T | undefined> {
  const r = await runOnce(db, job, fn);
  return r.ran ? r.value : undefined;
}
