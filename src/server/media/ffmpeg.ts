/**
 * ffmpeg and ffprobe from Debian's packages (FFMPEG_PATH / FFPROBE_PATH override /usr/bin/…).
 */
import { spawn } from 'node:child_process';

export const FFMPEG = process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg';
export const FFPROBE = process.env.FFPROBE_PATH ?? '/usr/bin/ffprobe';

export interface Probe {
  duration: number;
  width?: number;
  height?: number;
  hasVideo: boolean;
  hasAudio: boolean;
  raw: any;
}

function run(cmd: string, args: string[], onStdout?: (chunk: string) => void): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
      if (stdout.length > 4_000_000) stdout = stdout.slice(-1_000_000);
      onStdout?.(c);
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr = (stderr + c).slice(-8000);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve({ stdout, stderr });
      else reject(Object.assign(new Error(lastLines(stderr) || `${cmd} exited with ${code}`), { exitCode: code }));
    });
  });
}

const lastLines = (s: string) => s.trim().split('\n').slice(-3).join('\n').slice(-1000);

export async function probe(file: string): Promise<Probe> {
  const { stdout } = await run(FFPROBE, ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file]);
  const raw = JSON.parse(stdout);
  const video = (raw.streams ?? []).find((s: any) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  const audio = (raw.streams ?? []).find((s: any) => s.codec_type === 'audio');
  const duration = Number(raw.format?.duration ?? video?.duration ?? audio?.duration ?? 0) || 0;
  return { duration, width: video?.width, height: video?.height, hasVideo: Boolean(video), hasAudio: Boolean(audio), raw };
}

/** Runs ffmpeg; `expected` seconds of output turn its -progress reports into 0..1. */
export async function ffmpeg(args: string[], expected: number, onProgress?: (fraction: number) => void): Promise<void> {
  let buf = '';
  await run(FFMPEG, ['-hide_banner', '-nostdin', '-y', '-v', 'error', '-progress', 'pipe:1', '-nostats', ...args], (chunk) => {
    buf += chunk;
    const lines = buf.split('\n');
    buf = lines.pop() ?? '';
    for (const l of lines) {
      const m = /^out_time_us=(\d+)/.exec(l);
      if (m && expected > 0 && onProgress) onProgress(Math.min(1, Number(m[1]) / 1e6 / expected));
    }
  });
}
