import type { CurrentUser, Usage } from '../../shared/account';
import { maskMobile } from '../../shared/account';
import type { DB } from '../db';
import type { SessionUser } from './session';

/** The user object of spec 000 §3 as the console receives it. */
export function publicUser(
  u: Pick<SessionUser, 'id' | 'username' | 'email' | 'mobile' | 'status' | 'verify_status' | 'two_step' | 'parent_id' | 'permissions' | 'custom_prohibit_configuration' | 'overseas_acceleration_switch'> & { smart_compression?: boolean } & { account_status?: string },
): CurrentUser {
  return {
    user_id: u.id,
    username: u.username,
    mobile: maskMobile(u.mobile),
    email: u.email,
    status: u.status as CurrentUser['status'],
    verify_status: u.verify_status as CurrentUser['verify_status'],
    two_step: u.two_step,
    ...(u.parent_id !== null ? { child: { permissions: u.permissions } } : {}),
    overseas_acceleration_switch: Boolean(u.overseas_acceleration_switch),
    custom_prohibit_configuration: Boolean(u.custom_prohibit_configuration),
    smart_compression: Boolean(u.smart_compression),
    account_status: u.account_status ?? 'NORMAL',
  };
}

export async function usageOf(db: DB, accountId: number): Promise<Usage> {
  const row = await db
    .selectFrom('users')
    .select(['money', 'actual_charge', 'resource_flow_remain', 'pcdn_open', 'mingmou'])
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  const money = Number(row.money);
  const actual = Number(row.actual_charge);
  return {
    money,
    actual_charge: actual,
    gift: Math.round((money - actual) * 100) / 100,
    resource_flow_remain: Number(row.resource_flow_remain),
    // usage flags of spec 001 §3 (migration 0005_statistics)
    pcdn_open: Boolean(row.pcdn_open),
    mingmou: Boolean(row.mingmou),
  };
}

/** Sign-in accepts the account name, e-mail or mobile number (spec 000 §2.2). */
export async function findUserForSignin(db: DB, login: string) {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb.or([eb('username', '=', login), eb('email', '=', login), eb('mobile', '=', login)]))
    .orderBy('id')
    .executeTakeFirst();
}
