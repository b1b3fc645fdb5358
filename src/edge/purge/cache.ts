/**
 * The edge's cache on disk, as nginx writes it (proxy_cache_path … levels=1:2 keys_zone=edge_cache, see
 * ../compile/main.ts): one file per cached object at <dir>/<h[31]>/<h[29..30]>/<h>, where h is the MD5 of
 * the cache key — or of the key and the request headers a `Vary` names, for a variant — and every file
 * holds its key on a `KEY: …` line after nginx's binary header. nginx 1.22 (open source) has no
 * proxy_cache_purge; removing the file is a purge: the next request finds no file, counts as a MISS and
 * goes to the origin (the zone's entry is replaced when the new answer is stored).
 *
 * The key is `s<id>/<host><uri>?<args>` (src/edge/lua/edge_core.lua M.cache_key): the service, the host,
 * the decoded and normalised path, and the query as the service's settings keep it (query_string,
 * cache_rules' 忽略 URL 参数) — computed by schemas/edge-cache-key.ts.
 *
 * An index (file → key) avoids reading every file for every purge: a file's name never changes key, so
 * a refresh lists the folders and reads only the files it has not seen.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { CacheKeySettings } from '../../shared/purge';
import { edgeCacheKey, keyWithoutService } from '../../../schemas/edge-cache-key';

const HASH_NAME = /^[0-9a-f]{32}$/;

/** Where nginx keeps the object of a key (levels=1:2). */
export function cacheFileOf(dir: string, key: string): string {
  const h = createHash('md5').update(key).digest('hex');
  return path.join(dir, h.slice(31), h.slice(29, 31), h);
}

