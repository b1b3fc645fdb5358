/**
 * Picture upload (spec 001 §7 POST /accounts/invoice/pic/, form data "image", reads url; §5 "Image
 * upload"): invoice documents and the payees' ID photos. Kept in the database (table billing_pictures),
 * served only to the account that uploaded them. The type is decided by the content (magic bytes),
 * never by the file name or the declared type; at most 5242880 bytes. The refusals share the codes
 * of the real-name photos (21123 type, 21124 size): the same texts of spec 001 §5 / spec 000.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type { Kysely } from 'kysely';
import type { DB } from '../../db';
import type { Database } from '../../db/schema';
import { ApiError } from '../../http/errors';
import { ok } from '../../http/envelope';
import { PICTURE_MAX_BYTES } from '../../../shared/billing-money';
import type {} from '../money-tables';

/** The image type of the content, or null: jpeg, png, gif, bmp. */
export function sniffImage(b: Buffer): string | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.length >= 6 && (b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a')) return 'image/gif';
  if (b.length >= 26 && b[0] === 0x42 && b[1] === 0x4d && b.readUInt32LE(2) <= b.length + 1024 && b.readUInt32LE(14) >= 12) return 'image/bmp';
  return null;
}

export const pictureUrl = (id: string) => `/accounts/invoice/pic/${id}`;

/** Whether every URL is a picture this account uploaded (22411 otherwise, on the first missing one's path). */
export async function assertOwnPictures(db: Kysely<Database>, accountId: number, urls: Record<string, string>): Promise<void> {
  for (const [path, url] of Object.entries(urls)) {
    const id = url.split('/').pop() ?? '';
    const row = await db.selectFrom('billing_pictures').select('id').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    if (!row) throw new ApiError(22411, 400, [{ path, message: '照片不存在，请重新上传' }]);
  }
}

const bill = { access: 'parent' as const, needs: ['bill' as const] };

/** Registers multipart in its own scope (nobody else's routes see it) with the picture routes. */
export function pictureRoutes(app: FastifyInstance, db: DB): void {
  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: PICTURE_MAX_BYTES + 1, files: 1, fields: 5, fieldSize: 1000 } });
    scope.post('/accounts/invoice/pic/', { config: { ...bill, accepts: 'multipart', openapi: { summary: '上传图片（multipart，字段 image；按内容检查，仅 jpeg/png/gif/bmp，不超过 5 MB），返回 url' } }, bodyLimit: PICTURE_MAX_BYTES + 65536 }, async (req) => {
      if (!req.isMultipart()) throw new ApiError(22403, 400);
      const file = await req.file();
      if (!file) throw new ApiError(22403, 400);
      let data: Buffer;
      try {
        data = await file.toBuffer();
      } catch (e) {
        if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new ApiError(21124, 413);
        throw e;
      }
      if (data.length === 0) throw new ApiError(22403, 400);
      if (data.length > PICTURE_MAX_BYTES) throw new ApiError(21124, 413);
      const mime = sniffImage(data);
      if (!mime) throw new ApiError(21123, 415);
      const id = randomBytes(16).toString('hex');
      await db.insertInto('billing_pictures').values({ id, account_id: req.user!.account_id, mime, size: data.length, data }).execute();
      return ok({ url: pictureUrl(id), size: data.length, type: mime });
    });
  });

  app.get<{ Params: { id: string } }>(
    '/accounts/invoice/pic/:id',
    { config: bill, schema: { params: { type: 'object', properties: { id: { type: 'string', pattern: '^[0-9a-f]{32}$', errorMessage: '照片不存在，请重新上传' } } } } },
    async (req, reply) => {
      const row = await db.selectFrom('billing_pictures').select(['mime', 'data']).where('id', '=', req.params.id).where('account_id', '=', req.user!.account_id).executeTakeFirst();
      if (!row) throw new ApiError(22411, 404);
      return reply.type(row.mime).header('cache-control', 'private, max-age=86400').header('x-content-type-options', 'nosniff').send(Buffer.from(row.data));
    },
  );
}
