/**
 * The local-disk storage: one file per key under `<DATA_DIR>/files/`. With DATA_DIR=memory:// (tests,
 * the browser tests' server) a temporary directory is made at start and removed by close().
 * Writes go to a temporary file in the same directory and are renamed into place, so a reader never
 * sees half a file.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertKey, type ObjectBody, type Storage, type StoredObject } from './index';

export class LocalStorage implements Storage {
  readonly kind = 'local' as const;

  constructor(
    readonly root: string,
    private readonly temporary = false,
  ) {}

  static async underDataDir(dataDir: string): Promise<LocalStorage> {
    if (dataDir.startsWith('memory://')) {
      const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'console-files-'));
      return new LocalStorage(dir, true);
    }
    const root = path.join(path.resolve(dataDir), 'files');
    await fsp.mkdir(root, { recursive: true });
    return new LocalStorage(root);
  }

  private fileOf(key: string): string {
    assertKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, body: Buffer | Readable, opts: { contentType?: string; size?: number } = {}): Promise<StoredObject> {
    const file = this.fileOf(key);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomBytes(6).toString('hex')}.part`;
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, fs.createWriteStream(tmp));
      await fsp.rename(tmp, file);
    } catch (e) {
      await fsp.rm(tmp, { force: true });
      throw e;
    }
    const size = (await fsp.stat(file)).size;
    void opts;
    return { key, size };
  }

  async head(key: string): Promise<StoredObject | null> {
    try {
      const st = await fsp.stat(this.fileOf(key));
      return st.isFile() ? { key, size: st.size } : null;
    } catch {
      return null;
    }
  }

  async get(key: string): Promise<ObjectBody | null> {
    const found = await this.head(key);
    if (!found) return null;
    return { body: fs.createReadStream(this.fileOf(key)), size: found.size };
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.fileOf(key), { force: true });
  }

  async list(prefix: string): Promise<StoredObject[]> {
    const out: StoredObject[] = [];
    const walk = async (dir: string, rel: string) => {
      let entries: fs.Dirent[];
      try {
        entries = await fsp.readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const key = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) await walk(path.join(dir, e.name), key);
        else if (e.isFile() && !e.name.endsWith('.part') && key.startsWith(prefix)) out.push({ key, size: (await fsp.stat(path.join(dir, e.name))).size });
      }
    };
    await walk(this.root, '');
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async close(): Promise<void> {
    if (this.temporary) await fsp.rm(this.root, { recursive: true, force: true });
  }
}
