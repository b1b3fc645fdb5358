/**
 * An account's standing (docs/accounts.md "Blocked accounts and the account's standing"): a blocked user
 * is signed out at its next request (spec 000 §3, §4 "user.status blocked forces sign-out"), and the
 * account_status that blocks the file manager (spec 000 §2.11) is set by a platform command.
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { PLATFORM_COMMANDS } from '../../src/server/platform/commands';
import { hashPassword } from '../../src/server/accounts/passwords';

jest.setTimeout(120_000);
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.close();
});

const run = (name: string, args: Record<string, string>) => PLATFORM_COMMANDS.find((c) => c.name === name)!.run(s.db, args);

describe('a blocked user', () => {
  it('is signed out at its next request: every session ends, the cookie is cleared, the answer carries user.status blocked', async () => {
    await s.db.insertInto('users').values({ username: 'blockme', email: null, mobile: null, password_hash: await hashPassword('secret123'), verify_status: 'yes', parent_id: null, permissions: '[]' }).execute();
    const id = (await s.db.selectFrom('users').select('id').where('username', '=', 'blockme').executeTakeFirstOrThrow()).id;
    const a = await new Client(s.app).signIn('blockme', 'secret123');
    const b = await new Client(s.app).signIn('blockme', 'secret123');
    expect((await a.get('/api/accounts/v2/usage/')).statusCode).toBe(200);

    expect(await run('account-block', { username: 'blockme' })).toEqual({ username: 'blockme', status: 'blocked' });
    const res = await a.get('/api/accounts/v2/usage/');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual(expect.objectContaining({ result: false, error_code: 21104, message: '账号已被冻结，请联系客服', user: { status: 'blocked' } }));
    expect(String(res.headers['set-cookie'])).toMatch(/^sid=;/);
    expect(await s.db.selectFrom('sessions').select('id').where('user_id', '=', id).execute()).toEqual([]);
    // the other session is gone too: it is signed out, not blocked again
    expect((await b.get('/api/accounts/v2/usage/')).json().error_code).toBe(21110);
    // and signing in is refused until the platform unblocks
    expect((await new Client(s.app).post('/accounts/signin/', { username: 'blockme', password: 'secret123' })).json().error_code).toBe(21104);
    await run('account-block', { username: 'blockme', unblock: 'true' });
    expect((await new Client(s.app).post('/accounts/signin/', { username: 'blockme', password: 'secret123' })).statusCode).toBe(200);
  });
});

describe('account_status (spec 000 §3) and the file manager', () => {
  it('demolocked is LOCKED: the user says so, file management is refused with 27108; NORMAL lets it in', async () => {
    const c = await new Client(s.app).signIn('demolocked');
    expect((await c.get('/api/accounts/v2/usage/')).json().user.account_status).toBe('LOCKED');
    const refused = await c.get('/folder/locked-files/');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual(expect.objectContaining({ error_code: 27108, message: '账号处于禁用、冻结或锁定状态，暂时无法管理文件' }));
    expect((await c.post('/folder/locked-files/docs/', {})).json().error_code).toBe(27108);
    const bucket = await s.db.selectFrom('buckets').select('id').where('name', '=', 'locked-files').executeTakeFirstOrThrow();
    expect(await s.db.selectFrom('file_objects').select('id').where('bucket_id', '=', bucket.id).execute()).toEqual([]);

    expect(await run('account-status', { username: 'demolocked', status: 'normal' })).toEqual({ username: 'demolocked', account_status: 'NORMAL' });
    expect((await c.get('/api/accounts/v2/usage/')).json().user.account_status).toBe('NORMAL');
    expect((await c.get('/folder/locked-files/')).statusCode).toBe(200);
    for (const status of ['DISABLED', 'BLOCKED', 'LOCKED']) {
      await run('account-status', { username: 'demolocked', status });
      expect((await c.get('/folder/locked-files/')).json().error_code).toBe(27108);
    }
  });

  it('the command refuses an unknown status and a sub-account', async () => {
    await expect(run('account-status', { username: 'demolocked', status: 'FROZEN' })).rejects.toThrow('--status 只能是 NORMAL、DISABLED、BLOCKED、LOCKED');
    await expect(run('account-status', { username: 'demo_ops', status: 'LOCKED' })).rejects.toThrow('没有这个主账号');
  });

  it("a sub-account shares its main account's account_status", async () => {
    await run('account-status', { username: 'demo', status: 'DISABLED' });
    try {
      const ops = await new Client(s.app).signIn('demo_ops');
      expect((await ops.get('/api/accounts/v2/usage/')).json().user.account_status).toBe('DISABLED');
    } finally {
      await run('account-status', { username: 'demo', status: 'NORMAL' });
    }
  });
});
