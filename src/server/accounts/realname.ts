/**
 * Real-name verification as a condition for an action (spec 000 §5, §6: "real-name required (22005)").
 * The main account's users.verify_status decides, for its sub-accounts too: a sub-account acts for its
 * main account, whatever its own row says. Read from the database each time (not from the session), so
 * an approval (npm run platform -- account-verify) counts at the next request.
 *
 * Used where a domain is bound to a service (docs/security.md "Domain ownership"): POST
 * /api/account/domains/ and PUT /api/buckets/ with domains. Creating a sub-account and the external
 * products check it in their own handlers.
 */
import type { DB } from '../db';
import type { SessionUser } from './session';
import { ApiError } from '../http/errors';
import type { FieldError } from '../../shared/errors';

/** Whether the account the user works for has completed real-name verification. */
export async function realNameVerified(db: DB, user: Pick<SessionUser, 'account_id'>): Promise<boolean> {
  const row = await db.selectFrom('users').select('verify_status').where('id', '=', user.account_id).executeTakeFirst();
  return row?.verify_status === 'yes';
}

/** Refuses with 22005 (403), with the field errors given (which field and why), unless verified. */
export async function assertRealName(db: DB, user: Pick<SessionUser, 'account_id'>, errors?: FieldError[]): Promise<void> {
  if (!(await realNameVerified(db, user))) throw new ApiError(22005, 403, errors);
}
