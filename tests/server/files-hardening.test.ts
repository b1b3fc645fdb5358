/**
 * File names and the storage quota (issue 21 items 19, 20):
 * - a name with a bidirectional control character (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F,
 *   U+061C) is refused with 27110 and its Chinese message, as a new folder and as an uploaded file;
 * - an upload that would pass the account's quota is refused with 413 and 27111 and nothing is stored,
 *   counting the bytes of another upload still arriving.
 */
import { PassThrough } from 'node:stream';
import { startTestServer, Client, type TestServer } from './helpers';
import { ERROR_TEXTS } from '../../src/shared/errors';
import { BIDI_CONTROL_MESSAGE } from '../../schemas/vocabulary';
import { bytesInFlight, storedBytes } from '../../src/server/files/quota';

const QUOTA = 4 * 1024 * 1024;
let s: TestServer;
let demo: Client;
let account: number;

function multipartHead(boundary: string, name: string) {
  return Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
}
function multipart(files: [string, Buffer][]) {
  const boundary = `----t${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, content] of files) parts.push(multipartHead(boundary, name), content, Buffer.from('\r\n'));
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const upload = (url: string, files: [string, Buffer][]) => {
  const m = multipart(files);
  return demo.request({ method: 'PUT', url, payload: m.payload, headers: m.headers });
};
const rows = async () => Number((await s.db.selectFrom('file_objects').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

beforeAll(async () => {
  s = await startTestServer({ config: { storage: { quotaBytes: QUOTA } } });
  demo = await new Client(s.app).signIn('demo');
  account = (await s.db.selectFrom('buckets').select('owner_id').where('name', '=', 'demo-assets').executeTakeFirstOrThrow()).owner_id;
  // the demo seeds gigabytes of storage on its other file services (for its bills): set aside here, so
  // the small quota of this test leaves room for demo-assets' real files
  await s.db.updateTable('buckets').set({ storage_used: 0 }).where('owner_id', '=', account).where('name', '<>', 'demo-assets').execute();
}, 60_000);
afterAll(async () => {
  await s.close();
});

describe('bidirectional control characters in names', () => {
  const controls = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];

  it('the catalogue says why in Chinese', () => {
    expect(ERROR_TEXTS[27110]).toBe(BIDI_CONTROL_MESSAGE);
    expect(BIDI_CONTROL_MESSAGE).toContain('双向文本控制字符');
  });

  it.each(controls.map((c) => [`U+${c.charCodeAt(0).toString(16).toUpperCase()}`, c]))('a new folder with %s is refused with 27110', async (_n, c) => {
    const before = await rows();
    const res = await demo.post(`/folder/demo-assets/${encodeURIComponent(`invoice${c}fdp.exe`)}/`, {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ result: false, error_code: 27110, message: BIDI_CONTROL_MESSAGE });
    expect(await rows()).toBe(before);
  });

  it('a file uploaded under such a name is refused, also inside a batch, and nothing is stored', async () => {
    const before = await rows();
    const usedBefore = await storedBytes(s.db, account);
    for (const c of ['\u202e', '\u2067', '\u200f']) {
      const res = await upload('/folder/demo-assets/', [['ok-first.txt', Buffer.from('a')], [`photo${c}gpj.exe`, Buffer.from('MZ')]]);
      expect(res.statusCode).toBe(400);
      expect(res.json().error_code).toBe(27110);
    }
    // a folder path holding one
    const res = await upload(`/folder/demo-assets/${encodeURIComponent('d\u202ex')}/`, [['a.txt', Buffer.from('a')]]);
    expect(res.json().error_code).toBe(27110);
    // ok-first.txt of the refused batches was stored before the refused part: the batch stops there
    const after = await rows();
    expect(after - before).toBeLessThanOrEqual(1);
    expect(await s.db.selectFrom('file_objects').select('id').where('name', 'like', '%\u202e%').executeTakeFirst()).toBeUndefined();
    expect(await storedBytes(s.db, account)).toBeLessThanOrEqual(usedBefore + 1);
  });

  it('right-to-left text without control characters is a name like any other', async () => {
    const res = await upload('/folder/demo-assets/', [['ملف عربي.txt', Buffer.from('x')]]);
    expect(res.statusCode).toBe(200);
    expect((await demo.post(`/folder/demo-assets/${encodeURIComponent('مجلد')}/`, {})).statusCode).toBe(200);
  });
});

describe('the storage quota of the account', () => {
  it('an upload that would pass it is refused with 27111 and nothing is stored', async () => {
    const used = await storedBytes(s.db, account);
    const free = QUOTA - used;
    expect(free).toBeGreaterThan(1024 * 1024);
    const before = await rows();
    const res = await upload('/folder/demo-assets/', [['too-big.bin', Buffer.alloc(free + 1, 7)]]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error_code: 27111, message: ERROR_TEXTS[27111], data: { quota_bytes: QUOTA, used_bytes: used } });
    expect(await rows()).toBe(before);
    expect(await storedBytes(s.db, account)).toBe(used);
    expect(bytesInFlight(account)).toBe(0);
    // two files that pass it together: the second is refused
    const pair = await upload('/folder/demo-assets/', [['half-1.bin', Buffer.alloc(Math.ceil(free / 2) + 10, 1)], ['half-2.bin', Buffer.alloc(Math.ceil(free / 2) + 10, 2)]]);
    expect(pair.json().error_code).toBe(27111);
    expect(await storedBytes(s.db, account)).toBeLessThanOrEqual(QUOTA);
    await demo.request({ method: 'DELETE', url: '/folder/demo-assets/half-1.bin' });
    expect(await storedBytes(s.db, account)).toBe(used);
  });

  it('exactly up to it passes; replacing a file counts only the difference', async () => {
    const used = await storedBytes(s.db, account);
    const free = QUOTA - used;
    expect((await upload('/folder/demo-assets/', [['fill.bin', Buffer.alloc(free, 3)]])).statusCode).toBe(200);
    expect(await storedBytes(s.db, account)).toBe(QUOTA);
    // the same name again, the same size: no more storage
    expect((await upload('/folder/demo-assets/', [['fill.bin', Buffer.alloc(free, 4)]])).statusCode).toBe(200);
    expect((await upload('/folder/demo-assets/', [['one-more.bin', Buffer.alloc(1, 4)]])).json().error_code).toBe(27111);
    await demo.request({ method: 'DELETE', url: '/folder/demo-assets/fill.bin' });
    expect(await storedBytes(s.db, account)).toBe(used);
  });

  it('the parts of an upload still arriving count: a second upload that fits only without them is refused', async () => {
    const used = await storedBytes(s.db, account);
    const free = QUOTA - used;
    const size = Math.ceil(free * 0.6);
    // upload A: its head and most of its bytes arrive, the rest is held back
    const boundary = '----slowupload';
    const body = new PassThrough();
    const pending = demo.request({ method: 'PUT', url: '/folder/demo-assets/', payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
    body.write(multipartHead(boundary, 'slow.bin'));
    const sent = size - 1024;
    body.write(Buffer.alloc(sent, 5));
    // wait (on a condition, not a clock) until the server has read those bytes
    while (bytesInFlight(account) < sent - 64 * 1024) await new Promise((r) => setTimeout(r, 20));
    expect(await storedBytes(s.db, account)).toBe(used); // nothing of A is stored yet
    // upload B fits in what is free, but not beside A
    const b = await upload('/folder/demo-assets/', [['quick.bin', Buffer.alloc(size, 6)]]);
    expect(b.statusCode).toBe(413);
    expect(b.json().error_code).toBe(27111);
    // A completes and is stored
    body.end(Buffer.concat([Buffer.alloc(1024, 5), Buffer.from(`\r\n--${boundary}--\r\n`)]));
    const a = await pending;
    expect(a.statusCode).toBe(200);
    expect(a.json().data[0]).toMatchObject({ name: 'slow.bin', size });
    expect(await storedBytes(s.db, account)).toBe(used + size);
    expect(bytesInFlight(account)).toBe(0);
    expect(await s.db.selectFrom('file_objects').select('id').where('name', '=', 'quick.bin').executeTakeFirst()).toBeUndefined();
  });
});
