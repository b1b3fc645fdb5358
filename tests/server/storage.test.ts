/**
 * One contract for both storages: the local disk (DATA_DIR=memory:// → a temporary directory) and an
 * S3-compatible server (s3rver on loopback, made by the test).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { openStorage, type Storage } from '../../src/server/storage';
import { LocalStorage } from '../../src/server/storage/local';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver');

const text = async (s: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks).toString('utf8');
};

let s3dir = '';
let s3server: any;
let endpoint = '';

beforeAll(async () => {
  s3dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  s3server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3dir });
  const addr: AddressInfo = await s3server.run();
  endpoint = `http://127.0.0.1:${addr.port}`;
});
afterAll(async () => {
  await s3server?.close();
  fs.rmSync(s3dir, { recursive: true, force: true });
});

const implementations: [string, () => Promise<Storage>][] = [
  ['local disk', () => openStorage({ dataDir: 'memory://' })],
  ['S3 (s3rver)', () => openStorage({ dataDir: 'memory://', storage: { s3Endpoint: endpoint, s3Bucket: 'contract-test', s3AccessKey: 'S3RVER', s3SecretKey: 'S3RVER' } })],
];

describe.each(implementations)('storage contract: %s', (_name, open) => {
  let st: Storage;
  beforeAll(async () => {
    st = await open();
  });
  afterAll(async () => {
    await st.close();
  });

  it('puts, reads, lists and deletes', async () => {
    expect(await st.get('1/none.txt')).toBeNull();
    expect(await st.head('1/none.txt')).toBeNull();
    expect(await st.put('1/docs/a.txt', Buffer.from('你好，世界'), { contentType: 'text/plain' })).toEqual({ key: '1/docs/a.txt', size: Buffer.byteLength('你好，世界') });
    await st.put('1/docs/b.txt', Readable.from([Buffer.from('bee')]), { size: 3 });
    await st.put('1/c.bin', Readable.from([Buffer.from('x'), Buffer.from('yz')])); // length unknown
    await st.put('2/other.txt', Buffer.from('other'));
    const got = await st.get('1/docs/a.txt');
    expect(got!.size).toBe(Buffer.byteLength('你好，世界'));
    expect(await text(got!.body)).toBe('你好，世界');
    expect(await text((await st.get('1/c.bin'))!.body)).toBe('xyz');
    expect((await st.list('1/')).map((o) => [o.key, o.size])).toEqual([
      ['1/c.bin', 3],
      ['1/docs/a.txt', 15],
      ['1/docs/b.txt', 3],
    ]);
    await st.put('1/docs/b.txt', Buffer.from('replaced'));
    expect((await st.head('1/docs/b.txt'))!.size).toBe(8);
    await st.delete('1/docs/a.txt');
    await st.delete('1/docs/a.txt'); // a missing key is not an error
    expect(await st.get('1/docs/a.txt')).toBeNull();
    expect((await st.list('1/')).map((o) => o.key)).toEqual(['1/c.bin', '1/docs/b.txt']);
    expect((await st.list('2/')).map((o) => o.key)).toEqual(['2/other.txt']);
  });

  it('refuses keys that leave their place', async () => {
    for (const key of ['../x', '1/../../etc/passwd', '/abs', '1//x', '1/./x', '1\\x', '', '1/dir/']) {
      await expect(st.put(key, Buffer.from('no'))).rejects.toThrow(/invalid storage key/);
    }
  });
});

describe('local disk under DATA_DIR', () => {
  it('keeps files under <DATA_DIR>/files; memory:// uses a temporary directory removed at close', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'datadir-'));
    const st = (await openStorage({ dataDir })) as LocalStorage;
    await st.put('7/a.txt', Buffer.from('a'));
    expect(fs.readFileSync(path.join(dataDir, 'files', '7', 'a.txt'), 'utf8')).toBe('a');
    await st.close();
    expect(fs.existsSync(path.join(dataDir, 'files', '7', 'a.txt'))).toBe(true); // a real DATA_DIR is kept
    fs.rmSync(dataDir, { recursive: true, force: true });

    const mem = (await openStorage({ dataDir: 'memory://' })) as LocalStorage;
    await mem.put('7/a.txt', Buffer.from('a'));
    expect(fs.existsSync(mem.root)).toBe(true);
    await mem.close();
    expect(fs.existsSync(mem.root)).toBe(false);
  });
});

describe('the app on S3 (chosen by S3_ENDPOINT)', () => {
  it('uploads, lists, downloads and deletes through /folder/ with the bytes in the S3 bucket', async () => {
    const { startTestServer, Client } = await import('./helpers');
    const { configFromEnv } = await import('../../src/server/config');
    const config = configFromEnv({ S3_ENDPOINT: endpoint, S3_BUCKET: 'app-files', S3_ACCESS_KEY: 'S3RVER', S3_SECRET_KEY: 'S3RVER' });
    const s = await startTestServer({ config: { storage: config.storage } });
    try {
      expect(s.app.storage.kind).toBe('s3');
      const demo = await new Client(s.app).signIn('demo');
      const boundary = '----s3test';
      const payload = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s3.txt"\r\nContent-Type: text/plain\r\n\r\n在 S3 上\r\n--${boundary}--\r\n`);
      const up = await demo.request({ method: 'PUT', url: '/folder/demo-assets/docs/', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
      expect(up.json().data[0]).toMatchObject({ path: 'docs/s3.txt', size: Buffer.byteLength('在 S3 上') });
      const id = (await s.db.selectFrom('buckets').select('id').where('name', '=', 'demo-assets').executeTakeFirstOrThrow()).id;
      // the seed's files and the upload are objects of the S3 bucket
      const keys = (await s.app.storage.list(`${id}/`)).map((o) => o.key);
      expect(keys).toEqual(expect.arrayContaining([`${id}/docs/s3.txt`, `${id}/index.html`, `${id}/docs/说明.txt`]));
      expect((await demo.get('/folder/demo-assets/docs/s3.txt')).body).toBe('在 S3 上');
      expect((await demo.request({ method: 'DELETE', url: '/folder/demo-assets/docs/s3.txt' })).json().result).toBe(true);
      expect(await s.app.storage.head(`${id}/docs/s3.txt`)).toBeNull();
    } finally {
      await s.close();
    }
  }, 120_000);
});
