/**
 * The media worker: takes the oldest waiting task, reads its inputs from the storage, runs ffmpeg,
 * writes the outputs back into the same service (indexed in file_objects, counted in storage_used),
 * records progress on the task and the usage in media_usage; a failed task keeps its error.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db';
import type { Storage } from '../storage';
import { contentTypeOf, storageKey, writeFile } from '../files/repo';
import { RESOLUTION_PRESETS, usageKeyOf, type MediaTaskType, type ResolutionPreset } from '../../shared/media';
import { ffmpeg, probe, type Probe } from './ffmpeg';
import '../files/tables';
import { tickOnce } from '../jobs/once';

/** A failure with a message for the user (the task's error). */
class TaskFailure extends Error {}

const localDay = (d = new Date()) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** Takes one waiting task (skipping those another worker holds) and marks it processing. */
async function claim(db: DB) {
  return db.transaction().execute(async (trx) => {
    const next = await trx.selectFrom('media_tasks').select('id').where('status', '=', 'waiting').orderBy('id').limit(1).forUpdate().skipLocked().executeTakeFirst();
    if (!next) return null;
    return trx.updateTable('media_tasks').set({ status: 'processing', started_at: new Date(), progress: 0 }).where('id', '=', next.id).returningAll().executeTakeFirstOrThrow();
  });
}

/** Processes waiting tasks until none is left (or `max`); returns how many ran. */
export async function runMediaTasks(db: DB, storage: Storage, max = Infinity): Promise<number> {
  let n = 0;
  while (n < max) {
    const task = await claim(db);
    if (!task) break;
    n++;
    await runTask(db, storage, task);
  }
  return n;
}

