/**
 * One writer per PGlite data folder (issue 21 item 15). PGlite is an embedded PostgreSQL with no server
 * between processes: two processes opening one folder each believe they own it and overwrite each
 * other's pages (acknowledged rows were lost that way). The process that opens the folder writes
 * `cdn-console.lock` in it, holding its pid; another process (a second server, `npm run platform`
 * while the server runs) finds it and refuses to open the folder. A lock whose pid no longer runs
 * (the owner was killed) is stale and taken over. The lock goes at a clean shutdown (the database's
 * destroy) and when the process exits.
 *
 * `memory://` databases are private to their process and take no lock.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const LOCK_FILE = 'cdn-console.lock';

export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`数据目录 ${dir} 正被另一个进程（pid ${pid}）使用：同一个 PGlite 数据目录同时只能由一个进程打开。请先停止该进程（服务端或 npm run platform），或为本进程指定另一个 DATA_DIR；若要多个服务端共用数据，请使用 PostgreSQL（DATABASE_URL）。`);
    this.name = 'DataDirInUseError';
  }
}

interface Owner {
  pid: number;
  host: string;
}

function readOwner(file: string): Owner | null {
  try {
    const o = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Owner>;
    return typeof o.pid === 'number' ? { pid: o.pid, host: String(o.host ?? '') } : null;
  } catch {
    return null; // missing, or half written by an owner that died while writing it
  }
}

/** Whether a process of that pid runs on this machine (EPERM: it runs, under another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the folder's lock for this process or throws DataDirInUseError. Returns the release, which
 * removes the file only while it is still this process's.
 */
export function lockDataDir(dir: string): () => void {
  const file = path.join(dir, LOCK_FILE);
  const me: Owner = { pid: process.pid, host: os.hostname() };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o644); // atomic: exactly one creator wins
      fs.writeSync(fd, JSON.stringify({ ...me, since: new Date().toISOString() }));
      fs.closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const owner = readOwner(file);
    // the same process opening the folder twice is refused too: two PGlite instances on one folder
    // corrupt it whichever process they live in
    if (owner && (owner.host !== me.host || alive(owner.pid))) throw new DataDirInUseError(dir, owner.pid);
    // stale (its owner is gone) or unreadable: take it over, once; a racing taker then finds ours
    if (attempt >= 2) throw new DataDirInUseError(dir, owner?.pid ?? 0);
    fs.rmSync(file, { force: true });
  }
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off('exit', release);
    if (readOwner(file)?.pid === process.pid) fs.rmSync(file, { force: true });
  };
  process.on('exit', release); // a crash that still exits (an uncaught error) leaves no lock behind
  return release;
}
