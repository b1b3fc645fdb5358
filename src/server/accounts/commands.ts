/**
 * The account section's platform commands (npm run platform -- help):
 *
 *   account-verify   --username NAME --decision approve|reject [--reason TEXT]
 *   message-publish  --title T --body B [--category system|feature|market|…] [--link /path/] (--all | --accounts a,b)
 */
import type { PlatformCommand } from '../platform/command';
import { required } from '../platform/command';
import { reviewVerification } from './security';
import { notify } from '../messages/notify';
import { MESSAGE_CATEGORIES, type MessageCategory } from '../../shared/messages';

export const accountCommands: PlatformCommand[] = [
  {
    name: 'account-verify',
    summary: '审核实名认证：通过（verify_status 置为 yes）或驳回，并给账号发消息',
    usage: '--username 账号 --decision approve|reject [--reason 驳回原因]',
    async run(db, args) {
      const decision = required(args, 'decision');
      if (decision !== 'approve' && decision !== 'reject') throw new Error('--decision 只能是 approve 或 reject');
      return reviewVerification(db, required(args, 'username'), decision, args.reason);
    },
  },
  {
    name: 'message-publish',
    summary: '向全部或部分主账号发布一条消息（消息中心）',
    usage: '--title 标题 --body 正文 [--category system|feature|market|service|…] [--link /路径/] (--all | --accounts 账号1,账号2)',
    async run(db, args) {
      const category = (args.category ?? 'system') as MessageCategory;
      if (!(category in MESSAGE_CATEGORIES)) throw new Error(`--category 只能是 ${Object.keys(MESSAGE_CATEGORIES).join('、')}`);
      let q = db.selectFrom('users').select(['id', 'username']).where('parent_id', 'is', null);
      if (args.all !== 'true') {
        const names = required(args, 'accounts').split(',').map((s) => s.trim()).filter(Boolean);
        q = q.where('username', 'in', names);
      }
      const users = await q.execute();
      for (const u of users) await notify(db, u.id, { category, title: required(args, 'title'), body: required(args, 'body'), link: args.link });
      return { published: users.length, accounts: users.map((u) => u.username) };
    },
  },
];
