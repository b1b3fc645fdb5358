/**
 * The demo data of the first start: accounts demo and demo2fa (password demo123456) and, for demo,
 * two services of every kind with domains; demo's sub-account demo_ops (CDN and statistics on the
 * granted service demo-www) and the unverified main account demonew. Runs only on an empty users table.
 */
import type { DB } from '../db';
import { hashPassword } from '../accounts/passwords';
import { seedAccounts } from './accounts';
import { seedDemoCertificate } from '../certificates/seed';
import { seedAccessLogs } from './accesslogs';
import { seedDdosAndLive } from './ddos-live';
import { seedDemoFiles } from './files';
import { seedBillingMoney, seedOtherBalances } from './billing-money';
import { seedBilling } from './billing';
import { seedExternal } from './external';
import { SERVICE_KINDS, type ServiceKind } from '../../shared/services';

export const DEMO_PASSWORD = 'demo123456';

const NAMES: Record<ServiceKind, [string, string]> = {
  file: ['demo-assets', 'demo-backup'],
  cdn: ['demo-www', 'demo-static'],
  scdn: ['demo-shop', 'demo-pay'],
  live: ['demo-live', 'demo-class'],
  websocket: ['demo-chat', 'demo-push'],
  overseas: ['demo-global', 'demo-eu'],
  fusion: ['demo-fusion', 'demo-video'],
};

const REMARKS: Record<ServiceKind, [string, string]> = {
  file: ['官网静态资源', '数据备份'],
  cdn: ['官网加速', '静态资源加速'],
  scdn: ['商城安全加速', '支付页面'],
  live: ['直播活动', '在线课堂'],
  websocket: ['客服聊天', '消息推送'],
  overseas: ['海外官网', '欧洲站点'],
  fusion: ['融合加速', '视频点播'],
};

export async function seedDemo(db: DB): Promise<boolean> {
  const existing = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (existing) return false;
  const hash = await hashPassword(DEMO_PASSWORD);
  const demo = await db
    .insertInto('users')
    .values({ username: 'demo', email: 'demo@example.com', mobile: '13800138000', password_hash: hash, verify_status: 'yes', two_step: false, parent_id: null, permissions: '[]', resource_flow_remain: 500 * 1024 ** 3, smart_compression: true })
    .returning('id')
    .executeTakeFirstOrThrow();
  const twofa = await db
    .insertInto('users')
    .values({ username: 'demo2fa', email: 'demo2fa@example.com', mobile: '13912345678', password_hash: hash, verify_status: 'yes', two_step: true, parent_id: null, permissions: '[]' })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const kind of SERVICE_KINDS) {
    for (let i = 0; i < 2; i++) {
      const name = NAMES[kind][i];
      const b = await db
        .insertInto('buckets')
        .values({ name, owner_id: demo.id, kind, remark: REMARKS[kind][i], storage_used: kind === 'file' ? (i + 1) * 3_221_225_472 : 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      const host = `${name.replace(/^demo-/, '')}.demo-example.com`;
      await db.insertInto('bucket_domains').values({ bucket_id: b.id, domain: host, cname: `${name}.cdn-cname.example.net` }).execute();
      if (i === 0) await db.insertInto('bucket_domains').values({ bucket_id: b.id, domain: `img-${host}`, cname: `${name}.cdn-cname.example.net` }).execute();
    }
  }
  // more CDN services, so the list pages
  for (let i = 1; i <= 10; i++) {
    const name = `demo-cdn-${String(i).padStart(2, '0')}`;
    const b = await db.insertInto('buckets').values({ name, owner_id: demo.id, kind: 'cdn', remark: `活动页面 ${i}` }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('bucket_domains').values({ bucket_id: b.id, domain: `act${i}.demo-example.com`, cname: `${name}.cdn-cname.example.net` }).execute();
  }
  // demokey: a key customer whose configuration is locked (spec 000 §5)
  const key = await db
    .insertInto('users')
    .values({ username: 'demokey', email: 'demokey@example.com', mobile: '13700137000', password_hash: hash, verify_status: 'yes', two_step: false, parent_id: null, permissions: '[]', custom_prohibit_configuration: true })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [name, kind, remark] of [['key-www', 'cdn', '重要客户官网'], ['key-assets', 'file', '重要客户静态资源'], ['key-shop', 'scdn', '重要客户商城']] as const) {
    const b = await db.insertInto('buckets').values({ name, owner_id: key.id, kind, remark }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('bucket_domains').values({ bucket_id: b.id, domain: `${name.replace(/^key-/, '')}.key-example.com`, cname: `${name}.cdn-cname.example.net` }).execute();
  }
  // overseas services that are not ready yet (spec 000 §2.11)
  for (const [name, status, remark] of [['demo-sg', 'PENDING', '新加坡站点（待验证）'], ['demo-us', 'DEPLOYING', '美国站点（部署中）']] as const) {
    await db.insertInto('buckets').values({ name, owner_id: demo.id, kind: 'overseas', remark, status }).execute();
  }
  // demo2fa owns one service, so isolation between accounts can be seen
  const other = await db.insertInto('buckets').values({ name: 'secure-www', owner_id: twofa.id, kind: 'cdn', remark: '另一账号的服务' }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('bucket_domains').values({ bucket_id: other.id, domain: 'www.secure-example.com', cname: 'secure-www.cdn-cname.example.net' }).execute();
  // demo_ops: a sub-account of demo with CDN and statistics, limited to one granted CDN service (spec 000 §6)
  const ops = await db
    .insertInto('users')
    .values({ username: DEMO_SUBACCOUNT, email: null, mobile: null, password_hash: hash, verify_status: 'yes', two_step: false, parent_id: demo.id, nickname: '运维同事', permissions: JSON.stringify(['cdn', 'stats', 'authorized_service']), money: 0, actual_charge: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const granted = await db.selectFrom('buckets').select('id').where('name', '=', DEMO_SUBACCOUNT_BUCKET).executeTakeFirstOrThrow();
  await db.insertInto('child_buckets').values({ child_id: ops.id, bucket_id: granted.id, bucket_type: 'cdn' }).execute();
  // demonew: a main account that has not completed real-name verification (it cannot create sub-accounts)
  await db
    .insertInto('users')
    .values({ username: 'demonew', email: 'demonew@example.com', mobile: '13600136000', password_hash: hash, verify_status: 'not', two_step: false, parent_id: null, permissions: '[]', money: '0.00', actual_charge: '0.00' })
    .execute();
  await seedDemoCertificate(db, demo.id);
  await seedAccessLogs(db, demo.id);
  await seedDdosAndLive(db, demo.id);
  await seedDemoFiles(db);
  await seedBillingMoney(db, demo.id);
  await seedOtherBalances(db);
  await seedBilling(db);
  await seedAccounts(db, demo.id);
  await seedExternal(db, demo.id); // content audit (docs/external-products.md)
  return true;
}

/** The demo sub-account and the one service granted to it. */
export const DEMO_SUBACCOUNT = 'demo_ops';
export const DEMO_SUBACCOUNT_BUCKET = 'demo-www';
