/**
 * The message centre through the API (spec 000 §2.8, §3, §4, §9; docs/accounts.md): lists by type and
 * status with unread counts, the detail marking a message read, mark read, mark all read (per type),
 * delete, the top bar's summary (5 unread, 1 popup), scoping to the account, and sub-accounts kept out.
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { notify } from '../../src/server/messages/notify';
import { accountCommands } from '../../src/server/accounts/commands';
import { hashPassword } from '../../src/server/accounts/passwords';

jest.setTimeout(180_000);
let s: TestServer;
let c: Client;
let accountId: number;
beforeAll(async () => {
  s = await startTestServer();
  const row = await s.db
    .insertInto('users')
    .values({ username: 'msg_owner', email: 'msg_owner@example.com', mobile: null, password_hash: await hashPassword('demo123456'), parent_id: null, permissions: '[]' })
    .returning('id')
    .executeTakeFirstOrThrow();
  accountId = row.id;
  c = await new Client(s.app).signIn('msg_owner');
});
afterAll(async () => {
  await s.close();
});

describe('message centre', () => {
  it('lists, counts, opens, marks and deletes', async () => {
    const ids: number[] = [];
    ids.push(await notify(s.db, accountId, { category: 'billing', title: '余额不足', body: '您的余额已低于阈值。', link: '/billing/charge/' }));
    ids.push(await notify(s.db, accountId, { category: 'alarm', title: '带宽告警', body: '服务 demo-www 的带宽超过阈值。' }));
    ids.push(await notify(s.db, accountId, { category: 'system', title: '系统维护通知', body: '本周六凌晨维护。' }));
    ids.push(await notify(s.db, accountId, { category: 'feature', title: 'HTTP/3 上线', body: '现已支持 HTTP/3。' }));
    for (let i = 0; i < 3; i++) ids.push(await notify(s.db, accountId, { category: 'market', title: `活动 ${i}`, body: 'x'.repeat(100) }));

    const all = (await c.get('/api/messages/')).json();
    expect(all.total).toBe(7);
    expect(all.unread).toEqual({ total: 7, by_type: { platform_notify: 1, feature_update: 1, market_activity: 3, service_feedback: 2 } });
    expect(all.data[0]).toEqual({ account_message_id: ids[6], type: 'market_activity', category: 'market', title: '活动 2', summary: `${'x'.repeat(80)}…`, link: null, status: 'unread', mode: null, create_at: expect.any(Number) });

    const feedback = (await c.get('/api/messages/?type=service_feedback')).json();
    expect(feedback.data.map((m: any) => m.title)).toEqual(['带宽告警', '余额不足']);
    const paged = (await c.get('/api/messages/?limit=2&page=2')).json();
    expect(paged.data.map((m: any) => m.account_message_id)).toEqual([ids[4], ids[3]]);
    expect(paged.total).toBe(7); // the page carries the total of the whole filter
    expect((await c.get('/api/messages/?type=service_feedback&limit=1&page=2')).json()).toMatchObject({ total: 2, data: [{ title: '余额不足' }] });
    expect((await c.get('/api/messages/?limit=5&page=3')).json()).toMatchObject({ total: 7, data: [] }); // past the end

    const top = (await c.get('/api/messages/unread/')).json().data;
    expect(top.total).toBe(7);
    expect(top.latest).toHaveLength(5);
    expect(top.popup).toMatchObject({ title: '系统维护通知', mode: 'popup', body: '本周六凌晨维护。' });

    const detail = (await c.get(`/api/message/?id=${ids[0]}`)).json().data;
    expect(detail).toMatchObject({ title: '余额不足', body: '您的余额已低于阈值。', link: '/billing/charge/', status: 'readed' });
    expect((await c.get('/api/messages/?status=readed')).json().data.map((m: any) => m.account_message_id)).toEqual([ids[0]]);

    const marked = (await c.post('/api/messages/', { ids: [ids[2], ids[3]], action: 'readed' })).json();
    expect(marked).toMatchObject({ data: { changed: 2 }, unread: { total: 4 } });
    const typeAll = (await c.post('/api/messages/', { all: true, type: 'market_activity', action: 'readed' })).json();
    expect(typeAll.unread).toEqual({ total: 1, by_type: { platform_notify: 0, feature_update: 0, market_activity: 0, service_feedback: 1 } });
    expect((await c.post('/api/messages/', { all: true, action: 'readed' })).json().unread.total).toBe(0);
    expect((await c.post('/api/messages/', { all: true, action: 'delete' })).json().error_code).toBe(20001);
    expect((await c.post('/api/messages/', { action: 'readed' })).json().errors).toEqual([{ path: '/ids', message: '请选择消息' }]);

    expect((await c.post('/api/messages/', { ids: [ids[6]], action: 'delete' })).json().data.changed).toBe(1);
    expect((await c.get(`/api/message/?id=${ids[6]}`)).json().error_code).toBe(21129);
  });

  it("another account's messages are neither listed, opened, marked nor deleted", async () => {
    const demo = await new Client(s.app).signIn('demo');
    const id = await notify(s.db, accountId, { category: 'security', title: '私密', body: '只给 msg_owner。' });
    expect((await demo.get(`/api/message/?id=${id}`)).json().error_code).toBe(21129);
    expect((await demo.post('/api/messages/', { ids: [id], action: 'delete' })).json().data.changed).toBe(0);
    expect((await demo.post('/api/messages/', { ids: [id], action: 'readed' })).json().data.changed).toBe(0);
    expect((await demo.get('/api/messages/')).json().data.map((m: any) => m.title)).not.toContain('私密');
    expect((await c.get(`/api/message/?id=${id}`)).json().data.status).toBe('readed');
  });

  it('sub-accounts do not see messages (spec 000 §4)', async () => {
    const ops = await new Client(s.app).signIn('demo_ops');
    for (const url of ['/api/messages/', '/api/messages/unread/', '/api/message/?id=1']) expect((await ops.get(url)).json().error_code).toBe(21111);
  });

  it('the platform publishes to some or all main accounts', async () => {
    const publish = accountCommands.find((x) => x.name === 'message-publish')!;
    expect(await publish.run(s.db, { title: '新功能', body: '欢迎试用。', category: 'feature', accounts: 'msg_owner,demo_ops' })).toEqual({ published: 1, accounts: ['msg_owner'] });
    const everyone = (await publish.run(s.db, { title: '全员公告', body: '大家好。', all: 'true' })) as { published: number };
    const mains = await s.db.selectFrom('users').select('id').where('parent_id', 'is', null).execute();
    expect(everyone.published).toBe(mains.length);
    await expect(publish.run(s.db, { title: 'x', body: 'y', category: 'nope', all: 'true' })).rejects.toThrow('--category');
    expect((await c.get('/api/messages/unread/')).json().data.popup.title).toBe('全员公告');
  });
});
