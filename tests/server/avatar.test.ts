/**
 * The profile picture (spec 000 §9: the avatar's 30 KB limit): jpeg/png/gif/bmp by content, at most 30 KB,
 * each user's own; refused uploads store nothing.
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { AVATAR_MAX_BYTES } from '../../src/shared/security';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201ab8d0f1a0000000049454e44ae426082', 'hex');

function form(name: string, bytes: Buffer) {
  const boundary = '----avatar' + Math.random().toString(16).slice(2);
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function put(c: Client, name: string, bytes: Buffer) {
  const f = form(name, bytes);
  return c.request({ method: 'PUT', url: '/api/accounts/avatar/', payload: f.payload, headers: f.headers });
}

test('a picture of at most 30 KB is stored and answered with its type; larger or not an image is refused and nothing changes', async () => {
  const c = await new Client(s.app).signIn('demo');
  expect((await c.get('/api/accounts/avatar/')).json()).toMatchObject({ error_code: 21135, message: '尚未设置头像' });
  expect((await c.get('/api/accounts/avatar/info/')).json()).toEqual({ result: true, error_code: 0, data: { avatar: false, updated_at: null } });

  const big = Buffer.concat([PNG, Buffer.alloc(AVATAR_MAX_BYTES + 1 - PNG.length)]);
  const tooBig = await put(c, 'big.png', big);
  expect(tooBig.statusCode).toBe(400);
  expect(tooBig.json()).toMatchObject({ error_code: 21134, message: '头像大小不超过 30 KB' });
  const notImage = await put(c, 'me.png', Buffer.from('not a picture at all, only text'));
  expect(notImage.json()).toMatchObject({ error_code: 21123, message: '仅支持 .jpg .jpeg .bmp .gif .png 格式' });
  expect(await s.db.selectFrom('user_avatars').selectAll().execute()).toEqual([]);

  const exact = Buffer.concat([PNG, Buffer.alloc(AVATAR_MAX_BYTES - PNG.length)]);
  const stored = await put(c, 'me.png', exact);
  expect(stored.json()).toEqual({ result: true, error_code: 0, data: { avatar: true } });
  const got = await c.get('/api/accounts/avatar/');
  expect(got.statusCode).toBe(200);
  expect(got.headers['content-type']).toBe('image/png');
  expect(got.rawPayload.length).toBe(AVATAR_MAX_BYTES);
  expect((await c.get('/api/accounts/avatar/info/')).json().data).toMatchObject({ avatar: true, updated_at: expect.any(Number) });

  // another user does not see it
  const other = await new Client(s.app).signIn('demokey');
  expect((await other.get('/api/accounts/avatar/')).statusCode).toBe(404);

  expect((await c.request({ method: 'DELETE', url: '/api/accounts/avatar/' })).json()).toEqual({ result: true, error_code: 0, data: { avatar: false } });
  expect((await c.get('/api/accounts/avatar/')).statusCode).toBe(404);
});
