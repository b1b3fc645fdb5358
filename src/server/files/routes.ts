/**
 * File management of file services (spec 002 §7 "/folder/{bucket}/{path}"; docs/files-and-media.md).
 * Every route works on the service named in the path (config.bucket 'params') with the file permission.
 *
 *   GET    /folder/{bucket}/{path}/   ?limit&since&max   the folder's entries, keyset paging by id
 *   GET    /folder/{bucket}/{path}                       a file's bytes (attachment, its content type)
 *   POST   /folder/{bucket}/{path}/   {}                 create the folder
 *   PUT    /folder/{bucket}/{path}/   multipart          upload files into the folder (UPLOAD_MAX_BYTES each, within
 *                                                       the account's STORAGE_QUOTA_BYTES, ./quota.ts)
 *   DELETE /folder/{bucket}/{path}                       delete a file or an empty folder
 *
 * Refusals: 27101 a path with an empty, . or .. segment; 27102 not found; 27103 a name taken; 27104 a
 * folder not empty; 27105 a file over the limit; 27106 not a file service; 27107 no file; 27108 the
 * account disabled, blocked or locked; 27109 too many files at once; 27110 a name with a bidirectional
 * control character (U+202E …); 27111 over the account's storage quota; 21905 a service out of reach.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import type { DB } from '../db';
import type { Storage } from '../storage';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { keysetQuery } from '../http/keyset';
import { FOLDER_PAGE_MAX, FOLDER_PAGE_SIZE, STORAGE_QUOTA_BYTES, UPLOAD_MAX_BYTES, folderPath, hasBidiControl, validName, type FileEntry } from '../../shared/files';
import { assertWithinQuota, quotaMeter, storedBytes } from './quota';
import { assertFolder, contentTypeOf, createFolder, deleteEntry, entryOf, fileBucketFor, findEntry, recordFile, segmentsOr27101, storageKey } from './repo';

type Params = { bucket_name: string; '*': string };
const params = {
  type: 'object',
  required: ['bucket_name'],
  properties: { bucket_name: { type: 'string', minLength: 1, maxLength: 64 }, '*': { type: 'string' } },
};
const access = { access: 'user' as const, needs: ['file' as const], bucket: 'params' as const };

export function fileRoutes(app: FastifyInstance, db: DB, storage: Storage, opts: { uploadMaxBytes?: number; quotaBytes?: number } = {}): void {
  const maxBytes = opts.uploadMaxBytes ?? UPLOAD_MAX_BYTES;
  const quota = opts.quotaBytes ?? STORAGE_QUOTA_BYTES;

  app.get<{ Params: Params; Querystring: { limit: number; since?: number; max?: number } }>(
    '/folder/:bucket_name/*',
    {
      config: access,
      schema: {
        params,
        querystring: {
          type: 'object',
          properties: {
            limit: { type: 'integer', minimum: 1, maximum: FOLDER_PAGE_MAX, default: FOLDER_PAGE_SIZE },
            since: { type: 'integer', minimum: 0 },
            max: { type: 'integer', minimum: 0 },
          },
        },
      },
    },
    async (req, reply) => {
      const b = await fileBucketFor(db, req.user!, req.params.bucket_name);
      const raw = req.params['*'] ?? '';
      const segs = segmentsOr27101(raw);
      // a path without a trailing slash names a file when there is one
      if (segs.length && !raw.endsWith('/')) {
        const file = await findEntry(db, b.id, segs.join('/'));
        if (file && !file.is_folder) {
          const got = await storage.get(storageKey(b.id, file.path));
          if (!got) throw new ApiError(27102, 404);
          return reply
            .type(file.content_type ?? 'application/octet-stream')
            .header('content-length', String(got.size))
            .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
            .header('x-content-type-options', 'nosniff')
            .header('content-security-policy', 'sandbox')
            .header('cache-control', 'private, no-cache')
            .send(got.body);
        }
      }
      await assertFolder(db, b.id, segs);
      const parent = folderPath(segs);
      const base = db.selectFrom('file_objects').selectAll().where('bucket_id', '=', b.id).where('parent', '=', parent);
      const { items, pager } = await keysetQuery(base, 'id', { limit: req.query.limit, since: req.query.since, max: req.query.max });
      return ok(items.map(entryOf), { pager, folder: parent, storage: { used: Number((await db.selectFrom('buckets').select('storage_used').where('id', '=', b.id).executeTakeFirstOrThrow()).storage_used) } });
    },
  );

  app.post<{ Params: Params }>(
    '/folder/:bucket_name/*',
    { config: access, schema: { params, body: { type: 'object', additionalProperties: false, properties: {} } } },
    async (req) => {
      const b = await fileBucketFor(db, req.user!, req.params.bucket_name);
      const entry = await createFolder(db, b.id, segmentsOr27101(req.params['*'] ?? ''), req.user!.id);
      return ok(entry);
    },
  );

  app.put<{ Params: Params }>('/folder/:bucket_name/*', { config: { ...access, accepts: 'multipart' }, schema: { params } }, async (req) => {
    const b = await fileBucketFor(db, req.user!, req.params.bucket_name);
    const folder = segmentsOr27101(req.params['*'] ?? '');
    await assertFolder(db, b.id, folder);
    if (!req.isMultipart()) throw new ApiError(27107, 400);
    // a batch is checked whole before anything is stored (issue 34 item 5): every part is read to a temporary
    // file and checked (name, size, the count of files, the quota with the whole batch in flight); only when
    // the last part has passed is any of them stored, so a refusal of any part keeps none
    const staged: { segs: string[]; tmp: string; size: number; type: string; replaced: number }[] = [];
    const meters: ReturnType<typeof quotaMeter>[] = [];
    const names = new Set<string>();
    const saved: FileEntry[] = [];
    const tmpDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'upload-'));
    try {
      try {
        for await (const part of req.files({ limits: { fileSize: maxBytes } })) {
          try {
            const name = part.filename;
            if (hasBidiControl(name)) throw new ApiError(27110, 400);
            if (!validName(name)) throw new ApiError(27101, 400);
            const segs = [...folder, name];
            if (names.has(name) || (await findEntry(db, b.id, folderPath(segs)))) throw new ApiError(27103, 409);
            names.add(name);
            const tmp = path.join(tmpDir, randomBytes(8).toString('hex'));
            // the account's quota (./quota.ts): this part's bytes count in flight as they arrive, the batch's
            // earlier parts still counted (a file it replaces frees its own size)
            const replaced = Number((await findEntry(db, b.id, segs.join('/')))?.size ?? 0);
            const metered = quotaMeter(b.owner_id, quota, (await storedBytes(db, b.owner_id)) - replaced);
            meters.push(metered);
            await pipeline(part.file, metered.meter, fs.createWriteStream(tmp));
            if (part.file.truncated) throw new ApiError(27105, 413);
            staged.push({ segs, tmp, size: (await fsp.stat(tmp)).size, type: contentTypeOf(name), replaced });
          } catch (e) {
            part.file.resume(); // the rest of a refused part is read and dropped
            throw e;
          }
        }
      } catch (e: any) {
        if (e?.code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(27105, 413);
        if (e?.code === 'FST_FILES_LIMIT') throw new ApiError(27109, 413);
        throw e;
      }
      if (staged.length === 0) throw new ApiError(27107, 400);
      // the whole batch against the quota once more, just before storing
      const sum = (f: (x: (typeof staged)[number]) => number) => staged.reduce((n, x) => n + f(x), 0);
      await assertWithinQuota(db, b.owner_id, quota, sum((x) => x.size), sum((x) => x.replaced), meters.reduce((n, m) => n + m.counted, 0));
      for (const f of staged) {
        await storage.put(storageKey(b.id, f.segs.join('/')), fs.createReadStream(f.tmp), { contentType: f.type, size: f.size });
        await fsp.rm(f.tmp, { force: true });
        saved.push(await recordFile(db, b.id, f.segs, f.size, f.type, req.user!.id));
      }
    } finally {
      for (const m of meters) m.release();
      await fsp.rm(tmpDir, { recursive: true, force: true });
    }
    return ok(saved);
  });

  app.delete<{ Params: Params }>('/folder/:bucket_name/*', { config: access, schema: { params } }, async (req) => {
    const b = await fileBucketFor(db, req.user!, req.params.bucket_name);
    await deleteEntry(db, storage, b.id, segmentsOr27101(req.params['*'] ?? ''));
    return ok();
  });
}
