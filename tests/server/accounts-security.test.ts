/**
 * The account's own pages through the API (spec 000 §2.4, §2.6, §2.7, §5, §6, §8; docs/accounts.md):
 * password, mobile and e-mail changes, login verification and its requirement, profile, real-name
 * verification with photos checked by content and size and its platform review, and operators.
 * Every route here is for main accounts only.
 */
import { deflateSync } from 'node:zlib';
import { startTestServer, Client, type TestServer } from './helpers';
import { hashPassword } from '../../src/server/accounts/passwords';
import { reviewVerification } from '../../src/server/accounts/security';
import { accountCommands } from '../../src/server/accounts/commands';
import { errorText } from '../../src/shared/errors';
import { PHOTO_MAX_BYTES } from '../../src/shared/security';

jest.setTimeout(180_000);
let s: TestServer;
let demo: Client;
beforeAll(async () => {
  s = await startTestServer();
  demo = await new Client(s.app).signIn('demo');
});
afterAll(async () => {
  await s.close();
});

/** A main account made for one test. */
async function account(name: string, extra: Record<string, unknown> = {}): Promise<Client> {
  await s.db
    .insertInto('users')
    .values({ username: name, email: `${name}@example.com`, mobile: null, password_hash: await hashPassword('demo123456'), parent_id: null, permissions: '[]', ...extra })
    .execute();
  return new Client(s.app).signIn(name);
}

const del = (c: Client, url: string, payload: unknown) => c.request({ method: 'DELETE', url, payload: payload as object });
const smsCode = async (mobile: string) => /(\d{6})/.exec((await s.db.selectFrom('sms_outbox').select('text').where('mobile', '=', mobile).orderBy('id', 'desc').executeTakeFirstOrThrow()).text)![1];

describe('security', () => {
  it('changes the password with the old one (21114 otherwise) and ends the other sessions', async () => {
    const c = await account('sec_pass');
    const other = await new Client(s.app).signIn('sec_pass');
    const wrong = await c.post('/api/accounts/password/', { old_password: 'nope', password: 'newpass123' });
    expect(wrong.json()).toMatchObject({ error_code: 21114, errors: [{ path: '/old_password', message: '原密码错误' }] });
    const digits = await c.post('/api/accounts/password/', { old_password: 'demo123456', password: '123456789' });
    expect(digits.json().errors).toEqual([{ path: '/password', message: '为了账号安全，不允许使用全数字密码' }]);
    expect((await c.post('/api/accounts/password/', { old_password: 'demo123456', password: 'newpass123' })).json().result).toBe(true);
    expect((await c.get('/api/accounts/security/')).statusCode).toBe(200);
    expect((await other.get('/api/accounts/security/')).statusCode).toBe(401);
    await new Client(s.app).signIn('sec_pass', 'newpass123');
  });

  it('binds a mobile with its code; login verification needs a verified mobile and e-mail (21118)', async () => {
    const c = await account('sec_mobile', { email_verified: false });
    const off = await c.get('/api/accounts/security/');
    expect(off.json().data).toEqual({ username: 'sec_mobile', mobile: null, mobile_verified: false, email: 'sec_mobile@example.com', email_verified: false, two_step: false });
    const refused = await c.post('/api/accounts/two_step_verify/status', { status: 'enable' });
    expect(refused.json()).toMatchObject({ error_code: 21118, message: errorText(21118) });

    expect((await c.put('/api/accounts/authentication/mobile/', { mobile: '13800138000' })).json().error_code).toBe(21116);
    expect((await c.put('/api/accounts/authentication/mobile/', { mobile: '13600000001' })).json()).toMatchObject({ result: true, mobile: '136****0001' });
    expect((await c.put('/api/accounts/authentication/mobile/', { mobile: '13600000001' })).json().error_code).toBe(23701);
    expect((await c.post('/api/accounts/mobile/', { mobile: '13600000001', code: '000000' === (await smsCode('13600000001')) ? '111111' : '000000' })).json().error_code).toBe(21102);
    expect((await c.post('/api/accounts/mobile/', { mobile: '13600000001', code: await smsCode('13600000001') })).json().result).toBe(true);

    // the e-mail: a link, then verified
    const link = await c.put('/api/accounts/authentication/email/', { callback: '/register/activate/?token={token}&account_id={account_id}' });
    expect(link.json()).toMatchObject({ result: true, data: { email: 'sec_mobile@example.com' } });
    const text = (await s.db.selectFrom('email_outbox').select('text').where('email', '=', 'sec_mobile@example.com').orderBy('id', 'desc').executeTakeFirstOrThrow()).text;
    const url = new URL(/https?:\/\/\S+/.exec(text)![0]);
    expect((await new Client(s.app).post('/accounts/authentication/email/', { token: url.searchParams.get('token'), account_id: Number(url.searchParams.get('account_id')) })).json().result).toBe(true);
    expect((await c.put('/api/accounts/authentication/email/', {})).json().error_code).toBe(21131);

    expect((await c.post('/api/accounts/two_step_verify/status', { status: 'enable' })).json()).toMatchObject({ result: true, two_step: true });
    expect((await new Client(s.app).get('/accounts/two_step_verify/status/?username=sec_mobile')).json().result).toBe(true);
    const noCode = await new Client(s.app).post('/accounts/signin/', { username: 'sec_mobile', password: 'demo123456' });
    expect(noCode.json().error_code).toBe(21109);
    expect((await c.post('/api/accounts/two_step_verify/status', { status: 'disable' })).json().two_step).toBe(false);
    const log = (await c.get('/api/logs/')).json().data.map((e: any) => e.action);
    expect(log).toEqual(expect.arrayContaining(['account.mobile', 'account.two_step.enable', 'account.two_step.disable']));
  });

  it('a callback outside the site is refused', async () => {
    const c = await account('sec_cb', { email_verified: false });
    const res = await c.put('/api/accounts/authentication/email/', { callback: 'https://evil.example.com/?t={token}&a={account_id}' });
    expect(res.json().error_code).toBe(20001);
  });

  it('changing the e-mail makes it unverified and refuses a taken one (21115)', async () => {
    const c = await account('sec_mail');
    expect((await c.post('/api/accounts/email/', { email: 'demo@example.com' })).json().error_code).toBe(21115);
    expect((await c.post('/api/accounts/email/', { email: 'bad' })).json().errors).toEqual([{ path: '/email', message: '请输入正确的邮箱地址' }]);
    expect((await c.post('/api/accounts/email/', { email: 'sec_mail_new@example.com' })).json().result).toBe(true);
    expect((await c.get('/api/accounts/security/')).json().data).toMatchObject({ email: 'sec_mail_new@example.com', email_verified: false });
  });

  it('sub-accounts reach none of it (parent-only)', async () => {
    const ops = await new Client(s.app).signIn('demo_ops');
    for (const url of ['/api/accounts/security/', '/accounts/profile/', '/api/operators/', '/api/accounts/certificate/']) {
      expect((await ops.get(url)).json().error_code).toBe(21111);
    }
  });
});

