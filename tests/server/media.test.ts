/**
 * Media processing: a 2-second clip made with ffmpeg (testsrc) is uploaded, transcoded by the worker
 * and checked with ffprobe; the other task types, a failed task, the usage and the logs calls.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, Client, type TestServer } from './helpers';
import { runMediaTasks } from '../../src/server/media/worker';

function multipart(files: [string, Buffer | string][]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----media${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, content] of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`), Buffer.from(content), Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

let s: TestServer;
let demo: Client;
let tmp = '';

const ffprobe = (file: string) =>
  JSON.parse(execFileSync('/usr/bin/ffprobe', ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file], { encoding: 'utf8' }));

async function download(p: string): Promise<string> {
  const res = await demo.get(`/folder/demo-assets/${p.split('/').map(encodeURIComponent).join('/')}`);
  expect(res.statusCode).toBe(200);
  const file = path.join(tmp, p.replace(/\//g, '_'));
  fs.writeFileSync(file, res.rawPayload);
  return file;
}

async function submit(body: object) {
  return demo.post('/av/pretreatment', { bucket_name: 'demo-assets', ...body });
}
async function task(id: number) {
  return (await demo.get(`/av/task?task_id=${id}`)).json().data;
}

beforeAll(async () => {
  s = await startTestServer();
  demo = await new Client(s.app).signIn('demo');
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'media-test-'));
  const clip = path.join(tmp, 'clip.mp4');
  execFileSync('/usr/bin/ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=2:size=320x240:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', clip]);
  const m = multipart([['clip.mp4', fs.readFileSync(clip)], ['not-a-video.mp4', 'hello']]);
  await demo.post('/folder/demo-assets/media-test/', {});
  const up = await demo.request({ method: 'PUT', url: '/folder/demo-assets/media-test/', payload: m.payload, headers: m.headers });
  expect(up.statusCode).toBe(200);
}, 120_000);
afterAll(async () => {
  await s.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('transcode', () => {
  it('transcodes the clip to 480p: the output has the source duration and the preset height; usage is recorded', async () => {
    const res = await submit({ type: 'transcode', source: 'media-test/clip.mp4', save_as: 'media-test/out/clip-480p.mp4', preset: '480p' });
    expect(res.statusCode).toBe(200);
    const id = res.json().data.task_id;
    expect(await task(id)).toMatchObject({ status: 'waiting', progress: 0, type: 'transcode' });
    expect(await runMediaTasks(s.db, s.app.storage)).toBe(1);
    const done = await task(id);
    expect(done).toMatchObject({ status: 'success', progress: 100, error: null, usage_key: 'video_transcode_gte480p', result: { outputs: ['media-test/out/clip-480p.mp4'], height: 480 } });
    const info = ffprobe(await download('media-test/out/clip-480p.mp4'));
    const video = info.streams.find((x: any) => x.codec_type === 'video');
    expect([video.width, video.height]).toEqual([640, 480]);
    expect(Number(info.format.duration)).toBeGreaterThan(1.9);
    expect(Number(info.format.duration)).toBeLessThan(2.2);
    expect(done.minutes).toBeCloseTo(Number(info.format.duration) / 60, 2);
    const usage = await s.db.selectFrom('media_usage').selectAll().where('usage_key', '=', 'video_transcode_gte480p').execute();
    expect(usage).toHaveLength(1);
    expect(usage[0].tasks).toBe(1);
    expect(Number(usage[0].minutes)).toBeCloseTo(done.minutes, 3);
    // the output is a file of the service, listed and counted
    const listed = (await demo.get('/folder/demo-assets/media-test/out/')).json().data;
    expect(listed.map((e: any) => e.name)).toEqual(['clip-480p.mp4']);
  }, 120_000);
});

describe('the other task types', () => {
  it('clips, cuts HLS, draws a watermark, concatenates, takes thumbnails, transcodes and concatenates audio, probes', async () => {
    const ids: Record<string, number> = {};
    const bodies: Record<string, object> = {
      clip: { type: 'clip', source: 'media-test/clip.mp4', save_as: 'media-test/out/cut.mp4', start: 0.5, duration: 1 },
      hls: { type: 'hls', source: 'media-test/clip.mp4', save_as: 'media-test/hls/clip.m3u8', preset: '360p', segment_time: 2 },
      watermark: { type: 'watermark', source: 'media-test/clip.mp4', save_as: 'media-test/out/wm.mp4', preset: '360p', watermark_text: 'demo 演示' },
      concat: { type: 'concat', sources: ['media-test/clip.mp4', 'media-test/clip.mp4'], save_as: 'media-test/out/twice.mp4' },
      thumbnail: { type: 'thumbnail', source: 'media-test/clip.mp4', save_as: 'media-test/thumbs/t.jpg', start: 0, count: 2, interval: 1 },
      audio_transcode: { type: 'audio_transcode', source: 'media-test/clip.mp4', save_as: 'media-test/audio/a.mp3', audio_format: 'mp3', audio_bitrate: '64k' },
      probe: { type: 'probe', source: 'media-test/clip.mp4' },
    };
    for (const [k, b] of Object.entries(bodies)) {
      const res = await submit(b);
      expect([k, res.statusCode]).toEqual([k, 200]);
      ids[k] = res.json().data.task_id;
    }
    await runMediaTasks(s.db, s.app.storage);
    const aconcat = await submit({ type: 'audio_concat', sources: ['media-test/audio/a.mp3', 'media-test/audio/a.mp3'], save_as: 'media-test/audio/aa.mp3' });
    ids.audio_concat = aconcat.json().data.task_id;
    await runMediaTasks(s.db, s.app.storage);
    const t: Record<string, any> = {};
    for (const [k, id] of Object.entries(ids)) t[k] = await task(id);
    for (const [k, v] of Object.entries(t)) expect([k, v.status, v.error]).toEqual([k, 'success', null]);

    const duration = (f: string) => Number(ffprobe(f).format.duration);
    expect(duration(await download('media-test/out/cut.mp4'))).toBeCloseTo(1, 0);
    expect(t.clip.usage_key).toBe('video_clip_lt480p');
    expect(t.hls.result.outputs[0]).toBe('media-test/hls/clip.m3u8');
    expect(t.hls.result.outputs.filter((o: string) => o.endsWith('.ts')).length).toBeGreaterThanOrEqual(1);
    expect(t.hls.usage_key).toBe('video_hls_lt480p');
    const wm = ffprobe(await download('media-test/out/wm.mp4')).streams.find((x: any) => x.codec_type === 'video');
    expect(wm.height).toBe(360);
    expect(duration(await download('media-test/out/twice.mp4'))).toBeGreaterThan(3.8);
    expect(t.concat.usage_key).toBe('video_vconcat');
    expect(t.thumbnail.result.outputs).toEqual(['media-test/thumbs/t_1.jpg', 'media-test/thumbs/t_2.jpg']);
    expect(ffprobe(await download('media-test/thumbs/t_2.jpg')).streams[0].codec_name).toBe('mjpeg');
    expect(ffprobe(await download('media-test/audio/a.mp3')).streams[0].codec_name).toBe('mp3');
    expect(t.audio_transcode.usage_key).toBe('audio_transcode_async');
    expect(duration(await download('media-test/audio/aa.mp3'))).toBeGreaterThan(3.8);
    expect(t.audio_concat.usage_key).toBe('audio_aconcat');
    expect(t.probe.result).toMatchObject({ width: 320, height: 240 });
    expect(t.probe.usage_key).toBe('probe');
  }, 240_000);

  it('a task whose source is not a video fails and keeps its error', async () => {
    const id = (await submit({ type: 'transcode', source: 'media-test/not-a-video.mp4', save_as: 'media-test/out/x.mp4', preset: '480p' })).json().data.task_id;
    await runMediaTasks(s.db, s.app.storage);
    const failed = await task(id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('无法识别的音视频文件：media-test/not-a-video.mp4');
    expect(failed.usage_key).toBeNull();
  }, 60_000);
});

describe('submission rules', () => {
  it('refuses a missing source, an output that is the source, paths with .., and bad values with the declaration messages', async () => {
    const missing = await submit({ type: 'transcode', source: 'media-test/none.mp4', save_as: 'x.mp4', preset: '480p' });
    expect(missing.json()).toMatchObject({ error_code: 27201, errors: [{ path: '/source', message: '源文件不存在：media-test/none.mp4' }] });
    expect((await submit({ type: 'clip', source: 'media-test/clip.mp4', save_as: 'media-test/clip.mp4', duration: 1 })).json().error_code).toBe(27203);
    const dots = (await submit({ type: 'transcode', source: '../clip.mp4', save_as: 'x.mp4', preset: '480p' })).json();
    expect(dots.error_code).toBe(20001);
    expect(dots.errors[0].path).toBe('/source');
    expect((await submit({ type: 'transcode', source: 'media-test/clip.mp4', save_as: 'x.mp4', preset: '8k' })).json().errors).toEqual([{ path: '/preset', message: '请选择分辨率' }]);
  });

  it("keeps other accounts' services and tasks out of reach", async () => {
    const other = await new Client(s.app).signIn('demokey');
    expect((await other.post('/av/pretreatment', { bucket_name: 'demo-assets', type: 'probe', source: 'media-test/clip.mp4' })).json().error_code).toBe(21905);
    expect((await other.get('/av/tasklist?bucket_name=demo-assets')).json().error_code).toBe(21905);
    const mine = (await demo.get('/av/tasklist?bucket_name=demo-assets&limit=1')).json();
    expect(mine.data).toHaveLength(1);
    expect(mine.pager.max).not.toBeNull();
    expect((await other.get(`/av/task?task_id=${mine.data[0].task_id}`)).json().error_code).toBe(27202);
    expect((await other.get('/api/logs/av/query/')).json().data).toEqual([]);
  });
});

describe('the logs calls', () => {
  it('answer from the task records and the usage', async () => {
    const av = (await demo.get('/api/logs/av/query/?bucket_name=demo-assets&limit=100')).json();
    expect(av.result).toBe(true);
    expect(av.data.length).toBeGreaterThanOrEqual(10);
    expect(av.data.every((x: any) => ['success', 'failed'].includes(x.status))).toBe(true);
    // the task list carries a finished task's outcome as GET /av/task does (its answer schema once said boolean: a 500)
    const list = await demo.get('/av/tasklist?bucket_name=demo-assets&limit=100');
    expect(list.statusCode).toBe(200);
    expect(list.json().data.some((t: any) => t.status === 'success' && typeof t.result?.duration === 'number')).toBe(true);
    const stream = (await demo.get('/api/logs/stream/query')).json();
    expect(stream.summary.video_transcode_gte480p).toMatchObject({ tasks: 1 });
    expect(stream.summary.video_vconcat.minutes).toBeGreaterThan(0.06);
    expect(stream.data.every((r: any) => /^\d{4}-\d{2}-\d{2}$/.test(r.day))).toBe(true);
    expect((await demo.get('/api/logs/stream/query?start=2000-01-01&end=2000-01-02')).json().data).toEqual([]);
  });
});
