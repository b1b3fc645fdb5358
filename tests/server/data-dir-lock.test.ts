/**
 * One writer per PGlite data folder (issue 21 item 15, src/server/db/lock.ts): while this test process
 * holds a folder, a second server process and `npm run platform` refuse it with the sentence; a lock
 * left by a dead process is taken over; a clean shutdown removes the lock; memory:// takes none.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { sql } from 'kysely';
import { openDatabase, type DB } from '../../src/server/db';
import { LOCK_FILE, DataDirInUseError } from '../../src/server/db/lock';

const root = path.resolve(__dirname, '../..');

function run(script: string, args: string[], dataDir: string) {
  // no DATABASE_URL: the PostgreSQL round of the suite runs this file too, and these are PGlite folders
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, SEED_DEMO: '0', PORT: '0', HOST: '127.0.0.1' };
  delete env.DATABASE_URL;
  delete env.NODE_OPTIONS;
  return spawnSync(process.execPath, ['--import', 'tsx', path.join(root, script), ...args], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
}

const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'harden-lock-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('one process per PGlite data folder', () => {
  let dir: string;
  let db: DB | null = null;

  beforeAll(async () => {
    dir = tempDir();
    db = await openDatabase({ dataDir: dir });
    await sql`create table lock_probe (n int)`.execute(db);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  test('the folder holds a lock naming this process', () => {
    const owner = JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8'));
    expect(owner.pid).toBe(process.pid);
  });

  test('a second server process refuses the folder with the sentence and exits', () => {
    const r = run('src/server/main.ts', [], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`数据目录 ${dir} 正被另一个进程（pid ${process.pid}）使用`);
    expect(r.stderr).not.toMatch(/\n\s+at /); // the sentence, not a stack
    expect(r.stdout).not.toContain('控制台已启动');
  });

  test('npm run platform refuses it while the server runs', () => {
    const r = run('src/server/platform/cli.ts', ['ledger-check'], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('正被另一个进程');
    expect(r.stderr).toContain('npm run platform');
  });

  test('the same process opening it twice is refused too', async () => {
    await expect(openDatabase({ dataDir: dir })).rejects.toBeInstanceOf(DataDirInUseError);
  });

  test('the refused processes changed nothing and the owner keeps working', async () => {
    await sql`insert into lock_probe values (1)`.execute(db!);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from lock_probe`.execute(db!);
    expect(rows[0].n).toBe(1);
    expect(JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
  });

  test('a clean shutdown removes the lock; then another process opens the folder', async () => {
    await db!.destroy();
    db = null;
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    const r = run('src/server/platform/cli.ts', ['ledger-check'], dir);
    expect(r.stderr).not.toContain('正被另一个进程');
    expect(r.status).toBe(0);
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false); // the platform command released it too
  });
});

test('a lock left by a dead process is stale and taken over', async () => {
  const dir = tempDir();
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  const deadPid = Number(gone.stdout);
  expect(deadPid).toBeGreaterThan(0);
  fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: deadPid, host: os.hostname(), since: '2026-01-01T00:00:00Z' }));
  const db = await openDatabase({ dataDir: dir });
  try {
    expect(JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
  } finally {
    await db.destroy();
  }
  expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
});

test('memory:// takes no lock', async () => {
  const a = await openDatabase({ dataDir: 'memory://' });
  const b = await openDatabase({ dataDir: 'memory://' });
  await a.destroy();
  await b.destroy();
});