/** A valid tiny PNG. */
function png(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    return Buffer.concat([len, Buffer.from(type), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.from([0, 0]))), chunk('IEND', Buffer.alloc(0))]);
}

function multipart(fields: Record<string, string>, files: Record<string, { name: string; type: string; bytes: Buffer }>) {
  const boundary = '----helperc' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  for (const [k, f] of Object.entries(files)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`), f.bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const upload = (c: Client, fields: Record<string, string>, files: Record<string, { name: string; type: string; bytes: Buffer }>) =>
  c.request({ method: 'POST', url: '/accounts/identity/certificate/', ...multipart(fields, files) });

describe('profile and real-name verification', () => {
  it('saves the profile by its declaration', async () => {
    const c = await account('prof_user');
    expect((await c.post('/accounts/profile/', { qq: '12' })).json().errors).toEqual([{ path: '/qq', message: '请输入正确的 QQ 号' }]);
    expect((await c.post('/accounts/profile/', { contact_name: ' 王五 ', company: '示例公司', qq: '123456' })).json().result).toBe(true);
    const got = (await c.get('/accounts/profile/')).json().data;
    expect(got).toMatchObject({ username: 'prof_user', verify_status: 'not', profile: { contact_name: '王五', company: '示例公司', qq: '123456' }, verification: { status: 'none' } });
  });

  it('checks photos by content and size, then waits for the platform review', async () => {
    const c = await account('verify_user');
    const fields = { kind: 'personal', name: '张三', id_number: '11010519491231002x' };
    const text = await upload(c, fields, { front: { name: 'a.png', type: 'image/png', bytes: Buffer.from('not an image at all, only text') }, back: { name: 'b.png', type: 'image/png', bytes: png() } });
    expect(text.json()).toMatchObject({ error_code: 21123, message: '仅支持 .jpg .jpeg .bmp .gif .png 格式', errors: [{ path: '/front' }] });
    const big = Buffer.concat([png(), Buffer.alloc(PHOTO_MAX_BYTES)]);
    const tooBig = await upload(c, fields, { front: { name: 'a.png', type: 'image/png', bytes: big }, back: { name: 'b.png', type: 'image/png', bytes: png() } });
    expect(tooBig.json()).toMatchObject({ error_code: 21124, message: '照片大小不超过5M' });
    const missing = await upload(c, fields, { front: { name: 'a.png', type: 'image/png', bytes: png() } });
    expect(missing.json().errors).toEqual([{ path: '/back', message: '请上传身份证国徽面照片' }]);
    const badId = await upload(c, { ...fields, id_number: '123' }, { front: { name: 'a.png', type: 'image/png', bytes: png() }, back: { name: 'b.png', type: 'image/png', bytes: png() } });
    expect(badId.json().errors).toEqual([{ path: '/id_number', message: '请输入 18 位身份证号' }]);
    // a GIF named .txt is an image by its content
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'binary');
    const okRes = await upload(c, fields, { front: { name: 'front.txt', type: 'text/plain', bytes: gif }, back: { name: 'b.png', type: 'image/png', bytes: png() } });
    expect(okRes.json()).toMatchObject({ result: true, data: { status: 'pending' } });
    expect((await c.get('/api/accounts/certificate/')).json().data).toMatchObject({ status: 'pending', kind: 'personal', name: '张三', id_number: '1101**********002X' });
    const twice = await upload(c, fields, { front: { name: 'a.png', type: 'image/png', bytes: png() }, back: { name: 'b.png', type: 'image/png', bytes: png() } });
    expect(twice.json().error_code).toBe(21121);

    await expect(reviewVerification(s.db, 'verify_user', 'reject')).rejects.toThrow('--reason');
    const verify = accountCommands.find((x) => x.name === 'account-verify')!;
    expect(await verify.run(s.db, { username: 'verify_user', decision: 'reject', reason: '照片模糊' })).toMatchObject({ status: 'rejected' });
    expect((await c.get('/api/accounts/certificate/')).json().data).toMatchObject({ status: 'rejected', reason: '照片模糊' });
    const company = await upload(c, { kind: 'company', name: '示例科技有限公司', id_number: '91350100M000100Y43', legal_person: '李四' }, { license: { name: 'l.jpg', type: 'image/jpeg', bytes: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]) } });
    expect(company.json().result).toBe(true);
    await verify.run(s.db, { username: 'verify_user', decision: 'approve' });
    expect((await c.get('/accounts/profile/')).json().data).toMatchObject({ verify_status: 'yes', verification: { status: 'approved', kind: 'company' } });
    const msgs = await s.db.selectFrom('messages as m').innerJoin('users as u', 'u.id', 'm.account_id').select(['m.title']).where('u.username', '=', 'verify_user').execute();
    expect(msgs.map((m) => m.title)).toEqual(['实名认证未通过', '实名认证已通过']);
    const images = await s.db.selectFrom('identity_images').select(['field', 'mime']).orderBy('id').execute();
    expect(images.slice(-3)).toEqual([{ field: 'front', mime: 'image/gif' }, { field: 'back', mime: 'image/png' }, { field: 'license', mime: 'image/jpeg' }]);
  });
});

describe('operators', () => {
  const op = (name: string, extra: Record<string, unknown> = {}) => ({
    operator_name: name,
    password: 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z',
    ak: 'K3y0fThirtyTwoLettersAndDigits12',
    operator_auth: { read: true, write: false, delete: false },
    ...extra,
  });

  it('creates, checks names, lists enabled first then by name, edits, disables and deletes', async () => {
    const c = await account('op_owner');
    const a = await c.put('/api/operators/', op('zeta_op'));
    expect(a.json()).toMatchObject({ result: true, data: { operator_id: expect.any(Number) } });
    await c.put('/api/operators/', op('alpha_op', { realname: '上传机器人' }));
    await c.put('/api/operators/', op('mid_op'));
    expect((await c.get('/api/operators/info/?operator_name=alpha_op')).json().result).toBe(true);
    // another account is not told the name exists (issue 34 item 10)
    expect((await demo.get('/api/operators/info/?operator_name=alpha_op')).json().result).toBe(false);
    expect((await c.get('/api/operators/info/?operator_name=nope_op')).json().result).toBe(false);
    // names are unique across accounts
    expect((await demo.put('/api/operators/', op('alpha_op'))).json()).toMatchObject({ error_code: 21125, errors: [{ path: '/operator_name', message: '操作员名称已存在' }] });
    expect((await c.put('/api/operators/', op('none_op', { operator_auth: { read: false, write: false, delete: false } }))).json().errors).toEqual([{ path: '/operator_auth', message: '读取、写入、删除权限至少选择一项' }]);
    expect((await c.put('/api/operators/', op('nopass_op', { password: undefined }))).json().errors).toEqual([{ path: '/password', message: '密码不能为空' }]);

    expect((await c.post('/api/operators/disable/', { operator_name: 'alpha_op' })).json().result).toBe(true);
    let list = (await c.get('/api/operators/')).json().data;
    expect(list.map((o: any) => [o.operator_name, o.status])).toEqual([['mid_op', 'enabled'], ['zeta_op', 'enabled'], ['alpha_op', 'disabled']]);
    expect(list.find((o: any) => o.operator_name === 'zeta_op').realname).toBe('zeta_op'); // remark defaults to the name
    expect(JSON.stringify(list)).not.toContain('password');

    const id = a.json().data.operator_id;
    const before = await s.db.selectFrom('operators').select('password_hash').where('id', '=', id).executeTakeFirstOrThrow();
    expect((await c.post('/api/operators/', { operator_id: id, realname: '运维', ak: 'K3y0fThirtyTwoLettersAndDigits12', operator_auth: { read: true, write: true, delete: true } })).json().result).toBe(true);
    const after = await s.db.selectFrom('operators').select(['password_hash', 'can_delete', 'realname']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(after).toEqual({ password_hash: before.password_hash, can_delete: true, realname: '运维' });
    expect((await c.post('/api/operators/', { operator_id: id, operator_name: 'renamed_op', ak: 'K3y0fThirtyTwoLettersAndDigits12', operator_auth: { read: true, write: false, delete: false } })).json().error_code).toBe(20001);
    // another account's operator is not found
    expect((await demo.post('/api/operators/enable/', { operator_name: 'alpha_op' })).json().error_code).toBe(21126);
    expect((await del(demo, '/api/operators/', { operator_id: id })).json().error_code).toBe(21126);
    expect((await del(c, '/api/operators/', { operator_id: id })).json().result).toBe(true);
    list = (await c.get('/api/operators/')).json().data;
    expect(list.map((o: any) => o.operator_name)).toEqual(['mid_op', 'alpha_op']);
    const log = (await c.get('/api/logs/')).json().data.map((e: any) => e.action);
    expect(log).toEqual(expect.arrayContaining(['operator.create', 'operator.update', 'operator.disable', 'operator.delete']));
  });

  it('binds services with paging by 5 and deprives one', async () => {
    await demo.put('/api/operators/', op('bind_op'));
    const opId = (await s.db.selectFrom('operators').select('id').where('name', '=', 'bind_op').executeTakeFirstOrThrow()).id;
    const buckets = await s.db.selectFrom('buckets as b').innerJoin('users as u', 'u.id', 'b.owner_id').select(['b.id', 'b.name']).where('u.username', '=', 'demo').orderBy('b.id').limit(7).execute();
    for (const b of buckets) expect((await demo.put('/api/operators/buckets/binding/', { operator_id: opId, bucket_id: b.id })).json().result).toBe(true);
    expect((await demo.put('/api/operators/buckets/binding/', { operator_id: opId, bucket_id: buckets[0].id })).json().error_code).toBe(21128);
    const other = await account('op_other');
    await other.put('/api/operators/', op('other_op'));
    const otherId = (await s.db.selectFrom('operators').select('id').where('name', '=', 'other_op').executeTakeFirstOrThrow()).id;
    expect((await other.put('/api/operators/buckets/binding/', { operator_id: otherId, bucket_id: buckets[0].id })).json().error_code).toBe(21905);

    const page1 = (await demo.get(`/api/operators/buckets/?operator_id=${opId}`)).json();
    expect(page1.data.map((b: any) => b.bucket_name)).toEqual(buckets.slice(0, 5).map((b) => b.name));
    expect(page1.pager.max).not.toBeNull();
    const page2 = (await demo.get(`/api/operators/buckets/?operator_id=${opId}&max=${page1.pager.max}`)).json();
    expect(page2.data.map((b: any) => b.bucket_name)).toEqual(buckets.slice(5).map((b) => b.name));

    expect((await del(demo, '/api/operators/buckets/binding/', { operator_name: 'bind_op', bucket_name: buckets[0].name })).json().result).toBe(true);
    expect((await del(demo, '/api/operators/buckets/binding/', { operator_name: 'bind_op', bucket_name: buckets[0].name })).json().error_code).toBe(21127);
    expect((await demo.get('/api/operators/')).json().data.find((o: any) => o.operator_name === 'bind_op').buckets).toBe(6);
  });
});
