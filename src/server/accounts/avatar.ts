/**
 * The profile picture (头像; spec 000 §9 "a separate avatar-type image limit of 30 KB"), each user's own,
 * sub-accounts included:
 *   GET    /api/accounts/avatar/   the picture (its stored type); 404 21135 when none
 *   PUT    /api/accounts/avatar/   multipart, field `file`: jpeg/png/gif/bmp by content (21123), ≤ 30 KB (21134)
 *   DELETE /api/accounts/avatar/   back to no picture
 *   GET    /api/accounts/avatar/info/   whether one is set, and when (the profile page asks this first: no 404 to log)
 * The console checks type and size before sending (the same constants, src/shared/security.ts).
 */
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type { DB } from '../db';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { ok as okAnswer, obj, bool, num } from '../http/answers';
import { AVATAR_MAX_BYTES, AVATAR_SIZE_TEXT, imageTypeOf, PHOTO_TYPE_TEXT } from '../../shared/security';
import type {} from './tables';

const changed = { 200: okAnswer(obj({ avatar: bool })) };
const info = { 200: okAnswer(obj({ avatar: bool, updated_at: num })) };

export function avatarRoutes(app: FastifyInstance, db: DB): void {
  app.get(
    '/api/accounts/avatar/',
    { config: { access: 'user', openapi: { summary: '当前用户的头像图片（未设置时 404）' } } },
    async (req, reply) => {
      const row = await db.selectFrom('user_avatars').select(['content_type', 'bytes', 'updated_at']).where('user_id', '=', req.user!.id).executeTakeFirst();
      if (!row) throw new ApiError(21135, 404);
      return reply
        .header('Content-Type', row.content_type)
        .header('Cache-Control', 'private, no-cache')
        .header('Last-Modified', new Date(row.updated_at).toUTCString())
        .send(Buffer.from(row.bytes));
    },
  );

  app.get(
    '/api/accounts/avatar/info/',
    { config: { access: 'user', openapi: { summary: '是否已设置头像及其更新时间（Unix 秒）' } }, schema: { response: info } },
    async (req) => {
      const row = await db.selectFrom('user_avatars').select('updated_at').where('user_id', '=', req.user!.id).executeTakeFirst();
      return ok({ avatar: Boolean(row), updated_at: row ? Math.floor(new Date(row.updated_at).getTime() / 1000) : null });
    },
  );

  app.delete(
    '/api/accounts/avatar/',
    { config: { access: 'user', openapi: { summary: '删除头像' } }, schema: { response: changed } },
    async (req) => {
      await db.deleteFrom('user_avatars').where('user_id', '=', req.user!.id).execute();
      return ok({ avatar: false });
    },
  );

  void app.register(async (scope) => {
    // one file, a little over the limit so that a larger one is seen as truncated and refused by size
    await scope.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES + 1, files: 1, fields: 2, fieldSize: 100 } });
    scope.put(
      '/api/accounts/avatar/',
      {
        config: { access: 'user', accepts: 'multipart', openapi: { summary: '上传头像（multipart，字段 file：仅 jpeg/png/gif/bmp，按内容检查，不超过 30 KB）' } },
        bodyLimit: AVATAR_MAX_BYTES + 16384,
        schema: { response: changed },
      },
      async (req) => {
        if (!req.isMultipart()) throw new ApiError(20001, 400, [{ path: '/file', message: '请选择头像图片' }]);
        let picture: { mime: string; bytes: Buffer } | null = null;
        for await (const part of req.parts()) {
          if (part.type !== 'file') continue;
          const bytes = await part.toBuffer().catch(() => null);
          if (!bytes || part.file.truncated || bytes.length > AVATAR_MAX_BYTES) throw new ApiError(21134, 400, [{ path: '/file', message: AVATAR_SIZE_TEXT }]);
          const mime = imageTypeOf(bytes);
          if (!mime) throw new ApiError(21123, 400, [{ path: '/file', message: PHOTO_TYPE_TEXT }]);
          picture = { mime, bytes };
        }
        if (!picture) throw new ApiError(20001, 400, [{ path: '/file', message: '请选择头像图片' }]);
        const user_id = req.user!.id;
        await db
          .insertInto('user_avatars')
          .values({ user_id, content_type: picture.mime, bytes: picture.bytes })
          .onConflict((oc) => oc.column('user_id').doUpdateSet({ content_type: picture!.mime, bytes: picture!.bytes, updated_at: new Date() }))
          .execute();
        return ok({ avatar: true });
      },
    );
  });
}
