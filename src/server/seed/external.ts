/**
 * Demo data (docs/external-products.md): a partner application for the partner sign-in; content audit
 * enabled on demo's file service and a few records of the audit engine, one of each review state.
 */
import type { DB } from '../db';
import type {} from '../external/tables';

export async function seedExternal(db: DB, demoId: number): Promise<void> {
  // a partner application for the partner sign-in (/authorizationlogin?app_id=demo_partner&redirect_uri=https://partner.example/oauth/…)
  await db.insertInto('partner_apps').values({ app_id: 'demo_partner', name: '演示合作伙伴', redirect_prefix: 'https://partner.example/oauth/' }).execute();
  const bucket = await db.selectFrom('buckets').select(['id']).where('owner_id', '=', demoId).where('kind', '=', 'file').orderBy('id').executeTakeFirst();
  if (!bucket) return;
  await db.insertInto('audit_services').values({ bucket_id: bucket.id, account_id: demoId }).execute();
  const day = 86400_000;
  await db
    .insertInto('audit_records')
    .values([
      { account_id: demoId, bucket_id: bucket.id, url: '/images/banner-2026.jpg', media: 'image', label: 'normal', confidence: 99, review_state: 'passed', reviewed_at: new Date(Date.now() - 2 * day), created_at: new Date(Date.now() - 3 * day) },
      { account_id: demoId, bucket_id: bucket.id, url: '/ugc/avatar-10293.png', media: 'image', label: 'ad', confidence: 87, review_state: 'blocked', reviewed_at: new Date(Date.now() - day), created_at: new Date(Date.now() - 2 * day) },
      { account_id: demoId, bucket_id: bucket.id, url: '/ugc/video-5531.mp4', media: 'video', label: 'porn', confidence: 72, created_at: new Date(Date.now() - day) },
      { account_id: demoId, bucket_id: bucket.id, url: '/ugc/comment-8812.txt', media: 'text', label: 'politics', confidence: 65 },
    ])
    .execute();
}
