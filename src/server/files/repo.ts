/**
 * The index of a file service's files (`file_objects`) and the bytes in the storage, kept together:
 * every change of a file updates both and the service's storage_used.
 */
import { sql } from 'kysely';
import type { DB } from '../db';
import type { Storage } from '../storage';
import type { SessionUser } from '../accounts/session';
import type { BucketRow } from '../buckets/repo';
import { bucketForUser } from '../buckets/repo';
import { ApiError } from '../http/errors';
import { FILE_MANAGE_BLOCKED_STATES, folderPath, hasBidiControl, pathSegments, type FileEntry } from '../../shared/files';
import './tables';

export const storageKey = (bucketId: number, path: string) => `${bucketId}/${path}`;

/** A path's segments, or 27101 (27110 for a bidirectional control character). */
export function segmentsOr27101(p: string): string[] {
  if (hasBidiControl(p)) throw new ApiError(27110, 400); // its own message: the name looks fine on screen
  const segs = pathSegments(p);
  if (!segs) throw new ApiError(27101, 400);
  return segs;
}

/** The file service the user may manage: reachable (21905), a file service (27106), the account's account_status not DISABLED, BLOCKED or LOCKED (27108). */
export async function fileBucketFor(db: DB, user: SessionUser, name: string): Promise<BucketRow> {
  const b = await bucketForUser(db, user, name);
  if (b.kind !== 'file') throw new ApiError(27106, 400);
  const owner = await db.selectFrom('users').select('account_status').where('id', '=', user.account_id).executeTakeFirst();
  if (owner && (FILE_MANAGE_BLOCKED_STATES as readonly string[]).includes(owner.account_status)) throw new ApiError(27108, 403);
  return b;
}

type Row = { id: number; path: string; name: string; is_folder: boolean; size: string | number; content_type: string | null; updated_at: Date | string };

