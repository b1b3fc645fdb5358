/** Monitor alarms: the task calls and their refusals, visibility, and the worker's one alert per incident. */
import { startTestServer, Client, type TestServer } from './helpers';
import { evaluateTasks, metricValue } from '../../src/server/monitor/worker';
import type { SmsSender } from '../../src/server/sms/outbox';

let s: TestServer;
let c: Client;
const sent: string[] = [];
const sms: SmsSender = { async send(_to, _purpose, text) { sent.push(text); } };

beforeAll(async () => {
  s = await startTestServer();
  c = await new Client(s.app).signIn('demo');
});
afterAll(async () => {
  await s.close();
});

const task = (extra: object = {}) => ({ name: '主站带宽告警', metric: 'bandwidth', operator: 'gt', threshold: 100, period: 10, buckets: ['demo-www'], notify_message: true, notify_sms: true, ...extra });
const del = (payload: object) => c.request({ method: 'DELETE', url: '/api/monitor/', payload });

it('creates (PUT), lists, edits (POST), hides and deletes a task', async () => {
  const created = await c.put('/api/monitor/', task());
  expect(created.statusCode).toBe(200);
  const t = created.json().data;
  expect(t).toMatchObject({ name: '主站带宽告警', metric: 'bandwidth', threshold: 100, buckets: ['demo-www'], visible: true, state: 'normal', last_value: null });
  expect((await c.get('/api/monitor/')).json().data.map((x: { id: number }) => x.id)).toContain(t.id);

  const edited = await c.post('/api/monitor/', { ...task({ threshold: 200, buckets: ['demo-www', 'demo-static'] }), id: t.id });
  expect(edited.json().data).toMatchObject({ id: t.id, threshold: 200, buckets: ['demo-www', 'demo-static'] });

  expect((await c.post('/api/monitor/visible/', { id: t.id, visible: false })).json().data.visible).toBe(false);
  expect((await c.get('/api/monitor/?visible=1')).json().data.map((x: { id: number }) => x.id)).not.toContain(t.id);
  expect((await c.get('/api/monitor/?visible=0')).json().data.map((x: { id: number }) => x.id)).toContain(t.id);

  expect((await del({ id: t.id })).statusCode).toBe(200);
  expect((await del({ id: t.id })).json()).toMatchObject({ error_code: 26101, message: '告警任务不存在或已被删除' });
  expect((await c.post('/api/monitor/visible/', { id: t.id, visible: true })).json().error_code).toBe(26101);
});

it('refuses the declaration\'s errors with its messages', async () => {
  const res = await c.put('/api/monitor/', task({ name: '', threshold: -1, period: 7, notify_message: false, notify_sms: false }));
  expect(res.statusCode).toBe(400);
  const body = res.json();
  expect(body.error_code).toBe(20001);
  expect(body.errors).toEqual(expect.arrayContaining([
    { path: '/name', message: '请填写任务名称' },
    { path: '/threshold', message: '阈值不能小于 0' },
    { path: '/period', message: '请选择统计周期' },
  ]));
  const channel = await c.put('/api/monitor/', task({ notify_message: false, notify_sms: false }));
  expect(channel.json().errors).toEqual([{ path: '/notify_sms', message: '请至少选择一种通知方式' }]);
});

it('refuses a service of another account (26103) and a task of another account (26101)', async () => {
  const res = await c.put('/api/monitor/', task({ buckets: ['demo-www', 'secure-www'] }));
  expect(res.json()).toMatchObject({ error_code: 26103, errors: [{ path: '/buckets/1', message: 'secure-www 不是本账号下的服务' }] });
  const other = await new Client(s.app).signIn('demokey');
  const mine = (await c.put('/api/monitor/', task({ name: '别人看不到' }))).json().data;
  expect((await other.post('/api/monitor/', { ...task({ buckets: [] }), id: mine.id })).json().error_code).toBe(20001);
  expect((await other.request({ method: 'DELETE', url: '/api/monitor/', payload: { id: mine.id } })).json().error_code).toBe(26101);
  expect((await other.get('/api/monitor/')).json().data).toEqual([]);
  const row = await s.db.selectFrom('monitor_tasks').select('name').where('id', '=', mine.id).executeTakeFirstOrThrow();
  expect(row.name).toBe('别人看不到');
  await del({ id: mine.id });
});

it('refuses the 51st task (26102)', async () => {
  const demo = await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow();
  const have = (await c.get('/api/monitor/')).json().data.length;
  await s.db.insertInto('monitor_tasks').values(Array.from({ length: 50 - have }, (_, i) => ({ account_id: demo.id, name: `填充 ${i}`, metric: 'requests', operator: 'gt', threshold: 1, period: 5, buckets: JSON.stringify(['demo-www']), notify_message: true, notify_sms: false }))).execute();
  expect((await c.put('/api/monitor/', task())).json()).toMatchObject({ error_code: 26102, message: '告警任务数量已达上限（最多 50 个）' });
  await s.db.deleteFrom('monitor_tasks').where('name', 'like', '填充 %').execute();
});

it('computes the metrics of a window', () => {
  const slot = { bytes: 375_000_000, reqs: 1000, hit_reqs: 900, s4xx: 50, s5xx: 10 };
  expect(metricValue('bandwidth', [slot, { ...slot, bytes: 0 }])).toBe(10); // 375 MB × 8 / 300 s = 10 Mbps, the peak
  expect(metricValue('requests', [slot, slot])).toBe(2000);
  expect(metricValue('status_4xx', [slot])).toBe(5);
  expect(metricValue('status_5xx', [slot])).toBe(1);
  expect(metricValue('hit_rate', [slot])).toBe(90);
  expect(metricValue('hit_rate', [{ ...slot, reqs: 0 }])).toBeNull();
  expect(metricValue('bandwidth', [])).toBeNull();
});

