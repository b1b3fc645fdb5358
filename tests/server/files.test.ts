/**
 * File management of file services: /folder/{bucket}/{path} (list with paging, create folder, upload,
 * download, delete), storage_used, the limits, paths with .. refused, other accounts' services unreachable.
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { UPLOAD_MAX_FILES } from '../../src/shared/files';

let s: TestServer;
let demo: Client;

/** A multipart body of files: [name, content]. */
function multipart(files: [string, Buffer | string][]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----test${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, content] of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    parts.push(Buffer.isBuffer(content) ? content : Buffer.from(content));
    parts.push(Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const upload = (c: Client, url: string, files: [string, Buffer | string][]) => {
  const m = multipart(files);
  return c.request({ method: 'PUT', url, payload: m.payload, headers: m.headers });
};
const used = async (name: string) => Number((await s.db.selectFrom('buckets').select('storage_used').where('name', '=', name).executeTakeFirstOrThrow()).storage_used);

beforeAll(async () => {
  s = await startTestServer({ config: { storage: { uploadMaxBytes: 64 * 1024 } } });
  demo = await new Client(s.app).signIn('demo');
}, 60_000);
afterAll(async () => {
  await s.close();
});

describe('the demo seed', () => {
  it("writes demo's files into the storage and counts them", async () => {
    const res = await demo.get('/folder/demo-assets/');
    expect(res.statusCode).toBe(200);
    const names = res.json().data.map((e: any) => `${e.type}:${e.name}`);
    expect(names).toEqual(expect.arrayContaining(['file:index.html', 'folder:images', 'folder:docs', 'folder:videos']));
    const docs = (await demo.get('/folder/demo-assets/docs/')).json().data;
    expect(docs.map((e: any) => e.path)).toEqual(['docs/说明.txt']);
    const sizes = (await s.db.selectFrom('file_objects').select('size').where('bucket_id', '=', (await s.db.selectFrom('buckets').select('id').where('name', '=', 'demo-assets').executeTakeFirstOrThrow()).id).execute()).reduce((t, r) => t + Number(r.size), 0);
    expect(sizes).toBeGreaterThan(0);
    expect(await used('demo-assets')).toBe(sizes);
  });
});

describe('folders and files', () => {
  it('creates a folder, uploads into it, lists, downloads with the content type, deletes; storage_used follows', async () => {
    const before = await used('demo-assets');
    expect((await demo.post('/folder/demo-assets/相册/', {})).json()).toMatchObject({ result: true, data: { path: '相册/', type: 'folder', name: '相册' } });
    expect((await demo.post('/folder/demo-assets/相册/', {})).json().error_code).toBe(27103);
    expect((await demo.post('/folder/demo-assets/nowhere/sub/', {})).json().error_code).toBe(27102);

    const up = await upload(demo, '/folder/demo-assets/相册/', [['a.png', Buffer.alloc(1000, 1)], ['说明.txt', '你好']]);
    expect(up.statusCode).toBe(200);
    expect(up.json().data.map((e: any) => [e.path, e.size, e.content_type])).toEqual([
      ['相册/a.png', 1000, 'image/png'],
      ['相册/说明.txt', 6, 'text/plain; charset=utf-8'],
    ]);
    expect(await used('demo-assets')).toBe(before + 1006);

    // replacing a file counts the difference
    await upload(demo, '/folder/demo-assets/相册/', [['a.png', Buffer.alloc(400, 2)]]);
    expect(await used('demo-assets')).toBe(before + 406);

    const list = (await demo.get(`/folder/demo-assets/${encodeURIComponent('相册')}/`)).json();
    expect(list.folder).toBe('相册/');
    expect(list.storage.used).toBe(before + 406);
    expect(list.data.map((e: any) => e.name)).toEqual(['a.png', '说明.txt']);

    const dl = await demo.get(`/folder/demo-assets/${encodeURIComponent('相册')}/${encodeURIComponent('说明.txt')}`);
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(dl.headers['content-disposition']).toBe(`attachment; filename*=UTF-8''${encodeURIComponent('说明.txt')}`);
    expect(dl.headers['x-content-type-options']).toBe('nosniff');
    expect(dl.body).toBe('你好');

    // a folder that is not empty stays
    const notEmpty = await demo.request({ method: 'DELETE', url: `/folder/demo-assets/${encodeURIComponent('相册')}/` });
    expect([notEmpty.statusCode, notEmpty.json().error_code]).toEqual([409, 27104]);
    expect((await demo.request({ method: 'DELETE', url: `/folder/demo-assets/${encodeURIComponent('相册')}/a.png` })).json().result).toBe(true);
    expect((await demo.request({ method: 'DELETE', url: `/folder/demo-assets/${encodeURIComponent('相册')}/${encodeURIComponent('说明.txt')}` })).json().result).toBe(true);
    expect(await used('demo-assets')).toBe(before);
    expect((await demo.get(`/folder/demo-assets/${encodeURIComponent('相册')}/a.png`)).json().error_code).toBe(27102);
    expect((await demo.request({ method: 'DELETE', url: `/folder/demo-assets/${encodeURIComponent('相册')}/` })).json().result).toBe(true);
    expect((await demo.request({ method: 'DELETE', url: `/folder/demo-assets/${encodeURIComponent('相册')}/` })).json().error_code).toBe(27102);
    // the bytes are gone from the storage too
    const id = (await s.db.selectFrom('buckets').select('id').where('name', '=', 'demo-assets').executeTakeFirstOrThrow()).id;
    expect((await s.app.storage.list(`${id}/相册/`)).length).toBe(0);
  });

  it('pages a folder with since/max cursors', async () => {
    await demo.post('/folder/demo-assets/paging/', {});
    await upload(demo, '/folder/demo-assets/paging/', Array.from({ length: 5 }, (_, i) => [`f${i}.txt`, `${i}`] as [string, string]));
    const p1 = (await demo.get('/folder/demo-assets/paging/?limit=2')).json();
    expect(p1.data.map((e: any) => e.name)).toEqual(['f0.txt', 'f1.txt']);
    expect(p1.pager.since).toBeNull();
    const p2 = (await demo.get(`/folder/demo-assets/paging/?limit=2&max=${p1.pager.max}`)).json();
    expect(p2.data.map((e: any) => e.name)).toEqual(['f2.txt', 'f3.txt']);
    const p3 = (await demo.get(`/folder/demo-assets/paging/?limit=2&max=${p2.pager.max}`)).json();
    expect(p3.data.map((e: any) => e.name)).toEqual(['f4.txt']);
    expect(p3.pager.max).toBeNull();
    const back = (await demo.get(`/folder/demo-assets/paging/?limit=2&since=${p3.pager.since}`)).json();
    expect(back.data.map((e: any) => e.name)).toEqual(['f2.txt', 'f3.txt']);
  });
});

describe('limits and refusals', () => {
  it('refuses a file over the limit, and keeps nothing of it', async () => {
    const before = await used('demo-assets');
    const res = await upload(demo, '/folder/demo-assets/', [['big.bin', Buffer.alloc(64 * 1024 + 1)]]);
    expect([res.statusCode, res.json().error_code]).toEqual([413, 27105]);
    expect((await demo.get('/folder/demo-assets/big.bin')).json().error_code).toBe(27102);
    expect(await used('demo-assets')).toBe(before);
    const exact = await upload(demo, '/folder/demo-assets/', [['fits.bin', Buffer.alloc(64 * 1024)]]);
    expect(exact.json().data[0].size).toBe(64 * 1024);
  });

  it('refuses too many files at once, an empty upload and a non-multipart upload', async () => {
    const many = await upload(demo, '/folder/demo-assets/', Array.from({ length: UPLOAD_MAX_FILES + 1 }, (_, i) => [`m${i}.txt`, 'x'] as [string, string]));
    expect(many.json().error_code).toBe(27109);
    expect((await upload(demo, '/folder/demo-assets/', [])).json().error_code).toBe(27107);
    expect((await demo.request({ method: 'PUT', url: '/folder/demo-assets/', payload: { a: 1 } })).json().error_code).toBe(27107);
  });

  it('refuses paths with .. or empty segments, and file names with a slash', async () => {
    // (a client resolves /%2e%2e/ in a URL before sending it; an encoded slash keeps the .. in the path)
    for (const url of ['/folder/demo-assets/..%2Fx/', '/folder/demo-assets/a%2F..%2F..%2F/', '/folder/demo-assets/a//b/', '/folder/demo-assets/a%2F.%2Fb/', '/folder/demo-assets/a%5Cb/']) {
      const res = await demo.post(url, {});
      expect([url, res.json().error_code]).toEqual([url, 27101]);
    }
    expect((await demo.get('/folder/demo-assets/docs%2F..%2F..%2F..%2Fetc%2Fpasswd')).json().error_code).toBe(27101);
    expect((await demo.request({ method: 'DELETE', url: '/folder/demo-assets/..%2f..%2fx' })).json().error_code).toBe(27101);
    expect((await upload(demo, '/folder/demo-assets/', [['..', 'x']])).json().error_code).toBe(27101);
  });

  it("does not reach another account's service, nor a service that is not a file service", async () => {
    const other = await new Client(s.app).signIn('demokey');
    const theirs = await other.get('/folder/demo-assets/');
    expect([theirs.statusCode, theirs.json().error_code]).toEqual([404, 21905]);
    expect((await upload(other, '/folder/demo-assets/', [['x.txt', 'x']])).json().error_code).toBe(21905);
    expect((await other.get('/folder/demo-assets/index.html')).json().error_code).toBe(21905);
    expect((await other.request({ method: 'DELETE', url: '/folder/demo-assets/index.html' })).json().error_code).toBe(21905);
    expect((await demo.get('/folder/demo-www/')).json().error_code).toBe(27106);
    expect((await new Client(s.app).get('/folder/demo-assets/')).json().error_code).toBe(21110);
  });

  it('refuses an account whose account_status is disabled or locked', async () => {
    const demoId = (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
    await s.db.updateTable('users').set({ account_status: 'LOCKED' }).where('id', '=', demoId).execute();
    try {
      const res = await demo.get('/folder/demo-assets/');
      expect([res.statusCode, res.json().error_code]).toEqual([403, 27108]);
    } finally {
      await s.db.updateTable('users').set({ account_status: 'NORMAL' }).where('id', '=', demoId).execute();
    }
    expect((await demo.get('/folder/demo-assets/')).statusCode).toBe(200);
  });
});