async function runTask(db: DB, storage: Storage, task: { id: number; account_id: number; bucket_id: number; user_id: number; type: string; params: any }) {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), `media-${task.id}-`));
  let lastSaved = 0;
  const progress = async (fraction: number) => {
    const pct = Math.min(99, Math.floor(fraction * 100));
    if (pct < lastSaved + 5) return;
    lastSaved = pct;
    await db.updateTable('media_tasks').set({ progress: pct }).where('id', '=', task.id).execute();
  };
  try {
    const r = await process(db, storage, task, dir, (f) => void progress(f).catch(() => undefined));
    const usageKey = usageKeyOf(task.type as MediaTaskType, r.height);
    const minutes = Math.round((r.minutes ?? 0) * 1000) / 1000;
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('media_tasks')
        .set({ status: 'success', progress: 100, finished_at: new Date(), result: JSON.stringify(r.result), usage_key: usageKey, minutes })
        .where('id', '=', task.id)
        .execute();
      await trx
        .insertInto('media_usage')
        .values({ account_id: task.account_id, day: localDay(), usage_key: usageKey, minutes, tasks: 1 })
        .onConflict((oc) =>
          oc.columns(['account_id', 'day', 'usage_key']).doUpdateSet({
            minutes: sql`media_usage.minutes + excluded.minutes` as any,
            tasks: sql`media_usage.tasks + 1` as any,
          }),
        )
        .execute();
    });
  } catch (e: any) {
    const message = e instanceof TaskFailure ? e.message : `处理失败：${String(e?.message ?? e).slice(0, 1500)}`;
    await db.updateTable('media_tasks').set({ status: 'failed', error: message, finished_at: new Date() }).where('id', '=', task.id).execute();
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

interface Outcome {
  result: Record<string, unknown>;
  /** the billed minutes */
  minutes?: number;
  /** the output's height (resolution class of the usage key) */
  height?: number;
}

async function fetchInput(db: DB, storage: Storage, bucketId: number, p: string, dir: string, i: number): Promise<string> {
  const row = await db.selectFrom('file_objects').select(['path', 'is_folder']).where('bucket_id', '=', bucketId).where('path', '=', p).executeTakeFirst();
  const got = row && !row.is_folder ? await storage.get(storageKey(bucketId, row.path)) : null;
  if (!got) throw new TaskFailure(`源文件不存在：${p}`);
  const file = path.join(dir, `in${i}${path.extname(p).slice(0, 10)}`);
  await pipeline(got.body, fs.createWriteStream(file));
  return file;
}

async function probeOrFail(file: string, name: string): Promise<Probe> {
  try {
    return await probe(file);
  } catch {
    throw new TaskFailure(`无法识别的音视频文件：${name}`);
  }
}

async function process(db: DB, storage: Storage, task: { bucket_id: number; user_id: number; type: string; params: any }, dir: string, onProgress: (f: number) => void): Promise<Outcome> {
  const p = task.params;
  const type = task.type as MediaTaskType;
  const sources: string[] = p.sources ?? (p.source ? [p.source] : []);
  const inputs: string[] = [];
  for (const [i, s] of sources.entries()) inputs.push(await fetchInput(db, storage, task.bucket_id, s, dir, i));
  const probes: Probe[] = [];
  for (const [i, f] of inputs.entries()) probes.push(await probeOrFail(f, sources[i]));
  const first = probes[0];
  const needVideo = ['transcode', 'hls', 'watermark', 'clip', 'concat', 'thumbnail'].includes(type);
  if (needVideo && probes.some((x) => !x.hasVideo)) throw new TaskFailure(`源文件不包含视频画面：${sources[probes.findIndex((x) => !x.hasVideo)]}`);
  if (type.startsWith('audio_') && probes.some((x) => !x.hasAudio)) throw new TaskFailure(`源文件不包含音频：${sources[probes.findIndex((x) => !x.hasAudio)]}`);

  const save = async (local: string, target: string) => writeFile(db, storage, task.bucket_id, target, await fsp.readFile(local), contentTypeOf(target), task.user_id);
  const outName = (target: string) => path.join(dir, `out${path.extname(target) || '.bin'}`);
  const height = (preset?: string) => RESOLUTION_PRESETS[(preset ?? '720p') as ResolutionPreset] ?? 720;
  const audioArgs = (x: Probe) => (x.hasAudio ? ['-c:a', 'aac', '-b:a', '128k'] : ['-an']);
  const h264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p'];

  const finishVideo = async (local: string, target: string): Promise<Outcome> => {
    const out = await probeOrFail(local, target);
    await save(local, target);
    return { result: { outputs: [target], duration: out.duration, width: out.width, height: out.height }, minutes: out.duration / 60, height: out.height };
  };

  switch (type) {
    case 'probe':
      return { result: { duration: first.duration, width: first.width, height: first.height, probe: { format: first.raw.format, streams: first.raw.streams } } };
    case 'transcode': {
      const out = outName(p.save_as);
      await ffmpeg(['-i', inputs[0], '-vf', `scale=-2:${height(p.preset)}`, ...h264, ...audioArgs(first), '-movflags', '+faststart', out], first.duration, onProgress);
      return finishVideo(out, p.save_as);
    }
    case 'watermark': {
      const textFile = path.join(dir, 'watermark.txt');
      await fsp.writeFile(textFile, String(p.watermark_text));
      const out = outName(p.save_as);
      const draw = `drawtext=textfile=${textFile}:fontcolor=white@0.85:fontsize=h/16:x=w-tw-16:y=h-th-16:box=1:boxcolor=black@0.35:boxborderw=6`;
      await ffmpeg(['-i', inputs[0], '-vf', `scale=-2:${height(p.preset)},${draw}`, ...h264, ...audioArgs(first), '-movflags', '+faststart', out], first.duration, onProgress);
      return finishVideo(out, p.save_as);
    }
    case 'clip': {
      const start = Number(p.start ?? 0);
      if (start >= first.duration) throw new TaskFailure(`开始时间超出源文件时长（${first.duration.toFixed(3)} 秒）`);
      const out = outName(p.save_as);
      const length = Math.min(Number(p.duration), first.duration - start);
      await ffmpeg(['-ss', String(start), '-i', inputs[0], '-t', String(length), ...h264, ...audioArgs(first), '-movflags', '+faststart', out], length, onProgress);
      return finishVideo(out, p.save_as);
    }
    case 'concat': {
      const w = (first.width ?? 1280) - ((first.width ?? 1280) % 2);
      const h = (first.height ?? 720) - ((first.height ?? 720) % 2);
      const audio = probes.every((x) => x.hasAudio);
      const parts = inputs.map((_, i) => `[${i}:v]scale=${w}:${h}:force_original_aspect_ratio=decrease,pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=25[v${i}]`);
      const chain = inputs.map((_, i) => `[v${i}]${audio ? `[${i}:a]` : ''}`).join('');
      const graph = `${parts.join(';')};${chain}concat=n=${inputs.length}:v=1:a=${audio ? 1 : 0}[v]${audio ? '[a]' : ''}`;
      const out = outName(p.save_as);
      const total = probes.reduce((s, x) => s + x.duration, 0);
      await ffmpeg([...inputs.flatMap((f) => ['-i', f]), '-filter_complex', graph, '-map', '[v]', ...(audio ? ['-map', '[a]', '-c:a', 'aac', '-b:a', '128k'] : []), ...h264, '-movflags', '+faststart', out], total, onProgress);
      return finishVideo(out, p.save_as);
    }
    case 'hls': {
      const target: string = p.save_as;
      const hlsDir = path.join(dir, 'hls');
      await fsp.mkdir(hlsDir);
      const base = path.basename(target).replace(/\.m3u8$/i, '');
      const playlist = path.join(hlsDir, `${base}.m3u8`);
      await ffmpeg(
        ['-i', inputs[0], '-vf', `scale=-2:${height(p.preset)}`, ...h264, ...audioArgs(first), '-f', 'hls', '-hls_time', String(p.segment_time ?? 10), '-hls_playlist_type', 'vod', '-hls_segment_filename', path.join(hlsDir, `${base}_%03d.ts`), playlist],
        first.duration,
        onProgress,
      );
      const folder = target.includes('/') ? target.slice(0, target.lastIndexOf('/') + 1) : '';
      const outputs: string[] = [];
      for (const f of (await fsp.readdir(hlsDir)).sort()) {
        const t = f.endsWith('.m3u8') ? target : `${folder}${f}`;
        await save(path.join(hlsDir, f), t);
        outputs.push(t);
      }
      const out = await probeOrFail(playlist, target);
      return { result: { outputs, duration: out.duration, width: out.width, height: out.height }, minutes: out.duration / 60, height: out.height };
    }
    case 'thumbnail': {
      const count = Number(p.count ?? 1);
      const start = Number(p.start ?? 0);
      const interval = Number(p.interval ?? 1);
      const target: string = p.save_as;
      const dot = target.lastIndexOf('.');
      const stem = dot > target.lastIndexOf('/') ? target.slice(0, dot) : target;
      const ext = dot > target.lastIndexOf('/') ? target.slice(dot) : '.jpg';
      const outputs: string[] = [];
      for (let i = 0; i < count; i++) {
        const at = Math.min(start + i * interval, Math.max(0, first.duration - 0.05));
        const local = path.join(dir, `thumb${i}${ext}`);
        await ffmpeg(['-ss', String(at), '-i', inputs[0], '-frames:v', '1', '-q:v', '3', local], 0);
        const t = count === 1 ? target : `${stem}_${i + 1}${ext}`;
        await save(local, t);
        outputs.push(t);
        onProgress((i + 1) / count);
      }
      return { result: { outputs, width: first.width, height: first.height } };
    }
    case 'audio_transcode':
    case 'audio_concat': {
      const codec = p.audio_format === 'aac' ? ['-c:a', 'aac'] : ['-c:a', 'libmp3lame'];
      const out = outName(p.save_as);
      const total = probes.reduce((s, x) => s + x.duration, 0);
      const args =
        type === 'audio_transcode'
          ? ['-i', inputs[0], '-vn', ...codec, '-b:a', p.audio_bitrate ?? '128k', out]
          : [...inputs.flatMap((f) => ['-i', f]), '-filter_complex', `${inputs.map((_, i) => `[${i}:a]`).join('')}concat=n=${inputs.length}:v=0:a=1[a]`, '-map', '[a]', ...codec, '-b:a', p.audio_bitrate ?? '128k', out];
      await ffmpeg(args, total, onProgress);
      const o = await probeOrFail(out, p.save_as);
      await save(out, p.save_as);
      return { result: { outputs: [p.save_as], duration: o.duration }, minutes: o.duration / 60 };
    }
  }
}

/** Runs the worker every `everyMs`; tasks a stopped process left processing start again. */
export function scheduleMediaWorker(db: DB, storage: Storage, log: FastifyBaseLogger, everyMs = 2000): () => void {
  let running = false;
  let stopped = false;
  void db.updateTable('media_tasks').set({ status: 'waiting' }).where('status', '=', 'processing').where('started_at', '<', new Date(Date.now() - 3600_000)).execute().catch(() => undefined);
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = true;
    tickOnce(db, 'media', () => runMediaTasks(db, storage, 5)) // one server at a time (../jobs/once.ts)
      .then((n) => n && log.debug({ media: n }, 'media tasks done'))
      .catch((e) => log.error(e, 'media worker failed'))
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
