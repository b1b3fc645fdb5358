/**
 * Platform commands of external products and partner sign-in (docs/external-products.md):
 *   partner-app-add --app_id ID --name 名称 --redirect_prefix https://partner.example.com/callback
 *   partner-app-remove --app_id ID
 *   audit-account-add --username NAME      (the account holds an account on the external audit console)
 *   audit-account-remove --username NAME
 */
import type { PlatformCommand } from '../platform/command';
import { required } from '../platform/command';
import type { DB } from '../db';
import { APP_ID_PATTERN } from '../../shared/external';
import type {} from './tables';
import { announcementCommands } from './announcements';

async function mainAccount(db: DB, username: string) {
  const u = await db.selectFrom('users').select(['id', 'parent_id']).where('username', '=', username).executeTakeFirst();
  if (!u || u.parent_id !== null) throw new Error(`没有这个主账号：${username}`);
  return u.id;
}

export const externalCommands: PlatformCommand[] = [
  {
    name: 'partner-app-add',
    summary: '添加或更新一个合作应用（授权登录）',
    usage: '--app_id ID --name 名称 --redirect_prefix https://partner.example.com/callback',
    async run(db, args) {
      const appId = required(args, 'app_id');
      const name = required(args, 'name');
      const prefix = required(args, 'redirect_prefix');
      if (!APP_ID_PATTERN.test(appId)) throw new Error('app_id 仅限 3-64 位英文、数字、下划线和中划线');
      const u = new URL(prefix);
      if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('redirect_prefix 须为 http(s) 地址');
      if (!/^https?:\/\/[^/]+\//.test(prefix)) throw new Error('redirect_prefix 须包含主机名后的路径（至少一个 /），以免匹配到其他主机');
      await db
        .insertInto('partner_apps')
        .values({ app_id: appId, name, redirect_prefix: prefix })
        .onConflict((oc) => oc.column('app_id').doUpdateSet({ name, redirect_prefix: prefix }))
        .execute();
      return { app_id: appId, name, redirect_prefix: prefix };
    },
  },
  {
    name: 'partner-app-remove',
    summary: '删除一个合作应用',
    usage: '--app_id ID',
    async run(db, args) {
      const r = await db.deleteFrom('partner_apps').where('app_id', '=', required(args, 'app_id')).executeTakeFirst();
      return { removed: Number(r.numDeletedRows ?? 0) };
    },
  },
  {
    name: 'audit-account-add',
    summary: '为主账号开通外部内容审核控制台账号（菜单“内容审核”将打开外部控制台）',
    usage: '--username NAME',
    async run(db: DB, args) {
      const id = await mainAccount(db, required(args, 'username'));
      await db.insertInto('audit_accounts').values({ account_id: id }).onConflict((oc) => oc.column('account_id').doNothing()).execute();
      return { account_id: id, audit_account: true };
    },
  },
  {
    name: 'audit-account-remove',
    summary: '取消主账号的外部内容审核控制台账号',
    usage: '--username NAME',
    async run(db: DB, args) {
      const id = await mainAccount(db, required(args, 'username'));
      await db.deleteFrom('audit_accounts').where('account_id', '=', id).execute();
      return { account_id: id, audit_account: false };
    },
  },
  ...announcementCommands,
];
