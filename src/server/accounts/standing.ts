/**
 * An account's standing, set by the platform (npm run platform -- help):
 *
 *   account-status  --username NAME --status NORMAL|DISABLED|BLOCKED|LOCKED
 *       spec 000 §3 account_status: the account's standing for its services. While it is DISABLED, BLOCKED
 *       or LOCKED the file manager is blocked by a modal (spec 000 §2.11) and file management is refused
 *       with 27108; signing in still works. Sub-accounts share their main account's.
 *   account-block   --username NAME [--unblock]
 *       users.status blocked: "a value blocked forces sign-out" (spec 000 §3, §4). Every session of the
 *       account ends at its next request, which answers 21104 with user.status blocked (the console signs
 *       out and says so once); signing in is refused with 21104 until --unblock.
 */
import type { PlatformCommand } from '../platform/command';
import { required } from '../platform/command';
import { ACCOUNT_STATUSES, type AccountStatus } from '../../shared/files';

export const standingCommands: PlatformCommand[] = [
  {
    name: 'account-status',
    summary: '设置账号的服务状态 account_status（NORMAL、DISABLED、BLOCKED、LOCKED；非 NORMAL 时文件管理被拦截）',
    usage: '--username 主账号 --status NORMAL|DISABLED|BLOCKED|LOCKED',
    async run(db, args) {
      const status = required(args, 'status').toUpperCase() as AccountStatus;
      if (!ACCOUNT_STATUSES.includes(status)) throw new Error(`--status 只能是 ${ACCOUNT_STATUSES.join('、')}`);
      const username = required(args, 'username');
      const row = await db.updateTable('users').set({ account_status: status }).where('username', '=', username).where('parent_id', 'is', null).returning(['id']).executeTakeFirst();
      if (!row) throw new Error(`没有这个主账号：${username}`);
      return { username, account_status: status };
    },
  },
  {
    name: 'account-block',
    summary: '封禁账号（users.status 置为 blocked：已登录的会话在下一次请求时结束，登录被拒绝）或用 --unblock 解封',
    usage: '--username 账号 [--unblock]',
    async run(db, args) {
      const username = required(args, 'username');
      const status = args.unblock === 'true' ? 'normal' : 'blocked';
      const row = await db.updateTable('users').set({ status }).where('username', '=', username).returning(['id']).executeTakeFirst();
      if (!row) throw new Error(`没有这个账号：${username}`);
      return { username, status };
    },
  },
];
