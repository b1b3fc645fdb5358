/**
 * The demo's services on the edge (docs/edge.md): every demo service that has an origin setting is
 * pointed at the project's demo origin (DEMO_ORIGIN, 127.0.0.1:8082). The operator configures this
 * address; it is not a customer's value, so the loopback refusal of the origin setting does not apply.
 */
import type { DB } from '../db';

export function demoOriginValue(address: string) {
  const [host, port] = address.split(':');
  return {
    protocol: 'http',
    host: '',
    servers: [{ address: host, port: Number(port || 80), weight: 10, backup: false }],
    failover: { enable: true, timeout: 10, max_fails: 3 },
  };
}

/** Points the demo account's services without an origin at the demo origin; answers how many. */
export async function seedDemoOrigins(db: DB, address: string): Promise<number> {
  const rows = await db
    .selectFrom('buckets as b')
    .innerJoin('users as u', 'u.id', 'b.owner_id')
    .select(['b.id', 'u.id as user_id'])
    .where('u.username', 'in', ['demo', 'demokey', 'demo2fa'])
    .where('b.kind', 'in', ['cdn', 'scdn', 'websocket', 'overseas', 'fusion'])
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('service_settings as s').select('s.bucket_id').whereRef('s.bucket_id', '=', 'b.id').where('s.setting_id', '=', 'origin'))))
    .execute();
  const value = JSON.stringify(demoOriginValue(address));
  for (const r of rows) {
    await db.insertInto('service_settings').values({ bucket_id: r.id, setting_id: 'origin', value, updated_by: r.user_id }).execute();
  }
  return rows.length;
}
