/**
 * Referrals (docs/referrals.md): the invite address, an invited registration recorded for the inviter,
 * the list and detail, and the rebate rule (REFERRAL_RATE of each paid recharge within REFERRAL_DAYS,
 * credited once, into the billing rebates).
 */
import { startTestServer, Client, type TestServer } from './helpers';
import { inviteCodeOf } from '../../src/server/accounts/registration';
import { settleReferralRebates } from '../../src/server/referrals/settle';
import { REFERRAL_RATE } from '../../src/shared/referrals';

jest.setTimeout(120_000);
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ config: { smsOutboxApi: true } });
});
afterAll(async () => {
  await s.close();
});

const anon = () => new Client(s.app);

async function register(name: string, mobile: string, invite: string) {
  const c = anon();
  const next = await c.post('/accounts/manmachine/next', {});
  const { captcha_id } = next.json().data;
  const answer = (await c.get(`/api/dev/captcha/?captcha_id=${captcha_id}`)).json().data.answer;
  expect((await c.put('/accounts/verify_mobile/code/', { mobile, captcha_id, captcha: answer })).statusCode).toBe(200);
  const row = await s.db.selectFrom('sms_outbox').select('text').where('mobile', '=', mobile).orderBy('id', 'desc').executeTakeFirstOrThrow();
  const code = /(\d{6})/.exec(row.text)![1];
  return c.post('/accounts/register/', { username: name, password: 'newpass123', email: `${name}@qq.com`, mobile, code, invite });
}

async function paidRecharge(accountId: number, amount: number, paidAt = new Date()) {
  const o = await s.db
    .insertInto('billing_orders')
    .values({ order_no: `T${accountId}${Math.random().toString(36).slice(2, 10).toUpperCase()}`, account_id: accountId, user_id: accountId, kind: 'recharge', title: '账户充值', amount: amount.toFixed(2), status: 'success', paid_at: paidAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return o.id;
}

describe('referrals', () => {
  it('gives the invite address of the account', async () => {
    const demo = await new Client(s.app).signIn('demo');
    const id = (await s.db.selectFrom('users').select('id').where('username', '=', 'demo').executeTakeFirstOrThrow()).id;
    const res = await demo.get('/api/accounts/invite-url/');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ invite_code: inviteCodeOf(id), rate: REFERRAL_RATE, days: 365 });
    expect(res.json().data.url).toMatch(new RegExp(`/register/\\?invite=${inviteCodeOf(id)}$`));
  });

  it('lists an invited registration and credits the rebate of its recharges once, within the period only', async () => {
    const demo2fa = await s.db.selectFrom('users').select('id').where('username', '=', 'demo2fa').executeTakeFirstOrThrow();
    expect((await register('invited_one', '13700000101', inviteCodeOf(demo2fa.id))).statusCode).toBe(200);
    const invitee = await s.db.selectFrom('users').select(['id', 'invited_by', 'created_at']).where('username', '=', 'invited_one').executeTakeFirstOrThrow();
    expect(invitee.invited_by).toBe(demo2fa.id);

    const before = Number((await s.db.selectFrom('rebate_credits').select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount'), eb.val('0')).as('n')).where('account_id', '=', demo2fa.id).executeTakeFirstOrThrow()).n);
    await paidRecharge(invitee.id, 1000);
    // a recharge after the referral period earns nothing
    await paidRecharge(invitee.id, 500, new Date(new Date(invitee.created_at).getTime() + 366 * 86400_000));
    // a pending order earns nothing
    await s.db.insertInto('billing_orders').values({ order_no: `P${invitee.id}X`, account_id: invitee.id, kind: 'recharge', title: '账户充值', amount: '800.00', status: 'pending' }).execute();

    // demo2fa signs in with two-step verification: sign the session in through the table instead
    const list = await signedInAs(anon(), 'demo2fa').then((cl) => cl.get('/api/accounts/invitations/'));
    expect(list.statusCode).toBe(200);
    const data = list.json().data;
    expect(data.total).toBe(1);
    expect(data.rebate_total).toBe(50);
    expect(data.invitations[0]).toMatchObject({ invitee_id: invitee.id, username: 'in***e', verify_status: 'not', rebate: 50 });

    // credited once: another sweep adds nothing
    expect(await settleReferralRebates(s.db)).toBe(0);
    const after = Number((await s.db.selectFrom('rebate_credits').select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount'), eb.val('0')).as('n')).where('account_id', '=', demo2fa.id).executeTakeFirstOrThrow()).n);
    expect(after - before).toBe(50);
    const credit = await s.db.selectFrom('rebate_credits').selectAll().where('account_id', '=', demo2fa.id).where('source', '=', 'referral').executeTakeFirstOrThrow();
    expect(credit.remark).toContain('in***e');

    const detail = await signedInAs(anon(), 'demo2fa').then((cl) => cl.get(`/api/accounts/invitations/detail?invitee_id=${invitee.id}`));
    expect(detail.json().data.credits).toHaveLength(1);
    expect(detail.json().data.credits[0]).toMatchObject({ recharge: 1000, rebate: 50 });
    const post = await signedInAs(anon(), 'demo2fa').then((cl) => cl.post('/api/accounts/invitations/', { limit: 5 }));
    expect(post.json().data.invitations).toHaveLength(1);
  });

  it("refuses another account's invitee (27651) and shows an empty list to an account that invited no one", async () => {
    const demo = await new Client(s.app).signIn('demo');
    const invitee = await s.db.selectFrom('users').select('id').where('username', '=', 'invited_one').executeTakeFirstOrThrow();
    const res = await demo.get(`/api/accounts/invitations/detail?invitee_id=${invitee.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error_code).toBe(27651);
    const list = (await demo.get('/api/accounts/invitations/?limit=5')).json().data;
    expect(list.invitations.every((i: { invitee_id: number }) => i.invitee_id !== invitee.id)).toBe(true);
  });
});

/** A session for a user without going through two-step sign-in. */
async function signedInAs(c: Client, username: string): Promise<Client> {
  if (username !== 'demo2fa') return c.signIn(username);
  await s.db.updateTable('users').set({ two_step: false }).where('username', '=', username).execute();
  try {
    return await c.signIn(username);
  } finally {
    await s.db.updateTable('users').set({ two_step: true }).where('username', '=', username).execute();
  }
}
