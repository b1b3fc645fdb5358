/**
 * nginx as a child of the agent: started in the foreground (`daemon off`) with the node's own prefix,
 * tested with `nginx -t`, reloaded with SIGHUP; adopted again after the agent itself was killed (its pid
 * file), and started again with the last good configuration after it was killed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const NGINX_BIN = process.env.NGINX_BIN ?? '/usr/sbin/nginx';

export function nginxAvailable(): boolean {
  return fs.existsSync(NGINX_BIN);
}

/** nginx's answer to `-t`: ok, or its message (the lines it printed, without the banner). */
export function testConfig(prefix: string, confFile: string): { ok: boolean; output: string } {
  const r = spawnSync(NGINX_BIN, ['-t', '-q', '-p', prefix + '/', '-c', confFile], { encoding: 'utf8' });
  return { ok: r.status === 0, output: `${r.stderr ?? ''}${r.stdout ?? ''}`.trim() };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Worker pids of a master (its children, from /proc). */
function childrenOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function title(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}
const isWorker = (pid: number) => title(pid).includes('worker process');
const shuttingDown = (pid: number) => {
  const t = title(pid);
  return t === '' || t.includes('shutting down');
};

/**
 * The nginx processes (master, workers, cache processes; not this one) with a file open under `prefix`:
 * the processes of one node, found whatever became of their master. Read from /proc.
 */
export function nginxProcessesUnder(prefix: string): number[] {
  const opensOurs = (pid: number) => {
    try {
      return fs.readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          return fs.readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith(prefix + '/');
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  };
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    const pid = Number(entry);
    if (pid && pid !== process.pid && title(pid).startsWith('nginx:') && opensOurs(pid)) found.push(pid);
  }
  return found;
}

export class NginxProcess {
  private child: ChildProcess | null = null;
  private pid: number | null = null;
  private stopping = false;
  /** Called when nginx exits without being asked (the agent starts it again). */
  onExit: ((code: number | null) => void) | null = null;

  constructor(
    readonly prefix: string,
    readonly confFile: string,
    readonly pidFile: string,
  ) {}

  get running(): boolean {
    return this.pid != null && alive(this.pid);
  }

  /** A master left running by an earlier agent (its pid file names a live nginx). */
  adopt(): boolean {
    try {
      const pid = Number(fs.readFileSync(this.pidFile, 'utf8').trim());
      if (pid && alive(pid) && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('nginx')) {
        this.pid = pid;
        return true;
      }
    } catch {
      /* none */
    }
    return false;
  }

  async start(): Promise<void> {
    if (this.adopt()) return;
    await this.killOrphans();
    // a master killed with -9 leaves its Unix sockets behind, and nginx will not bind over them
    const run = path.dirname(this.pidFile);
    for (const f of fs.existsSync(run) ? fs.readdirSync(run) : []) if (f.endsWith('.sock')) fs.rmSync(path.join(run, f), { force: true });
    this.stopping = false;
    const child = spawn(NGINX_BIN, ['-p', this.prefix + '/', '-c', this.confFile], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d) => (err = (err + d).slice(-4000)));
    this.child = child;
    this.pid = child.pid ?? null;
    child.on('exit', (code) => {
      if (this.child === child) {
        this.child = null;
        this.pid = null;
        if (!this.stopping) this.onExit?.(code);
      }
    });
    // ready when the master has its workers (or it died)
    const until = Date.now() + 10_000;
    while (Date.now() < until) {
      if (!this.child) throw new Error(`nginx 未能启动：${err.trim()}`);
      if (this.pid && childrenOf(this.pid).length > 0) return;
      await new Promise((r) => setTimeout(r, 30));
    }
    throw new Error(`nginx 启动超时：${err.trim()}`);
  }

  /**
   * Workers of a master that was killed with -9 keep serving and hold the ports: find them by the files
   * they have open under this node's folder, let them finish (SIGQUIT), then make sure they are gone.
   */
  private async killOrphans(): Promise<void> {
    const mine = nginxProcessesUnder(this.prefix);
    if (!mine.length) return;
    const signal = (pid: number, sig: NodeJS.Signals) => {
      try {
        process.kill(pid, sig);
      } catch {
        /* gone */
      }
    };
    mine.forEach((pid) => signal(pid, 'SIGQUIT'));
    const until = Date.now() + 2000;
    while (mine.some(alive) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    mine.filter(alive).forEach((pid) => signal(pid, 'SIGKILL'));
  }

  /**
   * Graceful reload; resolves when new workers run and every old one has stopped accepting (it is gone
   * or titled "shutting down"), so that the next connection meets the new configuration (or after 5 s).
   */
  async reload(): Promise<void> {
    if (!this.pid || !alive(this.pid)) throw new Error('nginx 未运行');
    const before = childrenOf(this.pid).filter(isWorker);
    process.kill(this.pid, 'SIGHUP');
    const until = Date.now() + 5000;
    while (Date.now() < until) {
      const now = childrenOf(this.pid);
      const fresh = now.some((p) => !before.includes(p));
      const oldDone = before.every((p) => !now.includes(p) || shuttingDown(p));
      if (fresh && oldDone) return;
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const pid = this.pid;
    if (!pid || !alive(pid)) return;
    // graceful (SIGQUIT), then fast (SIGTERM); a master killed outright would leave its workers serving
    const workers = childrenOf(pid);
    const signal = (p: number, sig: NodeJS.Signals) => {
      try {
        process.kill(p, sig);
      } catch {
        /* gone */
      }
    };
    const wait = async (ms: number) => {
      const until = Date.now() + ms;
      while ((alive(pid) || workers.some(alive)) && Date.now() < until) await new Promise((r) => setTimeout(r, 30));
    };
    signal(pid, 'SIGQUIT');
    await wait(5000);
    if (alive(pid)) signal(pid, 'SIGTERM');
    await wait(2000);
    [pid, ...workers].filter(alive).forEach((p) => signal(p, 'SIGKILL'));
    this.pid = null;
    this.child = null;
  }
}

export const confPath = (prefix: string, dir: string) => path.join(prefix, dir, 'nginx.conf');