/** The `KEY: …` line of a cache file, or null when the file is not one (or is gone). */
export function readKey(file: string): string | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    let size = 4096;
    for (;;) {
      const buf = Buffer.alloc(size);
      const n = fs.readSync(fd, buf, 0, size, 0);
      const at = buf.indexOf('\nKEY: ', 0, 'latin1');
      if (at < 0) return null;
      const end = buf.indexOf('\n', at + 6, 'latin1');
      if (end >= 0 && end < n) return buf.subarray(at + 6, end).toString('utf8');
      if (n < size || size >= 65536) return null;
      size *= 4;
    }
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/** %XX decoded to bytes, read as UTF-8 (as nginx decodes $uri). */
export function decodePercent(raw: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === '%' && /^[0-9a-fA-F]{2}$/.test(raw.slice(i + 1, i + 3))) {
      bytes.push(parseInt(raw.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(raw[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The path as nginx's $uri has it: %XX decoded, slashes merged, dot segments resolved. */
export function normalizePath(raw: string): string {
  const decoded = decodePercent(raw);
  const out: string[] = [];
  const parts = decoded.split('/');
  for (let i = 1; i < parts.length; i++) {
    const p = parts[i];
    const last = i === parts.length - 1;
    if (p === '' && !last) continue; // merge_slashes
    if (p === '.') {
      if (last) out.push('');
      continue;
    }
    if (p === '..') {
      out.pop();
      if (last) out.push('');
      continue;
    }
    out.push(p);
  }
  return '/' + out.join('/');
}

/** A URL's host, normalised path and raw query. */
export function splitUrl(url: string): { host: string; path: string; query: string | null } | null {
  const m = /^https?:\/\/([^/:?#\s]+)(?::\d+)?([^?#]*)(?:\?([^#]*))?/i.exec(url.trim());
  if (!m) return null;
  return { host: m[1].toLowerCase(), path: normalizePath(m[2] || '/'), query: m[3] ?? null };
}

/**
 * The cache key of a URL on this edge under a service: edgeCacheKey (schemas/edge-cache-key.ts, the one
 * written beside the runtime's M.cache_key) with the path as nginx's `$uri` has it. Every file whose
 * `KEY:` is this key is the URL's object — the plain one and each `Vary` variant.
 */
export function urlKeyOf(url: string, service: number, settings: CacheKeySettings): string | null {
  const u = splitUrl(url);
  if (!u) return null;
  return edgeCacheKey(service, u.host, u.path, u.query ?? '', settings as Parameters<typeof edgeCacheKey>[4]);
}

/**
 * A glob of `*` (any characters, none included) and literal text, matched without backtracking: the text
 * before the first `*` is a prefix, the text after the last one a suffix, and each piece between is found
 * leftmost after the previous one (which is enough: with `*` alone, the leftmost place of a piece leaves
 * the most room to the rest). Time linear in the subject's length for a pattern, whatever its stars
 * (issue 34 item 4: a regular expression of `.*`s backtracked for seconds).
 */
export function globMatcher(pattern: string): (subject: string) => boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return (s) => s === pattern;
  const first = parts[0];
  const last = parts[parts.length - 1];
  const middle = parts.slice(1, -1).filter((p) => p !== '');
  const min = first.length + last.length;
  return (s) => {
    if (s.length < min || !s.startsWith(first) || !s.endsWith(last)) return false;
    let at = first.length;
    const end = s.length - last.length;
    for (const piece of middle) {
      const i = s.indexOf(piece, at);
      if (i < 0 || i + piece.length > end) return false;
      at = i + piece.length;
    }
    return true;
  };
}

/**
 * A rule (directory or pattern, spec 002 "Purge", provider-facts: http://example.com/image/*):
 * `*` stands for any characters, `/` included; a rule ending in `/` takes everything under it; a rule
 * without `*` is a directory (the path itself and everything under it). The query is not part of the
 * match (every query of a matching path goes) unless the rule has one.
 *
 * The cache belongs to a service (`s<id>/<host>…`): the rule takes the objects of the host under the
 * given services, or under any service when none is given (a domain no service holds any more).
 */
export function ruleMatcher(rule: string, services: readonly number[] | null): ((key: string) => boolean) | null {
  const m = /^https?:\/\/([^/:?#\s]+)(?::\d+)?([^?#]*)(?:\?([^#]*))?/i.exec(rule.trim());
  if (!m) return null;
  const host = m[1].toLowerCase();
  const rawPath = m[2] || '/';
  const withQuery = m[3] !== undefined;
  // decoded and with slashes merged as $uri has them (a rule names paths, `.` and `..` are taken as written)
  let pattern = decodePercent(rawPath).replace(/\/{2,}/g, '/');
  if (!pattern.startsWith('/')) pattern = '/' + pattern;
  const star = pattern.includes('*') || withQuery;
  let test: (subject: string) => boolean;
  if (withQuery) pattern += '?' + m[3];
  if (star) {
    if (pattern.endsWith('/')) pattern += '*';
    test = globMatcher(pattern);
  } else {
    const dir = pattern.endsWith('/') ? pattern : pattern + '/';
    test = (s) => s === pattern || s.startsWith(dir);
  }
  const ids = services?.length ? new Set(services) : null;
  return (key) => {
    const k = keyWithoutService(key);
    if (!k || (ids && !ids.has(k.service))) return false;
    if (!k.rest.startsWith(host + '/')) return false;
    const rest = k.rest.slice(host.length);
    if (withQuery) return test(rest);
    const q = rest.indexOf('?');
    return test(q < 0 ? rest : rest.slice(0, q));
  };
}

export class CacheIndex {
  /** file (relative: a/bc/<md5>) → key */
  private files = new Map<string, string>();

  constructor(readonly dir: string) {}

  get size(): number {
    return this.files.size;
  }

  /**
   * Lists the cache folders; reads the key of each file not seen before and forgets the gone ones.
   * Folders are listed several at a time; only new files are read.
   */
  async refresh(): Promise<{ files: number; read: number }> {
    const seen = new Set<string>();
    let read = 0;
    const dirs: string[] = [];
    for (const a of await list(this.dir)) {
      if (a.length !== 1) continue;
      for (const b of await list(path.join(this.dir, a))) if (b.length === 2) dirs.push(`${a}/${b}`);
    }
    const fresh: string[] = [];
    await pool(dirs, async (d) => {
      for (const f of await list(path.join(this.dir, d))) {
        if (!HASH_NAME.test(f)) continue; // temporary files (<md5>.0000000001) are not objects yet
        const rel = `${d}/${f}`;
        seen.add(rel);
        if (!this.files.has(rel)) fresh.push(rel);
      }
    });
    // reading a few KB of each new file is quicker in one go than through the thread pool
    for (const rel of fresh) {
      const key = readKey(path.join(this.dir, rel));
      read++;
      if (key !== null) this.files.set(rel, key);
    }
    for (const rel of this.files.keys()) if (!seen.has(rel)) this.files.delete(rel);
    return { files: this.files.size, read };
  }

  /** Removes every indexed object whose key matches; answers how many files were removed. */
  async remove(match: (key: string) => boolean): Promise<number> {
    const hit: string[] = [];
    for (const [rel, key] of this.files) if (match(key)) hit.push(rel);
    let n = 0;
    await pool(hit, async (rel) => {
      if (await unlinkAsync(path.join(this.dir, rel))) n++;
      this.files.delete(rel);
    });
    return n;
  }

  /** Removes the file of one key directly (whether indexed or not). */
  removeKey(key: string): number {
    const file = cacheFileOf(this.dir, key);
    this.files.delete(path.relative(this.dir, file).split(path.sep).join('/'));
    return unlink(file) ? 1 : 0;
  }

  /** The indexed keys (tests, the benchmark). */
  keys(): string[] {
    return [...this.files.values()];
  }
}

async function list(dir: string): Promise<string[]> {
  try {
    return await fs.promises.readdir(dir);
  } catch {
    return [];
  }
}

/** Runs `fn` over the items, `parallel` at a time. */
async function pool<T>(items: T[], fn: (item: T) => Promise<void>, parallel = 32): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

async function unlinkAsync(file: string): Promise<boolean> {
  try {
    await fs.promises.unlink(file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false; // nginx's cache manager was first
    throw e;
  }
}

function unlink(file: string): boolean {
  try {
    fs.unlinkSync(file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false; // nginx's cache manager was first
    throw e;
  }
}