describe('the worker', () => {
  const T0 = Date.UTC(2026, 0, 10, 4, 0, 0); // a slot boundary
  let taskId = 0;
  let bucket: { id: number; owner_id: number };
  let domainId = 0;

  /** The 5-minute slot starting at `at` carries `mbps` of edge bandwidth. */
  async function traffic(at: number, mbps: number) {
    const bytes = Math.round((mbps * 1e6 * 300) / 8);
    await s.db
      .insertInto('traffic_5m')
      .values({ domain_id: domainId, flow_type: 'cdn', direction: '', slot: new Date(at), account_id: bucket.owner_id, bucket_id: bucket.id, bytes, reqs: 100 })
      .onConflict((oc) => oc.columns(['domain_id', 'flow_type', 'direction', 'slot']).doUpdateSet({ bytes }))
      .execute();
  }
  const alarms = () => s.db.selectFrom('messages').select(['title', 'body']).where('account_id', '=', bucket.owner_id).where('category', '=', 'alarm').orderBy('id').execute();
  const at = (minutes: number) => new Date(T0 + minutes * 60_000);

  beforeAll(async () => {
    bucket = await s.db.selectFrom('buckets').select(['id', 'owner_id']).where('name', '=', 'demo-static').executeTakeFirstOrThrow();
    domainId = (await s.db.selectFrom('bucket_domains').select('id').where('bucket_id', '=', bucket.id).executeTakeFirstOrThrow()).id;
    await s.db.deleteFrom('monitor_tasks').execute();
    await s.db.deleteFrom('messages').where('category', '=', 'alarm').execute();
    await s.db.updateTable('users').set({ mobile: '13800000001' }).where('id', '=', bucket.owner_id).execute();
    taskId = (await c.put('/api/monitor/', task({ name: '静态站带宽', threshold: 50, period: 5, buckets: ['demo-static'] }))).json().data.id;
  });

  it('alerts exactly once for one incident, by message and SMS, and again after recovery and a new incident', async () => {
    await traffic(T0, 20);
    expect(await evaluateTasks(s.db, sms, at(5))).toMatchObject({ checked: 1, alerted: 0, recovered: 0 });

    // the incident: three evaluations above the threshold
    await traffic(T0 + 5 * 60_000, 80);
    await traffic(T0 + 10 * 60_000, 90);
    await traffic(T0 + 15 * 60_000, 85);
    const runs = [await evaluateTasks(s.db, sms, at(10)), await evaluateTasks(s.db, sms, at(11)), await evaluateTasks(s.db, sms, at(15)), await evaluateTasks(s.db, sms, at(20))];
    expect(runs.map((r) => r.alerted)).toEqual([1, 0, 0, 0]);
    let msgs = await alarms();
    expect(msgs).toEqual([{ title: '监控告警：静态站带宽', body: 'demo-static 最近 5 分钟带宽峰值为 80 Mbps，大于阈值 50 Mbps。' }]);
    expect(sent).toEqual(['【监控告警：静态站带宽】demo-static 最近 5 分钟带宽峰值为 80 Mbps，大于阈值 50 Mbps。']);
    const listed = (await c.get('/api/monitor/')).json().data.find((t: { id: number }) => t.id === taskId);
    expect(listed).toMatchObject({ state: 'alarm', last_value: 85 });

    // recovery closes the incident with a message (no SMS)
    await traffic(T0 + 20 * 60_000, 30);
    expect(await evaluateTasks(s.db, sms, at(25))).toMatchObject({ alerted: 0, recovered: 1 });
    expect(await evaluateTasks(s.db, sms, at(26))).toMatchObject({ alerted: 0, recovered: 0 });
    msgs = await alarms();
    expect(msgs.map((m) => m.title)).toEqual(['监控告警：静态站带宽', '告警恢复：静态站带宽']);

    // a new incident alerts again
    await traffic(T0 + 25 * 60_000, 120);
    expect((await evaluateTasks(s.db, sms, at(30))).alerted).toBe(1);
    expect((await evaluateTasks(s.db, sms, at(31))).alerted).toBe(0);
    expect((await alarms()).map((m) => m.title)).toEqual(['监控告警：静态站带宽', '告警恢复：静态站带宽', '监控告警：静态站带宽']);
    expect(sent).toHaveLength(2);

    const alerts = (await c.get(`/api/monitor/alerts/?task_id=${taskId}`)).json().data;
    expect(alerts).toHaveLength(2);
    expect(alerts[0]).toMatchObject({ task_name: '静态站带宽', value: 120, threshold: 50, recovered_at: null });
    expect(alerts[1]).toMatchObject({ value: 80, recovered_at: at(25).toISOString(), started_at: at(10).toISOString() });
  });

  it('two workers evaluating at once still alert once', async () => {
    await traffic(T0 + 30 * 60_000, 10);
    await evaluateTasks(s.db, sms, at(35)); // recovers
    await traffic(T0 + 35 * 60_000, 300);
    const [a, b] = await Promise.all([evaluateTasks(s.db, sms, at(40)), evaluateTasks(s.db, sms, at(40))]);
    expect(a.alerted + b.alerted).toBe(1);
  });

  it('marks a window without data as no_data and sends nothing', async () => {
    const before = (await alarms()).length;
    await evaluateTasks(s.db, sms, at(24 * 60));
    const t = (await c.get('/api/monitor/')).json().data.find((x: { id: number }) => x.id === taskId);
    expect(t.state).toBe('no_data');
    expect((await alarms()).length).toBe(before);
  });
});
