/**
 * Giving an account a resource package (docs/billing.md "Resource packages"): after a purchase paid
 * with the balance, or by the platform. Effective at once, expiring `validDays` later. `db` may be a
 * transaction.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type {} from '../tables';
import { syncFlowRemain } from './remain';

export interface PackageGrant {
  /** resources (traffic) | transcode | sms | oneclicklogin | sslpack | blockchain */
  kind: string;
  /** a spec id of src/shared/billing/resources.ts, or a free name for platform grants */
  spec: string;
  /** in `unit` (GB for traffic, 分钟 for transcode, 条 for SMS …) */
  amount: number;
  unit: string;
  validDays: number;
  /** what was paid, yuan (0 for gifts) */
  price?: number;
  /** when it takes effect (default now; the demo seed backdates) */
  startsAt?: Date;
}

export async function grantPackage(db: Kysely<Database>, accountId: number, grant: PackageGrant): Promise<number> {
  if (!(grant.amount > 0) || !Number.isInteger(grant.validDays) || grant.validDays < 1) throw new Error('grantPackage: amount > 0 and validDays ≥ 1 required');
  const row = await db
    .insertInto('resource_packages')
    .values({
      account_id: accountId,
      kind: grant.kind,
      spec: grant.spec,
      amount: grant.amount,
      remain: grant.amount,
      unit: grant.unit,
      price: grant.price ?? 0,
      starts_at: grant.startsAt ?? sql<Date>`now()`,
      expires_at: grant.startsAt ? new Date(grant.startsAt.getTime() + grant.validDays * 86400_000) : sql<Date>`now() + make_interval(days => ${grant.validDays})`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (grant.kind === 'resources') await syncFlowRemain(db, accountId);
  return row.id;
}
