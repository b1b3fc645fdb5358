/**
 * Issue 21 item 4: every operation of /api/openapi.json gets generated invalid input — wrong types,
 * numbers at and beyond their bounds, NUL, lone surrogates, long strings, extra keys, missing fields —
 * in its JSON body, its query string and its path, signed in as the demo's main account. No answer may
 * be a 5xx, and a refused answer (4xx) may change no row of any table (row triggers record every
 * change; bookkeeping a refusal itself would write is listed in BOOKKEEPING with its reason).
 * Bounded: at most CASES_PER_OPERATION requests per operation; it prints how many it sent.
 */
import { sql } from 'kysely';
import { Client, startTestServer, type TestServer } from './helpers';

/** Requests per operation at most (the generated cases are cut, the first kinds kept). */
const CASES_PER_OPERATION = 28;
/** Operations not sent: signing out ends the session every other case needs. */
const SKIP = new Set(['GET /accounts/signout/', 'POST /accounts/signout/']);
/**
 * Tables a refused request may write by design, each with its reason (none today: every generated
 * request is refused before it counts anything). A limit that counts refusals (sign-in failures per
 * address, say) goes here with its reason, and the printout shows how often it was written.
 */
const BOOKKEEPING = new Set<string>([]);

type Schema = Record<string, any>;

let s: TestServer;
let demo: Client;
let doc: Schema;

beforeAll(async () => {
  s = await startTestServer();
  demo = await new Client(s.app).signIn('demo');
  doc = (await s.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  // every row written, updated or deleted lands in fuzz_changes (committed changes only: a rolled-back
  // transaction takes its rows here with it)
  await sql`create table fuzz_changes (id serial primary key, tbl text not null)`.execute(s.db);
  await sql`create or replace function fuzz_note() returns trigger language plpgsql as $$ begin insert into fuzz_changes (tbl) values (TG_TABLE_NAME); return null; end $$`.execute(s.db);
  await sql`do $$ declare t text; begin
    for t in select tablename from pg_tables where schemaname = 'public' and tablename not in ('fuzz_changes', 'kysely_migration', 'kysely_migration_lock') loop
      execute format('create trigger %I after insert or update or delete on %I for each row execute function fuzz_note()', 'fuzz_' || t, t);
    end loop; end $$`.execute(s.db);
}, 120_000);
afterAll(() => s?.close());

const resolve = (x: Schema | undefined): Schema | undefined => {
  if (!x || typeof x !== 'object') return x;
  if (typeof x.$ref === 'string' && x.$ref.startsWith('#/')) return resolve(x.$ref.slice(2).split('/').reduce((o: any, k: string) => o?.[k], doc));
  return x;
};
const typesOf = (x: Schema | undefined): string[] => {
  const t = resolve(x)?.type;
  return Array.isArray(t) ? t : t ? [t] : [];
};

/** A value the schema probably takes: const, the first enum value, the top of a number's range, a short string. */
function sample(x0: Schema | undefined, depth = 0): unknown {
  const x = resolve(x0) ?? {};
  if ('const' in x) return x.const;
  if (Array.isArray(x.enum)) return x.enum[0];
  if (x.default !== undefined) return x.default;
  const t = typesOf(x)[0];
  if (t === 'integer' || t === 'number') return typeof x.maximum === 'number' ? x.maximum : typeof x.minimum === 'number' ? x.minimum : 1;
  if (t === 'boolean') return false;
  if (t === 'array') return depth > 3 ? [] : Array.from({ length: Math.min(x.minItems ?? 0, 3) }, () => sample(x.items, depth + 1));
  if (t === 'object' || x.properties) {
    if (depth > 3) return {};
    const out: Record<string, unknown> = {};
    for (const k of x.required ?? []) out[k] = sample(x.properties?.[k], depth + 1);
    return out;
  }
  if (x.format === 'email') return 'fuzz@example.com';
  if (x.format === 'ipv4') return '203.0.113.9';
  if (x.format === 'uri') return 'https://example.com/';
  if (x.format === 'date') return '2026-01-01';
  if (x.format === 'date-time') return '2026-01-01T00:00:00Z';
  return 'a'.repeat(Math.max(1, Math.min(x.minLength ?? 1, 64)));
}

const NUL = 'a\u0000b';
const LONE = 'x\udc00';
const LONG = 'x'.repeat(70_000);
const BIG = [2147483648, -2147483649, 1e20, 9007199254740993, 1.5, -1, 0];

/** Values a field of this schema should refuse (or, for the bounds themselves, take without harm). */
function badValues(x0: Schema | undefined): unknown[] {
  const x = resolve(x0) ?? {};
  const t = typesOf(x);
  const out: unknown[] = [NUL, LONE];
  if (t.includes('integer') || t.includes('number')) {
    out.push('1', ...BIG);
    if (typeof x.maximum === 'number') out.push(x.maximum + 1);
  } else if (t.includes('string') || !t.length) {
    out.push(123, LONG, {}, ['a']);
  } else if (t.includes('boolean')) out.push('true', 1);
  else if (t.includes('array')) out.push('x', [NUL], [LONE], [2147483648], Array.from({ length: 2000 }, () => 'a'), [{}]);
  else if (t.includes('object')) out.push('x', [], { [NUL]: 1 }, { a: LONE });
  return out;
}

interface Case {
  path: string;
  query: Record<string, string>;
  body?: unknown;
  raw?: string;
}

/** Query-string values: what the query parser would make of generated junk. */
const queryText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

function casesOf(url: string, op: Schema): Case[] {
  const params: Schema[] = (op.parameters ?? []).map((p: Schema) => resolve(p)!);
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const bodySchema = resolve(op.requestBody?.content?.['application/json']?.schema);
  // values given here are already encoded (a lone surrogate has no UTF-8 form: %ED%B0%80 is what a client could send)
  const fill = (values: Record<string, string>) => url.replace(/\{([^}]+)\}/g, (_m, name) => values[name] ?? encodeURIComponent(String(sample(pathParams.find((p) => p.name === name)?.schema) ?? 'a')));
  const baseQuery: Record<string, string> = {};
  for (const p of queryParams) if (p.required) baseQuery[p.name] = queryText(sample(p.schema));
  const baseBody = bodySchema ? sample(bodySchema) : undefined;
  const base: Case = { path: fill({}), query: baseQuery, body: baseBody };
  const out: Case[] = [];
  // the body: not an object at all, every property in turn, an extra key, a missing field
  if (bodySchema) {
    out.push({ ...base, raw: '{"a":' }, { ...base, body: [] }, { ...base, body: 'x' });
    const props = Object.entries((resolve(bodySchema)?.properties ?? {}) as Record<string, Schema>);
    for (const [name, schema] of props) for (const v of badValues(schema).slice(0, 6)) out.push({ ...base, body: { ...(baseBody as object), [name]: v } });
    out.push({ ...base, body: { ...(baseBody as object), ['extra\u0000']: 1, fuzz_extra: LONG } });
    const req = resolve(bodySchema)?.required ?? [];
    if (req.length) out.push({ ...base, body: {} });
  }
  // the query string: each parameter in turn, then one that does not exist
  for (const p of queryParams) for (const v of badValues(p.schema).slice(0, 5)) out.push({ ...base, query: { ...baseQuery, [p.name]: queryText(v) } });
  if (queryParams.length) out.push({ ...base, query: { ...baseQuery, fuzz: NUL } });
  // the path: each parameter in turn
  for (const p of pathParams) for (const v of ['a%00b', '%ED%B0%80', 'x'.repeat(2000), '2147483648', '..%2f..']) out.push({ ...base, path: fill({ [p.name]: v }) });
  out.push(base);
  return out;
}

