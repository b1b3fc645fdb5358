/**
 * The human check (spec 000 §7 POST /accounts/manmachine/next, "验证码错误 on a wrong captcha"): an
 * image of 4 digits drawn here, offline, as a PNG — each digit from a 5×7 bitmap font, scaled, shifted
 * and slanted at random, over noise dots and lines. The answer is stored hashed with a 5-minute
 * lifetime and is good for one check, right or wrong.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import type { DB } from '../db';
import { ApiError } from '../http/errors';
import { hashCode } from './passwords';
import { CAPTCHA_TTL_SECONDS } from '../../shared/security';

const FONT: Record<string, string[]> = {
  '0': ['01110', '10001', '10011', '10101', '11001', '10001', '01110'],
  '1': ['00100', '01100', '00100', '00100', '00100', '00100', '01110'],
  '2': ['01110', '10001', '00001', '00010', '00100', '01000', '11111'],
  '3': ['11111', '00010', '00100', '00010', '00001', '10001', '01110'],
  '4': ['00010', '00110', '01010', '10010', '11111', '00010', '00010'],
  '5': ['11111', '10000', '11110', '00001', '00001', '10001', '01110'],
  '6': ['00110', '01000', '10000', '11110', '10001', '10001', '01110'],
  '7': ['11111', '00001', '00010', '00100', '01000', '01000', '01000'],
  '8': ['01110', '10001', '10001', '01110', '10001', '10001', '01110'],
  '9': ['01110', '10001', '10001', '01111', '00001', '00010', '01100'],
};
export const CAPTCHA_LENGTH = 4;
const W = 120;
const H = 40;

function png(width: number, height: number, gray: Uint8Array): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td) >>> 0);
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // grayscale
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0;
    for (let x = 0; x < width; x++) raw[y * (width + 1) + 1 + x] = gray[y * width + x];
  }
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** Draws the text; every call differs (offsets, slant, noise). */
export function drawCaptcha(text: string): Buffer {
  const img = new Uint8Array(W * H).fill(235);
  for (let i = 0; i < 220; i++) img[randomInt(W * H)] = randomInt(90, 200);
  const line = (x0: number, y0: number, x1: number, y1: number, shade: number) => {
    const steps = Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0));
    for (let s = 0; s <= steps; s++) {
      const x = Math.round(x0 + ((x1 - x0) * s) / steps);
      const y = Math.round(y0 + ((y1 - y0) * s) / steps);
      if (x >= 0 && x < W && y >= 0 && y < H) img[y * W + x] = shade;
    }
  };
  for (let i = 0; i < 3; i++) line(0, randomInt(H), W - 1, randomInt(H), randomInt(80, 160));
  [...text].forEach((ch, i) => {
    const glyph = FONT[ch];
    const scale = randomInt(3, 5); // 3 or 4 pixels a dot
    const ox = 8 + i * 27 + randomInt(-3, 4);
    const oy = Math.max(1, Math.floor((H - 7 * scale) / 2) + randomInt(-4, 5));
    const slant = (randomInt(-30, 31) / 100) * scale;
    const shade = randomInt(10, 90);
    glyph.forEach((row, gy) => {
      for (let gx = 0; gx < 5; gx++) {
        if (row[gx] !== '1') continue;
        for (let dy = 0; dy < scale; dy++) {
          for (let dx = 0; dx < scale; dx++) {
            const y = oy + gy * scale + dy;
            const x = Math.round(ox + gx * scale + dx + slant * (7 - gy));
            if (x >= 0 && x < W && y >= 0 && y < H && randomInt(10) > 0) img[y * W + x] = shade;
          }
        }
      }
    });
  });
  return png(W, H, img);
}

/** A new challenge: its id and the image as a data URL. */
export async function newCaptcha(db: DB, keepAnswer = false): Promise<{ captcha_id: string; image: string }> {
  const text = Array.from({ length: CAPTCHA_LENGTH }, () => String(randomInt(10))).join('');
  const id = randomUUID();
  await db
    .insertInto('captchas')
    .values({ id, answer_hash: hashCode(text.toLowerCase()), expires_at: new Date(Date.now() + CAPTCHA_TTL_SECONDS * 1000), used_at: null, dev_answer: keepAnswer ? text : null })
    .execute();
  // old challenges are of no use to anyone
  await db.deleteFrom('captchas').where('expires_at', '<', new Date(Date.now() - 3600_000)).execute();
  return { captcha_id: id, image: `data:image/png;base64,${drawCaptcha(text).toString('base64')}` };
}

/** Checks and spends a challenge: a wrong, unknown or used answer is 21102 (验证码错误), an old one 21130. */
export async function spendCaptcha(db: DB, id: unknown, answer: unknown): Promise<void> {
  if (typeof id !== 'string' || typeof answer !== 'string' || !id || !answer) throw new ApiError(21102, 400, [{ path: '/captcha', message: '验证码错误' }]);
  const row = await db.updateTable('captchas').set({ used_at: new Date() }).where('id', '=', id).where('used_at', 'is', null).returningAll().executeTakeFirst();
  if (!row) throw new ApiError(21102, 400, [{ path: '/captcha', message: '验证码错误' }]);
  if (new Date(row.expires_at).getTime() < Date.now()) throw new ApiError(21130, 400, [{ path: '/captcha', message: '图形验证码已过期，请刷新后重试' }]);
  if (row.answer_hash !== hashCode(answer.trim().toLowerCase())) throw new ApiError(21102, 400, [{ path: '/captcha', message: '验证码错误' }]);
}
