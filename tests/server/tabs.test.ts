/**
 * The service tabs' settings (docs/service-tabs.md): the limits that answer with their catalogue codes
 * (216xx cache, 212xx thumbnails and IP lists, origins), the rules beside the schemas, the remark of a
 * service, and the cost-control job that pauses and resumes a service from the 5-minute traffic rows.
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { runCostControl, nextBeijingMidnight, latestBandwidth } from '../../src/server/domains/costControl';
import { checkCname } from '../../src/server/domains/resolver';
import compressionRules from '../../schemas/settings/compression/rules';

let s: TestServer;
let c: Client;
beforeAll(async () => {
  s = await startTestServer();
  c = await new Client(s.app).signIn('demo');
}, 180000);
afterAll(async () => {
  await s.close();
});

const save = (id: string, bucket: string, payload: object) => c.post(`/api/settings/${id}/`, { bucket_name: bucket, ...payload });
const rule = (i: number, ttl = 600) => ({ type: 'path', value: `/p${i}.html`, ttl, ignore_query: false });

describe('cache rules', () => {
  it('saves up to 50 rules, normalised, and refuses the 51st with 21601', async () => {
    const ok = await save('cache_rules', 'demo-www', { rules: [{ type: 'suffix', value: 'JPG,png', ttl: 5, ignore_query: true }, { type: 'directory', value: '/static', ttl: 31536000, ignore_query: false }] });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.rules.map((r: { value: string }) => r.value)).toEqual(['jpg,png', '/static/']);
    expect((await c.get('/api/settings/cache_rules/?bucket_name=demo-www')).json()).toMatchObject({ summary: '已配置' });
    expect((await save('cache_rules', 'demo-www', { rules: Array.from({ length: 50 }, (_, i) => rule(i)) })).statusCode).toBe(200);
    const res = await save('cache_rules', 'demo-www', { rules: Array.from({ length: 51 }, (_, i) => rule(i)) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error_code: 21601, message: '缓存规则最多 50 条', errors: [{ path: '/rules', message: '缓存规则最多 50 条', code: 21601 }] });
  });

  it('refuses a cache time outside 5 - 31536000 seconds with 21602', async () => {
    for (const ttl of [4, 31536001]) {
      const res = await save('cache_rules', 'demo-www', { rules: [rule(1, ttl)] });
      expect(res.json()).toMatchObject({ error_code: 21602, message: '缓存时间为 5 - 31536000 秒', errors: [{ path: '/rules/0/ttl' }] });
    }
  });

  it('checks the value against its type and refuses repeated rules', async () => {
    const res = await save('cache_rules', 'demo-www', { rules: [{ type: 'suffix', value: '/a', ttl: 60, ignore_query: false }, { type: 'path', value: 'jpg', ttl: 60, ignore_query: false }, rule(1), rule(1)] });
    expect(res.json()).toMatchObject({
      error_code: 20001,
      errors: [
        { path: '/rules/0/value', message: '文件后缀只能包含字母和数字，不带点，多个后缀用英文逗号分隔，如 jpg,png' },
        { path: '/rules/1/value', message: '目录和路径须以 / 开头' },
        { path: '/rules/3/value', message: '与第 3 条规则重复' },
      ],
    });
  });

  it('is a setting of fusion services too, not of live ones', async () => {
    expect((await save('cache_rules', 'demo-fusion', { rules: [rule(1)] })).statusCode).toBe(200);
    expect((await save('cache_rules', 'demo-live', { rules: [] })).json()).toMatchObject({ error_code: 21201 });
  });
});

describe('access control, thumbnails, origins', () => {
  it('refuses more than 100 IPs with 21243 and saves 100', async () => {
    const ips = (n: number) => Array.from({ length: n }, (_, i) => `10.1.${i}.0/24`);
    expect((await save('ip_antileech', 'demo-www', { mode: 'blacklist', ips: ips(100) })).statusCode).toBe(200);
    expect((await save('ip_antileech', 'demo-www', { mode: 'blacklist', ips: ips(101) })).json()).toMatchObject({ error_code: 21243, message: 'IP 列表最多 100 条' });
    expect((await save('ip_antileech', 'demo-www', { mode: 'whitelist', ips: [] })).json()).toMatchObject({ error_code: 20001, errors: [{ path: '', message: '开启黑白名单时，请至少填写一个 IP' }] });
  });

  it('refuses more than 50 custom thumbnail versions with 21242 and repeated names', async () => {
    const v = (name: string) => ({ name, mode: 'fit', width: 100, height: 100, quality: 80, format: 'webp' });
    const many = Array.from({ length: 51 }, (_, i) => v(`v${i}`));
    expect((await save('thumb_versions', 'demo-assets', { separator: '!', versions: many })).json()).toMatchObject({ error_code: 21242, message: '自定义版本最多 50 个' });
    expect((await save('thumb_versions', 'demo-assets', { separator: '!', versions: [v('small'), v('Small')] })).json()).toMatchObject({ errors: [{ path: '/versions/1/name', message: '版本名称 Small 与第 1 个版本重复' }] });
    expect((await save('thumb_versions', 'demo-assets', { separator: '!', versions: many.slice(0, 50) })).statusCode).toBe(200);
  });

  it('needs a primary origin (21604) and at most 10 origins (21603)', async () => {
    const srv = (address: string, backup = false) => ({ address, port: 443, weight: 10, backup });
    const failover = { enable: true, timeout: 10, max_fails: 3 };
    const base = { protocol: 'https', host: '' , failover };
    expect((await save('origin', 'demo-www', { ...base, servers: [srv('1.1.1.1', true)] })).json()).toMatchObject({ error_code: 21604, message: '请至少配置一个主源站' });
    expect((await save('origin', 'demo-www', { ...base, servers: Array.from({ length: 11 }, (_, i) => srv(`1.1.1.${i}`)) })).json()).toMatchObject({ error_code: 21603 });
    expect((await save('origin', 'demo-www', { ...base, servers: [srv('o.example.com'), srv('O.example.com')] })).json()).toMatchObject({ errors: [{ path: '/servers/1/address', message: '与第 1 个源站重复' }] });
    const okRes = await save('origin', 'demo-global', { ...base, servers: [srv('1.1.1.1'), srv('2.2.2.2', true)] });
    expect(okRes.json()).toMatchObject({ summary: '回源 1.1.1.1 等 2 个地址', summary_intent: 'success' });
  });

  it('keeps the codes of other settings unchanged (a schema message that is no catalogue text is 20001)', async () => {
    const res = await save('error_pages', 'demo-www', { options: [{ code: [404], url: 'x' }] });
    expect(res.json()).toMatchObject({ error_code: 20001 });
  });
});

describe('the fusion CDN variants', () => {
  it('lists the fusion services and reads and writes their cache rules under the spec\'s paths', async () => {
    const list = (await c.get('/api/fusion/buckets')).json();
    expect(list.data.map((b: { bucket_name: string }) => b.bucket_name)).toEqual(['demo-fusion', 'demo-video']);
    expect(list.data[0].domains.length).toBeGreaterThan(0);
    const saved = await c.post('/api/fusion/cdn/cache', { bucket_name: 'demo-video', rules: [{ type: 'suffix', value: 'MP4', ttl: 86400, ignore_query: true }] });
    expect(saved.json()).toMatchObject({ data: { rules: [{ value: 'mp4' }] }, summary: '已配置' });
    // the same value as the settings engine's
    expect((await c.get('/api/settings/cache_rules/?bucket_name=demo-video')).json().data).toEqual(saved.json().data);
    expect((await c.get('/api/fusion/cdn/cache?bucket_name=demo-video')).json().data).toEqual(saved.json().data);
    expect((await c.post('/api/fusion/cdn/cache', { bucket_name: 'demo-video', rules: Array.from({ length: 51 }, (_, i) => rule(i)) })).json()).toMatchObject({ error_code: 21601 });
    expect((await c.get('/api/fusion/cdn/cache?bucket_name=demo-www')).json()).toMatchObject({ error_code: 21201 });
    const key = await new Client(s.app).signIn('demokey');
    expect((await key.get('/api/fusion/buckets')).json().data).toEqual([]);
  });
});

describe('compression in the edit widget', () => {
  it('opens a compressor that is off at level 5 and keeps the level of one that is on', () => {
    const prepared = compressionRules.prepare!({ status: 'enable', gzip: { disable: false, level: 1 }, br: { disable: true, level: 1 } }, { bucketName: 'demo-www', kind: 'cdn' });
    expect(prepared).toEqual({ status: 'enable', gzip: { disable: false, level: 1 }, br: { disable: true, level: 5 } });
  });

  it('still answers level 1 while nothing is stored', async () => {
    const res = (await c.get('/api/settings/compression/?bucket_name=demo-static')).json();
    expect(res.data.gzip.level).toBe(1);
  });
});

describe('the remark of a service', () => {
  it('changes it, logs it, and refuses a long one or another account\'s service', async () => {
    const res = await c.post('/api/buckets/info/', { bucket_name: 'demo-backup', remark: '  新的备注 ' });
    expect(res.json()).toMatchObject({ result: true, data: { bucket_name: 'demo-backup', remark: '新的备注' } });
    expect((await c.get('/api/buckets/info/?bucket_name=demo-backup')).json().data.remark).toBe('新的备注');
    expect((await c.post('/api/buckets/info/', { bucket_name: 'demo-backup', remark: '' })).json().data.remark).toBeNull();
    expect((await c.post('/api/buckets/info/', { bucket_name: 'demo-backup', remark: 'x'.repeat(61) })).json()).toMatchObject({ error_code: 20001, errors: [{ path: '/remark', message: '备注不能超过 60 个字符' }] });
    expect((await c.post('/api/buckets/info/', { bucket_name: 'secure-www', remark: 'x' })).json()).toMatchObject({ error_code: 21905 });
    const log = await s.db.selectFrom('operation_logs').select('action').where('action', '=', 'bucket.remark').execute();
    expect(log).toHaveLength(2);
  });
});

describe('cost control', () => {
  /** One 5-minute row for the service's first domain: `mbps` at `slot`. */
  async function traffic(bucket: string, slot: Date, mbps: number) {
    const d = await s.db.selectFrom('bucket_domains').innerJoin('buckets', 'buckets.id', 'bucket_domains.bucket_id').select(['bucket_domains.id', 'buckets.id as bucket_id', 'buckets.owner_id']).where('buckets.name', '=', bucket).orderBy('bucket_domains.id').executeTakeFirstOrThrow();
    await s.db.insertInto('traffic_5m').values({ domain_id: d.id, bucket_id: d.bucket_id, account_id: d.owner_id, flow_type: 'cdn', direction: '', slot, bytes: Math.round((mbps * 1e6 * 300) / 8) } as any).execute();
  }
  const status = async (name: string) => (await s.db.selectFrom('buckets').select('status').where('name', '=', name).executeTakeFirstOrThrow()).status;
  const messages = async (title: string) => (await s.db.selectFrom('messages').select('body').where('title', '=', title).execute()).map((m) => m.body);
  const slotOf = (t: Date) => new Date(Math.floor(t.getTime() / 300000) * 300000 - 300000);

  it('pauses a service over its cap, then resumes it when the cap is raised', async () => {
    const now = new Date();
    await traffic('demo-shop', slotOf(now), 120);
    expect(await latestBandwidth(s.db, (await s.db.selectFrom('buckets').select('id').where('name', '=', 'demo-shop').executeTakeFirstOrThrow()).id, now)).toMatchObject({ mbps: expect.closeTo(120, 5) });
    // off: nothing happens
    expect(await runCostControl(s.db, now)).toEqual({ paused: [], resumed: [], notified: [] });
    expect((await save('cost_control', 'demo-shop', { enable: true, bandwidth_cap_mbps: 100, action: 'pause', auto_resume: false })).statusCode).toBe(200);
    expect(await runCostControl(s.db, now)).toMatchObject({ paused: ['demo-shop'] });
    expect(await status('demo-shop')).toBe('PAUSED');
    expect(await messages('服务已因带宽封顶暂停')).toEqual([expect.stringContaining('服务 demo-shop 最近 5 分钟带宽 120.00 Mbps，超过上限 100 Mbps')]);
    // still over and still paused: no second pause, no second message
    expect(await runCostControl(s.db, now)).toEqual({ paused: [], resumed: [], notified: [] });
    expect(await messages('服务已因带宽封顶暂停')).toHaveLength(1);
    // the next midnight does not resume it without auto_resume
    expect((await runCostControl(s.db, new Date(nextBeijingMidnight(now).getTime() + 1000))).resumed).toEqual([]);
    // a cap still under the sample that paused it keeps it paused
    await save('cost_control', 'demo-shop', { enable: true, bandwidth_cap_mbps: 110, action: 'pause', auto_resume: false });
    expect(await status('demo-shop')).toBe('PAUSED');
    // raising the cap above it resumes at once, with the message, without waiting for the job (issue 34 item 15)
    await save('cost_control', 'demo-shop', { enable: true, bandwidth_cap_mbps: 200, action: 'pause', auto_resume: false });
    expect(await status('demo-shop')).toBe('NORMAL');
    expect(await messages('服务已恢复')).toEqual([expect.stringContaining('服务 demo-shop 已解除带宽封顶暂停')]);
    expect((await s.db.selectFrom('cost_control_state').select('paused').where('bucket_id', '=', (await s.db.selectFrom('buckets').select('id').where('name', '=', 'demo-shop').executeTakeFirstOrThrow()).id).executeTakeFirstOrThrow()).paused).toBe(false);
    // the job finds nothing left to resume, and tells no one twice
    expect(await runCostControl(s.db, now)).toEqual({ paused: [], resumed: [], notified: [] });
    expect(await messages('服务已恢复')).toHaveLength(1);
  });

  it('resumes at the next Beijing midnight with auto_resume, or when turned off', async () => {
    const now = new Date();
    await traffic('demo-pay', slotOf(now), 50);
    await save('cost_control', 'demo-pay', { enable: true, bandwidth_cap_mbps: 10, action: 'pause', auto_resume: true });
    expect((await runCostControl(s.db, now)).paused).toEqual(['demo-pay']);
    expect((await runCostControl(s.db, new Date(nextBeijingMidnight(now).getTime() - 1000))).resumed).toEqual([]);
    expect((await runCostControl(s.db, nextBeijingMidnight(now))).resumed).toEqual(['demo-pay']);
    expect((await runCostControl(s.db, now)).paused).toEqual(['demo-pay']);
    // turned off: resumed by the save itself
    await save('cost_control', 'demo-pay', { enable: false, bandwidth_cap_mbps: 10, action: 'pause', auto_resume: true });
    expect(await status('demo-pay')).toBe('NORMAL');
    expect((await runCostControl(s.db, now)).resumed).toEqual([]);
  });

  it('only tells the account once per excess in notify mode', async () => {
    const now = new Date();
    await traffic('demo-assets', slotOf(now), 30);
    await save('cost_control', 'demo-assets', { enable: true, bandwidth_cap_mbps: 20, action: 'notify', auto_resume: true });
    expect((await runCostControl(s.db, now)).notified).toEqual(['demo-assets']);
    expect((await runCostControl(s.db, now)).notified).toEqual([]);
    expect(await status('demo-assets')).toBe('NORMAL');
    // an old sample is not the latest bandwidth
    expect((await runCostControl(s.db, new Date(now.getTime() + 3600000))).notified).toEqual([]);
  });

  it('computes the next midnight in Beijing time', () => {
    expect(nextBeijingMidnight(new Date('2026-01-01T15:59:00Z')).toISOString()).toBe('2026-01-01T16:00:00.000Z');
    expect(nextBeijingMidnight(new Date('2026-01-01T16:00:00Z')).toISOString()).toBe('2026-01-02T16:00:00.000Z');
  });
});

describe('the CNAME check', () => {
  it('checks a wildcard domain through one of its names and tells a missing record from a timeout', async () => {
    const seen: string[] = [];
    const r = { resolveCname: async (h: string) => (seen.push(h), ['b.cdn-cname.example.net']) };
    expect(await checkCname(r, '*.example.com', 'B.cdn-cname.example.net.')).toEqual({ status: 'ok', resolved: ['b.cdn-cname.example.net'] });
    expect(seen).toEqual(['cname-check.example.com']);
    const failing = (code: string) => ({ resolveCname: async () => Promise.reject(Object.assign(new Error(code), { code })) });
    expect((await checkCname(failing('ENODATA'), 'a.example.com', 'x')).status).toBe('missing');
    expect((await checkCname(failing('ETIMEOUT'), 'a.example.com', 'x')).status).toBe('timeout');
    expect((await checkCname(failing('ESERVFAIL'), 'a.example.com', 'x')).status).toBe('error');
  });
});
