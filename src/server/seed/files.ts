/**
 * The demo's files (docs/files-and-media.md): a few files in demo's file service demo-assets. The seed
 * only has the database, so it queues them in file_seed_queue; the files section writes them into the
 * storage (local disk or S3) when the server starts, and makes the sample video with ffmpeg.
 */
import type { DB } from '../db';
import '../files/tables';

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40" rx="6" fill="#2d72d2"/><text x="60" y="26" font-size="16" text-anchor="middle" fill="#fff">demo</text></svg>\n`;

export async function seedDemoFiles(db: DB, bucketName = 'demo-assets'): Promise<void> {
  const b = await db.selectFrom('buckets').select('id').where('name', '=', bucketName).executeTakeFirst();
  if (!b) return;
  // storage_used of this service counts its real files from here on (the files section adds them)
  await db.updateTable('buckets').set({ storage_used: 0 }).where('id', '=', b.id).execute();
  const text = (s: string) => Buffer.from(s, 'utf8');
  await db
    .insertInto('file_seed_queue')
    .values([
      { bucket_id: b.id, path: 'index.html', content: text('<!doctype html><meta charset="utf-8"><title>演示站点</title><h1>欢迎使用云存储</h1>\n'), generator: null, content_type: 'text/html; charset=utf-8' },
      { bucket_id: b.id, path: 'images/logo.svg', content: text(SVG), generator: null, content_type: 'image/svg+xml' },
      { bucket_id: b.id, path: 'docs/说明.txt', content: text('这是演示服务 demo-assets 中的文件，可在文件管理中下载、删除或上传新文件。\n'), generator: null, content_type: 'text/plain; charset=utf-8' },
      { bucket_id: b.id, path: 'videos/sample.mp4', content: null, generator: 'testsrc-video', content_type: 'video/mp4' },
    ])
    .execute();
}
