/**
 * The demo's access logs for log analysis (docs/operations-tools.md): the last 24 hours of requests
 * on the domains of demo-www and demo-static, generated inside the database. URLs, client addresses
 * and referers are skewed so the top lists look like a site's; statuses are mostly 200 and 304.
 */
import { sql } from 'kysely';
import type { DB } from '../db';
import '../monitor/tables';

export const DEMO_ACCESS_LOGS_PER_DOMAIN = 1500;

export async function seedAccessLogs(db: DB, accountId: number, perDomain = DEMO_ACCESS_LOGS_PER_DOMAIN): Promise<void> {
  const domains = await db
    .selectFrom('bucket_domains as d')
    .innerJoin('buckets as b', 'b.id', 'd.bucket_id')
    .select(['d.id', 'd.domain', 'b.id as bucket_id'])
    .where('b.owner_id', '=', accountId)
    .where('b.name', 'in', ['demo-www', 'demo-static'])
    .execute();
  for (const d of domains) {
    await sql`
      insert into access_logs (account_id, bucket_id, domain_id, domain, at, ip, method, url, status, bytes, referer, ua)
      select ${accountId}, ${d.bucket_id}, ${d.id}, ${d.domain},
        now() - (g::double precision / ${perDomain}) * interval '24 hours',
        '203.0.113.' || (1 + floor(power(random(), 3) * 200))::int,
        case when random() < 0.95 then 'GET' else 'POST' end,
        (array['/', '/index.html', '/static/app.js', '/static/app.css', '/images/banner.jpg', '/images/logo.png', '/api/list', '/download/client.zip', '/about.html', '/favicon.ico'])[1 + floor(power(random(), 2) * 10)::int],
        (array[200, 200, 200, 200, 200, 200, 200, 304, 304, 206, 404, 403, 502])[1 + floor(random() * 13)::int],
        (1000 + floor(random() * 200000))::bigint,
        (array['', '', '', 'https://www.baidu.com/', 'https://www.google.com/', 'https://weibo.com/', 'https://www.demo-example.com/'])[1 + floor(random() * 7)::int],
        (array['Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Safari/604.1', 'curl/8.5.0'])[1 + floor(random() * 3)::int]
      from generate_series(1, ${perDomain}) g`.execute(db);
  }
}