export function entryOf(r: Row): FileEntry {
  return {
    id: r.id,
    path: r.path,
    name: r.name,
    type: r.is_folder ? 'folder' : 'file',
    size: Number(r.size),
    content_type: r.content_type,
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

export async function findEntry(db: DB, bucketId: number, path: string) {
  return db.selectFrom('file_objects').selectAll().where('bucket_id', '=', bucketId).where('path', '=', path).executeTakeFirst();
}

/** The folder must exist (the root always does). */
export async function assertFolder(db: DB, bucketId: number, segs: string[]): Promise<void> {
  if (segs.length === 0) return;
  if (!(await findEntry(db, bucketId, folderPath(segs)))) throw new ApiError(27102, 404);
}

export async function createFolder(db: DB, bucketId: number, segs: string[], userId: number | null): Promise<FileEntry> {
  if (segs.length === 0) throw new ApiError(27101, 400);
  await assertFolder(db, bucketId, segs.slice(0, -1));
  const name = segs[segs.length - 1];
  const path = folderPath(segs);
  const parent = folderPath(segs.slice(0, -1));
  const clash = await db.selectFrom('file_objects').select('id').where('bucket_id', '=', bucketId).where('path', 'in', [path, path.slice(0, -1)]).executeTakeFirst();
  if (clash) throw new ApiError(27103, 409);
  const row = await db
    .insertInto('file_objects')
    .values({ bucket_id: bucketId, path, parent, name, is_folder: true, size: 0, content_type: null, created_by: userId })
    .onConflict((oc) => oc.columns(['bucket_id', 'path']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new ApiError(27103, 409);
  return entryOf(row);
}

/**
 * Records a file whose bytes were just stored: a new row, or the replaced file's row with its new size;
 * storage_used changes by the difference. Refuses when a folder of that name exists.
 */
export async function recordFile(db: DB, bucketId: number, segs: string[], size: number, contentType: string | null, userId: number | null): Promise<FileEntry> {
  const path = segs.join('/');
  return db.transaction().execute(async (trx) => {
    const old = await trx.selectFrom('file_objects').select(['id', 'size']).where('bucket_id', '=', bucketId).where('path', '=', path).forUpdate().executeTakeFirst();
    let row;
    if (old) {
      row = await trx.updateTable('file_objects').set({ size, content_type: contentType, updated_at: new Date() }).where('id', '=', old.id).returningAll().executeTakeFirstOrThrow();
    } else {
      row = await trx
        .insertInto('file_objects')
        .values({ bucket_id: bucketId, path, parent: folderPath(segs.slice(0, -1)), name: segs[segs.length - 1], is_folder: false, size, content_type: contentType, created_by: userId })
        .returningAll()
        .executeTakeFirstOrThrow();
    }
    const delta = size - Number(old?.size ?? 0);
    if (delta !== 0) await trx.updateTable('buckets').set({ storage_used: sql`storage_used + ${delta}` as any }).where('id', '=', bucketId).execute();
    return entryOf(row);
  });
}

/** Stores bytes and records them (the media worker's outputs, the demo seed). */
export async function writeFile(db: DB, storage: Storage, bucketId: number, path: string, body: Buffer, contentType: string | null, userId: number | null): Promise<FileEntry> {
  const segs = segmentsOr27101(path);
  if (segs.length === 0) throw new ApiError(27101, 400);
  // parents are made as needed
  for (let i = 1; i < segs.length; i++) {
    const p = folderPath(segs.slice(0, i));
    await db
      .insertInto('file_objects')
      .values({ bucket_id: bucketId, path: p, parent: folderPath(segs.slice(0, i - 1)), name: segs[i - 1], is_folder: true, size: 0, content_type: null, created_by: userId })
      .onConflict((oc) => oc.columns(['bucket_id', 'path']).doNothing())
      .execute();
  }
  await storage.put(storageKey(bucketId, segs.join('/')), body, { contentType: contentType ?? undefined, size: body.length });
  return recordFile(db, bucketId, segs, body.length, contentType, userId);
}

/** Deletes a file (and its bytes) or an empty folder; storage_used shrinks by the file's size. */
export async function deleteEntry(db: DB, storage: Storage, bucketId: number, segs: string[]): Promise<void> {
  if (segs.length === 0) throw new ApiError(27101, 400);
  const file = await findEntry(db, bucketId, segs.join('/'));
  if (file) {
    await db.transaction().execute(async (trx) => {
      const gone = await trx.deleteFrom('file_objects').where('id', '=', file.id).returning(['size']).executeTakeFirst();
      if (gone && Number(gone.size)) await trx.updateTable('buckets').set({ storage_used: sql`greatest(storage_used - ${Number(gone.size)}, 0)` as any }).where('id', '=', bucketId).execute();
    });
    await storage.delete(storageKey(bucketId, file.path));
    return;
  }
  const folder = await findEntry(db, bucketId, folderPath(segs));
  if (!folder) throw new ApiError(27102, 404);
  const child = await db.selectFrom('file_objects').select('id').where('bucket_id', '=', bucketId).where('parent', '=', folder.path).executeTakeFirst();
  if (child) throw new ApiError(27104, 409);
  await db.deleteFrom('file_objects').where('id', '=', folder.id).execute();
}

/** Content types by extension: the type stored and sent back does not trust the browser's guess. */
const TYPES: Record<string, string> = {
  txt: 'text/plain; charset=utf-8', html: 'text/html; charset=utf-8', htm: 'text/html; charset=utf-8', css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8', json: 'application/json', xml: 'application/xml', csv: 'text/csv; charset=utf-8', md: 'text/markdown; charset=utf-8',
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml', ico: 'image/x-icon', avif: 'image/avif',
  mp4: 'video/mp4', m4v: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm', mkv: 'video/x-matroska', flv: 'video/x-flv', ts: 'video/mp2t', m3u8: 'application/vnd.apple.mpegurl',
  mp3: 'audio/mpeg', aac: 'audio/aac', m4a: 'audio/mp4', wav: 'audio/wav', ogg: 'audio/ogg', flac: 'audio/flac',
  pdf: 'application/pdf', zip: 'application/zip', gz: 'application/gzip', tar: 'application/x-tar',
};
export function contentTypeOf(name: string): string {
  const ext = name.includes('.') ? name.split('.').pop()!.toLowerCase() : '';
  return TYPES[ext] ?? 'application/octet-stream';
}
