/**
 * Where the files of file services live (docs/files-and-media.md). One small interface with two
 * implementations: the local disk under DATA_DIR (the embedded default) and any S3-compatible object
 * store (S3_ENDPOINT …). Keys are `<bucket id>/<path>`; the database (`file_objects`) is the index the
 * console lists and pages, the storage only holds the bytes.
 */
import type { Readable } from 'node:stream';
import type { ServerConfig } from '../config';
import { LocalStorage } from './local';
import { S3Storage } from './s3';

export interface StoredObject {
  key: string;
  size: number;
}

export interface ObjectBody {
  body: Readable;
  size: number;
  contentType?: string;
}

export interface Storage {
  readonly kind: 'local' | 's3';
  /** Stores the bytes under the key (replacing them); `size` is required for a stream on S3. */
  put(key: string, body: Buffer | Readable, opts?: { contentType?: string; size?: number }): Promise<StoredObject>;
  /** The bytes of a key, or null when there is none. */
  get(key: string): Promise<ObjectBody | null>;
  /** Whether the key exists and its size. */
  head(key: string): Promise<StoredObject | null>;
  /** Removes a key; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Every key under a prefix, in key order. */
  list(prefix: string): Promise<StoredObject[]>;
  /** Releases what the storage holds open (a temporary directory for DATA_DIR=memory://). */
  close(): Promise<void>;
}

/** A key is relative, has no empty, `.` or `..` segment, no backslash and no control character. */
export function assertKey(key: string): void {
  const bad =
    !key ||
    key.startsWith('/') ||
    key.endsWith('/') ||
    key.includes('\\') ||
    /[\u0000-\u001f]/.test(key) ||
    key.split('/').some((seg) => seg === '' || seg === '.' || seg === '..');
  if (bad) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
}

export interface StorageConfig {
  /** S3-compatible endpoint (e.g. http://127.0.0.1:9000); unset: the local disk. */
  s3Endpoint?: string;
  s3Bucket?: string;
  s3Region?: string;
  s3AccessKey?: string;
  s3SecretKey?: string;
}

/** The storage chosen by configuration: S3 when S3_ENDPOINT is set, else the local disk under DATA_DIR. */
export async function openStorage(config: Pick<ServerConfig, 'dataDir'> & { storage?: StorageConfig }): Promise<Storage> {
  const s = config.storage ?? {};
  if (s.s3Endpoint) {
    return S3Storage.open({
      endpoint: s.s3Endpoint,
      bucket: s.s3Bucket || 'console-files',
      region: s.s3Region || 'us-east-1',
      accessKeyId: s.s3AccessKey || '',
      secretAccessKey: s.s3SecretKey || '',
    });
  }
  return LocalStorage.underDataDir(config.dataDir);
}
