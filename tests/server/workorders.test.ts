/** Work orders: types, documents, attachments checked by size and content, create, list, detail, replies, close, support's command. */
import { startTestServer, Client, type TestServer } from './helpers';
import { supportReply } from '../../src/server/workorders/commands';

let s: TestServer;
let c: Client;
beforeAll(async () => {
  s = await startTestServer();
  c = await new Client(s.app).signIn('demo');
});
afterAll(async () => {
  await s.close();
});

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);

function upload(client: Client, name: string, content: Buffer) {
  const boundary = '----f2boundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return client.request({ method: 'POST', url: '/work_order/attachment/', payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
}

const order = (extra: object = {}) => ({ type: 'cdn', title: '访问变慢', content: 'www.demo-example.com 从今天上午开始访问变慢', ...extra });

it('lists the types with the ticket site, and documents by type', async () => {
  const types = (await c.get('/api/workorder/types/')).json();
  expect(types.site).toBe('/work/');
  expect(types.data).toContainEqual({ id: 'cdn', name: 'CDN 加速' });
  const docs = (await c.get('/work_order/documents/?type=https')).json().data;
  expect(docs[0]).toMatchObject({ title: 'HTTPS 配置指南' });
  expect((await c.get('/work_order/documents/?type=nope')).json().error_code).toBe(20001);
});

it('accepts attachments by content and refuses wrong types, disguised files, empty and oversized ones', async () => {
  const ok = await upload(c, '截图.png', PNG);
  expect(ok.statusCode).toBe(200);
  expect(ok.json().data).toMatchObject({ name: '截图.png', size: PNG.length, type: 'png' });
  expect((await upload(c, 'notes.txt', Buffer.from('第一行\n第二行\n'))).json().data.type).toBe('txt');
  // an executable named .png, a PNG named .pdf, an unknown binary
  expect((await upload(c, 'evil.png', Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00]))).json()).toMatchObject({ error_code: 26203, message: '附件类型不支持，仅支持 png、jpg、gif、pdf、txt、zip' });
  expect((await upload(c, 'a.pdf', PNG)).json().error_code).toBe(26203);
  expect((await upload(c, 'empty.txt', Buffer.alloc(0))).json().error_code).toBe(26206);
  const big = await upload(c, 'big.txt', Buffer.alloc(5 * 1024 * 1024 + 1, 0x61));
  expect(big.statusCode).toBe(413);
  expect(big.json()).toMatchObject({ error_code: 26202, message: '附件大小不能超过 5 MB' });
  expect((await c.post('/work_order/attachment/', { file: 'x' })).json().error_code).toBe(26206);
});

it('opens an order with an attachment, lists it, shows it, takes replies, and closes it', async () => {
  const a = (await upload(c, 'shot.png', PNG)).json().data;
  const created = await c.post('/api/workorder', order({ attachments: [a.id], mobile: '13800138000' }));
  expect(created.statusCode).toBe(200);
  const id = created.json().data.id;
  expect(created.json().data.status).toBe('pending');

  // the attachment cannot be used twice
  expect((await c.post('/api/workorder', order({ attachments: [a.id] }))).json()).toMatchObject({ error_code: 26204, errors: [{ path: '/attachments' }] });

  let list = (await c.get('/api/workorder/list/')).json();
  expect(list.data[0]).toMatchObject({ id, title: '访问变慢', status: 'pending', replies: 0, last_reply_at: null });

  let detail = (await c.get(`/api/workorder/detail/?id=${id}`)).json().data;
  expect(detail).toMatchObject({ id, type: 'cdn', mobile: '13800138000', attachments: [{ id: a.id, name: 'shot.png', type: 'png' }], replies: [] });
  const file = await c.get(`/work_order/attachment/?id=${a.id}`);
  expect(file.headers['content-type']).toBe('image/png');
  expect(file.rawPayload.equals(PNG)).toBe(true);

  // support answers with the platform command; the account gets a message
  await supportReply(s.db, id, '您好，已为您排查，请刷新缓存后再试。');
  list = (await c.get('/api/workorder/list/?status=replied')).json();
  expect(list.data.map((o: { id: number }) => o.id)).toContain(id);
  const msg = await s.db.selectFrom('messages').select(['title', 'link']).where('category', '=', 'service').orderBy('id', 'desc').executeTakeFirstOrThrow();
  expect(msg).toEqual({ title: '您的工单有新回复', link: `/work/?id=${id}` });

  const txt = (await upload(c, 'log.txt', Buffer.from('curl -I 结果'))).json().data;
  expect((await c.post('/api/workorder/reply/', { id, content: '已刷新，问题解决了', attachments: [txt.id] })).json().data.status).toBe('pending');
  detail = (await c.get(`/api/workorder/detail/?id=${id}`)).json().data;
  expect(detail.replies.map((r: { author: string }) => r.author)).toEqual(['support', 'user']);
  expect(detail.replies[1].attachments).toEqual([{ id: txt.id, name: 'log.txt', size: expect.any(Number), type: 'txt' }]);
  expect(detail.attachments).toHaveLength(1);

  expect((await c.post('/api/workorder/close/', { id })).json().data.status).toBe('closed');
  expect((await c.post('/api/workorder/reply/', { id, content: '再问一下' })).json()).toMatchObject({ error_code: 26205, message: '工单已关闭，不能继续回复' });
  await expect(supportReply(s.db, id, 'x')).rejects.toThrow('已关闭');
});

it('refuses the declaration\'s errors', async () => {
  const res = await c.post('/api/workorder', order({ type: 'x', content: '短', mobile: '123' }));
  expect(res.json().error_code).toBe(20001);
  expect(res.json().errors).toEqual(expect.arrayContaining([
    { path: '/type', message: '请选择问题类型' },
    { path: '/content', message: '问题描述至少 10 个字符' },
    { path: '/mobile', message: '请填写正确的手机号' },
  ]));
});

it('keeps orders and attachments to their account', async () => {
  const id = (await c.post('/api/workorder', order())).json().data.id;
  const a = (await upload(c, 'mine.png', PNG)).json().data;
  const other = await new Client(s.app).signIn('demokey');
  expect((await other.get(`/api/workorder/detail/?id=${id}`)).json().error_code).toBe(26201);
  expect((await other.post('/api/workorder/close/', { id })).json().error_code).toBe(26201);
  expect((await other.get(`/work_order/attachment/?id=${a.id}`)).json().error_code).toBe(26204);
  expect((await other.post('/api/workorder', order({ attachments: [a.id] }))).json().error_code).toBe(26204);
  expect((await other.get('/api/workorder/list/')).json().data).toEqual([]);
  // the sub-account of demo sees demo's orders
  const ops = await new Client(s.app).signIn('demo_ops');
  expect((await ops.get('/api/workorder/list/')).json().data.map((o: { id: number }) => o.id)).toContain(id);
});
