/**
 * Issue 21 item 3: a change and its operation-log row commit together. `writeLog` / `writeLogAs`
 * (src/server/accounts/oplog.ts) take only a kysely `Transaction`, so the compiler refuses a log row
 * written beside its transaction; this test refuses the other way round — a section inserting into
 * operation_logs itself — and names the file.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const WRITER = 'src/server/accounts/oplog.ts';

function filesOf(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesOf(rel));
    else if (/\.(ts|tsx|mjs)$/.test(e.name)) out.push(rel);
  }
  return out;
}

test('only oplog.ts inserts into operation_logs', () => {
  const writers = [...filesOf('src'), ...filesOf('scripts')].filter((f) => {
    const text = fs.readFileSync(path.join(ROOT, f), 'utf8');
    return /insertInto\(\s*['"]operation_logs['"]|insert\s+into\s+"?operation_logs/i.test(text);
  });
  expect(writers).toEqual([WRITER]);
});

test('writeLog and writeLogAs accept only a transaction', () => {
  const text = fs.readFileSync(path.join(ROOT, WRITER), 'utf8');
  expect(text).toMatch(/export async function writeLog\(trx: Transaction<Database>/);
  expect(text).toMatch(/export async function writeLogAs\(trx: Transaction<Database>/);
});
