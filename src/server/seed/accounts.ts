/**
 * Demo data of the account section (docs/accounts.md): a few messages for demo in the message centre
 * (none is a platform announcement, so no popup covers the demo's pages), one operator with two
 * services, and demo's profile; two main accounts of their own for the browser tests of lost
 * password (demolost) and login verification (demosec), so those tests change no account another uses;
 * and demolocked, whose account_status is LOCKED (the file manager's block modal).
 */
import type { DB } from '../db';
import { hashPassword } from '../accounts/passwords';
import { notify } from '../messages/notify';

export async function seedAccounts(db: DB, demoId: number): Promise<void> {
  await notify(db, demoId, { category: 'feature', title: 'HTTP/3 功能上线', body: 'CDN 服务现已支持 HTTP/3（QUIC），可在服务的 HTTPS 配置中开启。', link: '/services/cdn/' });
  await notify(db, demoId, { category: 'market', title: '资源包限时优惠', body: '流量资源包限时 8 折，购买后立即生效。' });
  await notify(db, demoId, { category: 'feature', title: '欢迎使用消息中心', body: '平台公告、功能更新、市场活动与服务反馈都会出现在这里。打开一条消息即标为已读。' });
  const op = await db
    .insertInto('operators')
    .values({ account_id: demoId, name: 'demo_uploader', realname: '上传机器人', password_hash: await hashPassword('demo123456'), ak: 'DemoAccessKey0123456789abcdefXYZ', can_read: true, can_write: true, can_delete: false })
    .returning('id')
    .executeTakeFirstOrThrow();
  const buckets = await db.selectFrom('buckets').select('id').where('owner_id', '=', demoId).where('kind', '=', 'file').orderBy('id').limit(2).execute();
  for (const b of buckets) await db.insertInto('operator_buckets').values({ operator_id: op.id, bucket_id: b.id }).execute();
  const hash = await hashPassword('demo123456');
  for (const [username, mobile] of [['demolost', '13700137010'], ['demosec', '13700137011']]) {
    await db.insertInto('users').values({ username, email: `${username}@example.com`, mobile, password_hash: hash, verify_status: 'yes', parent_id: null, permissions: '[]' }).execute();
  }
  await db.updateTable('users').set({ profile: JSON.stringify({ contact_name: '张三', company: '示例科技有限公司', industry: '互联网' }) }).where('id', '=', demoId).execute();
  // demolocked: a verified main account whose account_status is LOCKED (npm run platform -- account-status),
  // with one file service: its file manager is blocked by the modal of spec 000 §2.11
  const locked = await db
    .insertInto('users')
    .values({ username: 'demolocked', email: 'demolocked@example.com', mobile: '13700137012', password_hash: hash, verify_status: 'yes', parent_id: null, permissions: '[]', account_status: 'LOCKED' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('buckets').values({ name: 'locked-files', owner_id: locked.id, kind: 'file', remark: '账号锁定时的文件服务' }).execute();
}
