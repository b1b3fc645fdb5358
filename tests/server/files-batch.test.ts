/**
 * A refused multipart batch keeps nothing (issue 34 item 5): PUT /folder/demo-assets/docs/ with a good file
 * followed by a refused part — a 21st file (413 27109), a `..` name (400 27101), a name with U+202E
 * (400 27110), a file over the size limit (413 27105) — stores none of them; before, each kept the good
 * file(s) sent first. A good batch still stores every file.
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { UPLOAD_MAX_FILES } from '../../src/shared/files';

const MAX = 64 * 1024;
let s: TestServer;
let demo: Client;

function multipart(files: [string, Buffer][]) {
  const boundary = `----b${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, content] of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`), content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const upload = (files: [string, Buffer][]) => {
  const m = multipart(files);
  return demo.request({ method: 'PUT', url: '/folder/demo-assets/docs/', payload: m.payload, headers: m.headers });
};
const names = async () => (await s.db.selectFrom('file_objects').select('path').execute()).map((r) => r.path).sort();
let n = 0;
/** A good file of a name not used before (a file of a stored name would be replaced, not added). */
const good = (_i: number): [string, Buffer] => [`good-${++n}.txt`, Buffer.from(`file ${n}`)];

beforeAll(async () => {
  s = await startTestServer({ config: { storage: { uploadMaxBytes: MAX } } });
  demo = await new Client(s.app).signIn('demo');
  await demo.post('/folder/demo-assets/docs/', {});
}, 60_000);
afterAll(() => s.close());

test.each<[string, [string, Buffer][], number, number]>([
  [`${UPLOAD_MAX_FILES + 1} files`, Array.from({ length: UPLOAD_MAX_FILES + 1 }, (_, i) => good(i)), 413, 27109],
  ['a good file, then ..', [good(0), ['..', Buffer.from('x')]], 400, 27101],
  ['a good file, then a name with U+202E', [good(0), ['photo\u202egpj.exe', Buffer.from('x')]], 400, 27110],
  ['a good file, then a file over the limit', [good(0), ['big.bin', Buffer.alloc(MAX + 1, 1)]], 413, 27105],
])('%s: refused, nothing kept', async (_name, files, status, code) => {
  const before = await names();
  const res = await upload(files);
  expect(res.statusCode).toBe(status);
  expect(res.json().error_code).toBe(code);
  expect(await names()).toEqual(before);
});

test('a good batch stores every file', async () => {
  const before = await names();
  const res = await upload([good(1), good(2), good(3)]);
  expect(res.statusCode).toBe(200);
  expect(res.json().data).toHaveLength(3);
  expect((await names()).length).toBe(before.length + 3);
});
