/**
 * PGlite behind the small pool interface kysely's PostgresDialect expects, so one dialect
 * (and one SQL) serves both the embedded database and a PostgreSQL server.
 * PGlite is a single connection: a client is lent to one user at a time (a transaction
 * holds it until release), others wait in line.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient } from 'kysely';

function commandOf(sql: string): 'UPDATE' | 'DELETE' | 'INSERT' | 'SELECT' | 'MERGE' {
  const m = /^\s*(?:with\b[\s\S]*?\)\s*)?(insert|update|delete|merge)\b/i.exec(sql);
  return (m ? m[1].toUpperCase() : 'SELECT') as 'UPDATE' | 'DELETE' | 'INSERT' | 'SELECT' | 'MERGE';
}

export function pglitePool(pg: PGlite): PostgresPool {
  let queue: Promise<void> = Promise.resolve();
  return {
    async connect(): Promise<PostgresPoolClient> {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const turn = queue;
      queue = queue.then(() => held);
      await turn;
      const client = {
        async query(sql: string, parameters: readonly unknown[]) {
          const res = await pg.query<Record<string, unknown>>(sql, parameters as unknown[]);
          return { command: commandOf(sql), rowCount: res.affectedRows ?? res.rows.length, rows: res.rows };
        },
        release() {
          release();
        },
      };
      return client as unknown as PostgresPoolClient;
    },
    async end() {
      await queue;
      await pg.close();
    },
  };
}
