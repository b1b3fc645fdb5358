/**
 * The files section: opens the storage chosen by configuration, registers file management
 * (/folder/…, with @fastify/multipart in its own scope) and media processing (/av/…, the logs calls),
 * writes the demo seed's files into the storage, and closes the storage with the app.
 * The media worker is started by main.ts with `app.storage` (tests call runMediaTasks themselves).
 */
import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type { DB } from '../db';
import type { ServerConfig } from '../config';
import { openStorage, type Storage } from '../storage';
import { UPLOAD_MAX_FILES } from '../../shared/files';
import { fileRoutes } from './routes';
import { mediaRoutes } from '../media/routes';
import { writeFile } from './repo';
import { FFMPEG } from '../media/ffmpeg';
import './tables';

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage;
  }
}

export async function filesSection(app: FastifyInstance, db: DB, config: ServerConfig): Promise<void> {
  const storage = await openStorage(config);
  app.decorate('storage', storage);
  app.addHook('onClose', async () => {
    await storage.close();
  });
  const uploadMaxBytes = config.storage?.uploadMaxBytes;
  const quotaBytes = config.storage?.quotaBytes;
  app.register(async (scope) => {
    await scope.register(multipart, { limits: { files: UPLOAD_MAX_FILES, fields: 10, parts: UPLOAD_MAX_FILES + 10 } });
    fileRoutes(scope, db, storage, { uploadMaxBytes, quotaBytes });
    mediaRoutes(scope, db);
  });
  await writeSeedFiles(db, storage).catch((e) => app.log.warn(e, 'demo files not written'));
}

/** Writes the files the demo seed queued (src/server/seed/files.ts) into the storage, once. */
export async function writeSeedFiles(db: DB, storage: Storage): Promise<number> {
  const queued = await db.selectFrom('file_seed_queue').selectAll().orderBy('id').execute();
  for (const q of queued) {
    let content: Buffer | null = q.content ? Buffer.from(q.content) : null;
    if (!content && q.generator === 'testsrc-video') content = await testsrcVideo().catch(() => null);
    if (content) await writeFile(db, storage, q.bucket_id, q.path, content, q.content_type, null);
    await db.deleteFrom('file_seed_queue').where('id', '=', q.id).execute();
  }
  return queued.length;
}

/**
 * A 4-second 640×360 test pattern with a tone, made with ffmpeg (about 100 KB) once per machine and kept
 * in the temporary directory, so the many test servers that seed the demo do not each run ffmpeg.
 */
const SAMPLE_CACHE = path.join(os.tmpdir(), 'console-demo-sample-v1.mp4');
async function testsrcVideo(): Promise<Buffer> {
  const cached = await fsp.readFile(SAMPLE_CACHE).catch(() => null);
  if (cached?.length) return cached;
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'seed-video-'));
  try {
    const out = path.join(dir, 'sample.mp4');
    await promisify(execFile)(FFMPEG, ['-hide_banner', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=4:size=640x360:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=4', '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', '-movflags', '+faststart', out]);
    const video = await fsp.readFile(out);
    // renamed into place: a concurrent start never reads half a file
    await fsp.copyFile(out, `${SAMPLE_CACHE}.${process.pid}`).then(() => fsp.rename(`${SAMPLE_CACHE}.${process.pid}`, SAMPLE_CACHE)).catch(() => undefined);
    return video;
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
