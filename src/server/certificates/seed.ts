/**
 * The demo's certificate: *.demo-example.com and demo-example.com, issued at seed time by the sandbox
 * test CA (./ca.ts) for one year, as a real certificate would be (issue 20 item 14: a fixed file valid
 * for a hundred years read 剩余 36496 天), bound to www with HTTPS on.
 */
import type { DB } from '../db';
import { sandboxIssue } from './ca';
import { parseUpload } from './parse';
import { seedCertificateOrders } from './seed-orders';

/** How long the demo certificate is valid from the seed: a year, as the sandbox's own orders. */
export const DEMO_CERTIFICATE_DAYS = 365;

export async function seedDemoCertificate(db: DB, accountId: number): Promise<void> {
  const { certificate, private_key } = await sandboxIssue(db, ['*.demo-example.com', 'demo-example.com'], DEMO_CERTIFICATE_DAYS);
  const parsed = parseUpload(certificate, private_key);
  if (parsed.status !== 0) throw new Error(`the demo certificate did not parse: status ${parsed.status}`);
  const cert = await db
    .insertInto('certificates')
    .values({ account_id: accountId, ...parsed.info, domains: JSON.stringify(parsed.info.domains), certificate, private_key, remark: '演示通配符证书' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const www = await db.selectFrom('bucket_domains').select('id').where('domain', '=', 'www.demo-example.com').executeTakeFirst();
  if (www) await db.insertInto('domain_https').values({ domain_id: www.id, certificate_id: cert.id, https: true, force_https: false }).execute();
  // free and paid certificates (issue #9): a template and an issued sandbox order
  await seedCertificateOrders(db, accountId);
}