test('the row triggers see a change', async () => {
  const res = await demo.put('/api/monitor/', { name: '触发器自检', metric: 'bandwidth', operator: 'gt', threshold: 100, period: 10, buckets: ['demo-www'], notify_message: true, notify_sms: false });
  expect(res.statusCode).toBe(200);
  const seen = (await sql<{ tbl: string }>`delete from fuzz_changes returning tbl`.execute(s.db)).rows.map((r) => r.tbl);
  expect(seen).toEqual(expect.arrayContaining(['monitor_tasks', 'operation_logs']));
});

test('no generated invalid request gets a 5xx or changes a row', async () => {
  const started = Date.now();
  const cpu = process.cpuUsage();
  // FUZZ_PATHS=<regular expression> walks only the matching paths (while working on a section)
  const only = process.env.FUZZ_PATHS ? new RegExp(process.env.FUZZ_PATHS) : null;
  const failures: string[] = [];
  let sent = 0;
  let operations = 0;
  const statuses: Record<string, number> = {};
  const bookkept: Record<string, number> = {};
  for (const [url, item] of Object.entries(doc.paths as Record<string, Schema>)) {
    for (const method of ['get', 'post', 'put', 'delete', 'patch']) {
      const op = item[method];
      if (!op) continue;
      const name = `${method.toUpperCase()} ${url}`;
      if (SKIP.has(name) || (only && !only.test(url))) continue;
      operations++;
      for (const c of casesOf(url, op).slice(0, CASES_PER_OPERATION)) {
        const qs = new URLSearchParams(c.query).toString();
        const res = await demo.request({
          method: method.toUpperCase() as 'GET',
          url: c.path + (qs ? `?${qs}` : ''),
          ...(c.raw !== undefined ? { payload: c.raw, headers: { 'content-type': 'application/json' } } : c.body !== undefined && method !== 'get' ? { payload: JSON.stringify(c.body), headers: { 'content-type': 'application/json' } } : {}),
        });
        sent++;
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        const touched = (await sql<{ tbl: string }>`delete from fuzz_changes returning tbl`.execute(s.db)).rows.map((r) => r.tbl);
        const changed = touched.filter((t) => !BOOKKEEPING.has(t));
        if (res.statusCode >= 400) for (const t of touched) if (BOOKKEEPING.has(t)) bookkept[t] = (bookkept[t] ?? 0) + 1;
        const what = () => `${name} ${qs.slice(0, 120)} ${JSON.stringify(c.body ?? c.raw ?? '').slice(0, 160)} → ${res.statusCode} ${res.body.slice(0, 160)}`;
        if (res.statusCode >= 500) failures.push(`5xx: ${what()}`);
        else if (res.statusCode >= 400 && changed.length) failures.push(`changed ${[...new Set(changed)].join(', ')}: ${what()}`);
        // a case that ended the session (none should) would hide the rest behind 401; routes with a
        // token of their own (statistics ingestion) answer 21110 to a missing token, the session lives on
        if (res.statusCode === 401 && res.json().error_code === 21110 && (await demo.get('/api/accounts/v2/usage/')).statusCode === 401) {
          failures.push(`signed out: ${what()}`);
          await demo.signIn('demo');
        }
      }
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const used = process.cpuUsage(cpu);
  // the figures docs/security.md reports (CPU seconds too: the wall time depends on what else runs)
  console.log(`fuzz: ${sent} requests to ${operations} operations in ${seconds} s (${((used.user + used.system) / 1e6).toFixed(1)} s CPU); answers by status ${JSON.stringify(statuses)}; bookkeeping rows of refusals ${JSON.stringify(bookkept)}; failures ${failures.length}`);
  expect(failures).toEqual([]);
}, 300_000);
