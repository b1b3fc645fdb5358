/**
 * Hot queries compiled once (issue 22): a request on the settings path runs the same few statements
 * thousands of times a second, and building each with kysely's query builder cost more CPU than the
 * answer. `prepare` compiles a query at start with placeholder values and returns a function that runs it
 * with the real ones; on PostgreSQL the statement is also a named prepared statement on each connection
 * (parsed and planned once per connection: ./notify.ts wraps the pool's clients), on PGlite it is sent as is.
 */
import { CompiledQuery, DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type Compilable } from 'kysely';
import type { Database } from './schema';

/** A Kysely that only compiles (no connection): queries are built here once, at start. */
const compiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** SQL text → the prepared statement's name, for the pool's clients (PostgreSQL). */
const names = new Map<string, string>();

export function preparedName(sql: string): string | undefined {
  return names.get(sql);
}

type Executor = Pick<Kysely<Database>, 'executeQuery'>;

/**
 * `build` makes the query with the markers it is given (`$1`, `$2`, … as values); the result runs it
 * with as many real values, in that order, on a DB or a transaction.
 */
export function prepare<R, P extends unknown[]>(name: string, arity: P['length'], build: (db: Kysely<Database>, ...markers: any[]) => Compilable<R>): (db: Executor, ...params: P) => Promise<R[]> {
  const markers = Array.from({ length: arity }, (_, i) => `$${i + 1}`);
  const compiled = build(compiler, ...markers).compile();
  if (compiled.parameters.length !== arity || compiled.parameters.some((p, i) => p !== markers[i])) {
    throw new Error(`prepared query ${name}: its parameters are not the markers in order (${JSON.stringify(compiled.parameters)})`);
  }
  return prepareSql<R, P>(name, compiled.sql);
}

/**
 * The same for a statement written as SQL text (`$1`, `$2`, … in it): what the query builder does not build
 * in one statement, such as a change and its operation-log row (src/server/accounts/oplog.ts).
 */
export function prepareSql<R, P extends unknown[]>(name: string, text: string): (db: Executor, ...params: P) => Promise<R[]> {
  if ([...names.values()].includes(`cdn_${name}`) && names.get(text) !== `cdn_${name}`) throw new Error(`prepared query ${name} is declared twice`);
  names.set(text, `cdn_${name}`);
  return async (db, ...params) => (await db.executeQuery(CompiledQuery.raw(text, params) as CompiledQuery<R>)).rows;
}
