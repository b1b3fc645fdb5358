/**
 * File services and mirror migration on the edge (docs/edge.md "File services, mirror migration and
 * images"): a file uploaded through the console's API answers on the file service's domain through
 * nginx, from the project's storage behind the edge API; a CDN service's migration stores what the edge
 * fetched from the origin into the chosen file service, where the file list shows it.
 */
import { startEdgeStack, type EdgeStack } from './harness';
import { EDGE_FILES_PREFIX } from '../../src/shared/edge-files';

let edge: EdgeStack;

beforeAll(async () => {
  edge = await startEdgeStack();
  await edge.waitLive();
});
afterAll(async () => {
  await edge?.close();
});

function multipart(files: { name: string; type: string; bytes: Buffer }[]) {
  const boundary = '----edgefiles' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`), f.bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function upload(bucket: string, folder: string, files: { name: string; type: string; bytes: Buffer }[]) {
  const res = await edge.client.request({ method: 'PUT', url: `/folder/${bucket}/${folder}`, ...multipart(files) });
  if (res.statusCode !== 200) throw new Error(`上传失败：${res.body}`);
  return JSON.parse(res.body);
}

/** The file service's entries in a folder, as the console lists them. */
async function list(bucket: string, folder: string): Promise<{ name: string; size: number; content_type: string }[]> {
  const res = await edge.client.get(`/folder/${bucket}/${folder}`);
  if (res.statusCode !== 200) return [];
  return JSON.parse(res.body).data;
}

async function until<T>(what: () => Promise<T | undefined | null | false>, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (v) return v;
    if (Date.now() > end) throw new Error('等待超时');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a file service answers from the project storage', () => {
  test('an uploaded file through the edge: MISS then HIT, its type, length, Last-Modified and ETag; a missing one 404', async () => {
    const bytes = Buffer.from('边缘节点上的文件服务 ' + Date.now() + '\n');
    await upload('demo-assets', '', [{ name: 'edge-hello.txt', type: 'text/plain', bytes }]);
    const first = await edge.request('assets.demo-example.com', '/edge-hello.txt');
    expect(first.status).toBe(200);
    expect(first.body.equals(bytes)).toBe(true);
    expect(first.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(first.headers['content-length']).toBe(String(bytes.length));
    expect(first.headers['last-modified']).toMatch(/GMT$/);
    expect(first.headers.etag).toMatch(/^"[0-9a-z-]+"$/);
    expect(first.headers['x-cache']).toBe('MISS');
    // the edge's cache time is for the edge only
    expect(first.headers['x-accel-expires']).toBeUndefined();
    const second = await edge.request('assets.demo-example.com', '/edge-hello.txt');
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.body.equals(bytes)).toBe(true);

    const head = await edge.request('assets.demo-example.com', '/edge-hello.txt', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(bytes.length));

    const missing = await edge.request('assets.demo-example.com', '/no-such-file.txt');
    expect(missing.status).toBe(404);
    expect(missing.headers['x-cache']).toBe('MISS');
  });

  test('a file in a folder, and the edge API refuses a request without the node key', async () => {
    expect((await edge.client.post('/folder/demo-assets/edge-dir/', {})).statusCode).toBe(200);
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    await upload('demo-assets', 'edge-dir/', [{ name: 'x.png', type: 'image/png', bytes: png }]);
    const res = await edge.request('assets.demo-example.com', '/edge-dir/x.png');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.body.equals(png)).toBe(true);

    const direct = await fetch(`${edge.url}${EDGE_FILES_PREFIX}/demo-assets/edge-dir/x.png`);
    expect(direct.status).toBe(401);
    const wrong = await fetch(`${edge.url}${EDGE_FILES_PREFIX}/demo-assets/edge-dir/x.png`, { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${edge.url}${EDGE_FILES_PREFIX}/demo-assets/edge-dir/x.png`, { headers: { authorization: `Bearer ${edge.key}` } });
    expect(right.status).toBe(200);
    const etag = right.headers.get('etag')!;
    const again = await fetch(`${edge.url}${EDGE_FILES_PREFIX}/demo-assets/edge-dir/x.png`, { headers: { authorization: `Bearer ${edge.key}`, 'if-none-match': etag } });
    expect(again.status).toBe(304);
    // a PUT from a node is refused unless a service migrates into that storage now
    const put = await fetch(`${edge.url}${EDGE_FILES_PREFIX}/demo-assets/forged.txt`, { method: 'PUT', body: 'x', headers: { authorization: `Bearer ${edge.key}`, 'x-edge-mirror-source': '1' } });
    expect(put.status).toBe(403);
    expect(await list('demo-assets', '')).not.toContainEqual(expect.objectContaining({ name: 'forged.txt' }));
  });
});

export { until, list, upload };
