/** The demo's certificate: *.demo-example.com from a throwaway local test CA, bound to www with HTTPS on. */
import fs from 'node:fs';
import path from 'node:path';
import type { DB } from '../db';
import { parseUpload } from './parse';
import { seedCertificateOrders } from './seed-orders';

export async function seedDemoCertificate(db: DB, accountId: number): Promise<void> {
  const dir = path.join(__dirname, '../seed/certs');
  const certificate = fs.readFileSync(path.join(dir, 'demo-wildcard.pem'), 'utf8').trim();
  const private_key = fs.readFileSync(path.join(dir, 'demo-wildcard.key'), 'utf8').trim();
  const parsed = parseUpload(certificate, private_key);
  if (parsed.status !== 0) return;
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
