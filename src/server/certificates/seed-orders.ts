/**
 * The demo's paid certificates: an organisation template and a GeoTrust OV order waiting for payment,
 * so the apply tab shows the order flow on first start (the sandbox CA issues once it is paid and
 * applied). No certificate row is added: the demo's certificate list stays as the upload tests expect.
 */
import type { DB } from '../db';
import { CERT_PRODUCTS, orderPrice, PAID_BRANDS } from '../../shared/certificates';

export async function seedCertificateOrders(db: DB, accountId: number): Promise<void> {
  const template = { organization: '演示科技有限公司', country: 'CN', province: '浙江', city: '杭州', address: '西湖区文三路 1 号', contact_name: '张三', contact_phone: '13800138000', contact_email: 'ops@demo-example.com' };
  await db.insertInto('certificate_templates').values({ account_id: accountId, name: '演示公司', data: JSON.stringify(template) }).execute();
  const p = CERT_PRODUCTS.find((x) => x.product_id === 'geotrust-ov-single')!;
  await db
    .insertInto('certificate_orders')
    .values({
      account_id: accountId,
      product_id: p.product_id,
      brand: p.brand,
      level: p.level,
      kind: p.kind,
      agent: PAID_BRANDS[p.brand].agent,
      years: 1,
      default_domain: 1,
      general_domain: 0,
      price: orderPrice(p, 1, 1, 0).toFixed(2),
      status: 'unpaid',
    })
    .execute();
}
