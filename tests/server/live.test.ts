/** Live services: the live info (transport → type), 23801, the tab rules, the live settings and the suspended rule. */
import { startTestServer, Client, type TestServer } from './helpers';
import { tabsFor } from '../../src/shared/services';

let s: TestServer;
let c: Client;
beforeAll(async () => {
  s = await startTestServer();
  c = await new Client(s.app).signIn('demo');
});
afterAll(async () => {
  await s.close();
});

const setSuspended = async (name: string, suspended: boolean) => {
  const b = await s.db.selectFrom('buckets').select('id').where('name', '=', name).executeTakeFirstOrThrow();
  await s.db.updateTable('live_services').set({ suspended, suspended_reason: suspended ? '内容违规' : null }).where('bucket_id', '=', b.id).execute();
};

it('answers the live info: push means file type, otherwise ucdn; both paths', async () => {
  expect((await c.get('/api/buckets/live/info/?bucket_name=demo-live')).json()).toMatchObject({ result: true, data: { bucket_name: 'demo-live', transport: 'push', type: 'file', suspended: false } });
  expect((await c.get('/api/srs/info/?bucket_name=demo-class')).json().data).toMatchObject({ transport: 'pull', type: 'ucdn' });
});

it('answers 23801 for a service that is not live and for a live service without live configuration', async () => {
  expect((await c.get('/api/buckets/live/info/?bucket_name=demo-www')).json()).toMatchObject({ result: false, error_code: 23801, message: '直播配置不存在' });
  const created = await c.put('/api/buckets/', { bucket_name: 'live-without-config', kind: 'live', domains: [] });
  expect(created.statusCode).toBe(200);
  expect((await c.get('/api/buckets/live/info/?bucket_name=live-without-config')).json().error_code).toBe(23801);
  expect((await c.get('/api/buckets/live/info/?bucket_name=secure-www')).json().error_code).toBe(21905);
});

it('shows streamMonitor only for file-type live services with ids up to 1796095; advanced and antileech likewise', () => {
  const all = ['domains', 'basic', 'advanced', 'streamMonitor', 'https', 'antileech', 'streamMedia'];
  expect(tabsFor('live', 100, { liveTransportFile: true })).toEqual(all);
  expect(tabsFor('live', 100, { liveTransportFile: false })).toEqual(all.filter((t) => t !== 'streamMonitor'));
  expect(tabsFor('live', 100)).toEqual(all.filter((t) => t !== 'streamMonitor'));
  expect(tabsFor('live', 1796095, { liveTransportFile: true })).toEqual(all);
  expect(tabsFor('live', 1796096, { liveTransportFile: true })).toEqual(['domains', 'basic', 'https', 'streamMedia']);
});

it('serves every live setting with its defaults and refuses them on other kinds (21201)', async () => {
  const ids = ['live_source', 'live_domain', 'live_apps', 'live_flv_hls', 'live_callbacks', 'live_record', 'live_snapshot', 'live_transcode', 'live_forbidden', 'live_stream_monitor'];
  const listed = (await c.get('/api/settings/')).json().data.map((d: { id?: string; meta?: { id: string } }) => d.id ?? d.meta?.id);
  for (const id of ids) {
    expect(listed).toContain(id);
    const res = await c.get(`/api/settings/${id}/?bucket_name=demo-live`);
    expect([id, res.statusCode]).toEqual([id, 200]);
  }
  expect((await c.get('/api/settings/live_apps/?bucket_name=demo-live')).json().data).toMatchObject({ apps: ['live'] });
  expect((await c.post('/api/settings/live_apps/', { bucket_name: 'demo-www', apps: ['live'] })).json().error_code).toBe(21201);
});

it('stores a valid live setting and refuses an invalid one with the declaration messages', async () => {
  const saved = await c.post('/api/settings/live_record/', { bucket_name: 'demo-live', enable: true, format: 'mp4', segment_minutes: 30, bucket: 'demo-assets' });
  expect(saved.json()).toMatchObject({ result: true });
  expect((await c.get('/api/settings/live_record/?bucket_name=demo-live')).json().data).toMatchObject({ enable: true, segment_minutes: 30 });
  const bad = (await c.post('/api/settings/live_forbidden/', { bucket_name: 'demo-live', streams: ['stream01'] })).json();
  expect(bad).toMatchObject({ error_code: 20001, errors: [{ path: '/streams/0', message: '请按 应用/流名 填写，如 live/stream01，流名可为 *' }] });
  const cb = (await c.post('/api/settings/live_callbacks/', { bucket_name: 'demo-class', enable: true, on_publish: '', on_unpublish: '', on_record: '', on_snapshot: '', secret: '' })).json();
  expect(cb.errors).toEqual([{ path: '', message: '开启直播回调时请至少填写一个回调地址' }]);
});

it('records and snapshots only into one of the account\'s storage services (21209)', async () => {
  for (const id of ['live_record', 'live_snapshot']) {
    const base = id === 'live_record' ? { enable: true, format: 'flv', segment_minutes: 60 } : { enable: true, interval: 60, format: 'jpg' };
    const res = (await c.post(`/api/settings/${id}/`, { bucket_name: 'demo-live', ...base, bucket: 'demo-www' })).json();
    expect([id, res.error_code, res.errors]).toEqual([id, 21209, [{ path: '/bucket', code: 21209, message: '请选择本账号下的云存储空间' }]]);
    expect((await c.post(`/api/settings/${id}/`, { bucket_name: 'demo-live', ...base, bucket: 'secure-www' })).json().error_code).toBe(21209);
    expect((await c.post(`/api/settings/${id}/`, { bucket_name: 'demo-live', ...base, bucket: 'demo-backup' })).json().result).toBe(true);
  }
});

it('refuses live setting changes while the configuration is suspended (23802), still answering reads', async () => {
  await setSuspended('demo-class', true);
  try {
    expect((await c.get('/api/buckets/live/info/?bucket_name=demo-class')).json().data).toMatchObject({ suspended: true, suspended_reason: '内容违规' });
    const logs = () => s.db.selectFrom('operation_logs').select('id').where('target', '=', 'demo-class/live_apps').execute();
    const logged = (await logs()).length;
    const res = await c.post('/api/settings/live_apps/', { bucket_name: 'demo-class', apps: ['live', 'class'] });
    expect([res.statusCode, res.json().error_code]).toEqual([403, 23802]);
    expect((await c.get('/api/settings/live_apps/?bucket_name=demo-class')).json().data.apps).toEqual(['live']);
    expect((await logs()).length).toBe(logged); // nothing stored, not even the log row
    // another live service is not affected
    expect((await c.post('/api/settings/live_apps/', { bucket_name: 'demo-live', apps: ['live', 'class'] })).json().result).toBe(true);
  } finally {
    await setSuspended('demo-class', false);
  }
  expect((await c.post('/api/settings/live_apps/', { bucket_name: 'demo-class', apps: ['live', 'class'] })).json().result).toBe(true);
});

it('lets a sub-account with live reach the live info of a granted service only', async () => {
  const ops = await new Client(s.app).signIn('demo_ops');
  expect((await ops.get('/api/buckets/live/info/?bucket_name=demo-live')).json().error_code).toBe(21905);
});
