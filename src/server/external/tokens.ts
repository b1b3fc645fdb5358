/**
 * The one-time token exchange (docs/external-products.md): the console issues a random token bound to
 * the user and a product (or a partner application), stores only its sha256, and the partner redeems it
 * once, within ENTRY_TOKEN_TTL_SECONDS, at POST /accounts/app/.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { DB } from '../db';
import type { SessionUser } from '../accounts/session';
import { ApiError } from '../http/errors';
import { ENTRY_TOKEN_TTL_SECONDS, EXTERNAL_CODES, type RedeemedEntry } from '../../shared/external';
import type {} from './tables';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function issueToken(db: DB, user: SessionUser, product: string, appId: string | null = null, now = new Date()): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  await db
    .insertInto('external_tokens')
    .values({ token_hash: hashToken(token), account_id: user.account_id, user_id: user.id, product, app_id: appId, expires_at: new Date(now.getTime() + ENTRY_TOKEN_TTL_SECONDS * 1000) })
    .execute();
  return token;
}

/**
 * Redeems a token once. Refusals: 27601 unknown or already used, 27602 expired, 27603 issued for another
 * product or application than the one redeeming it (the token stays unused then).
 */
export async function redeemToken(db: DB, token: string, expect: { product?: string; app_id?: string }, now = new Date()): Promise<RedeemedEntry> {
  const row = await db.selectFrom('external_tokens').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirst();
  if (!row || row.used_at) throw new ApiError(EXTERNAL_CODES.tokenInvalid, 400);
  if (new Date(row.expires_at).getTime() <= now.getTime()) throw new ApiError(EXTERNAL_CODES.tokenExpired, 400);
  if ((expect.product && expect.product !== row.product) || (expect.app_id && expect.app_id !== row.app_id)) throw new ApiError(EXTERNAL_CODES.wrongProduct, 400);
  const used = await db.updateTable('external_tokens').set({ used_at: now }).where('id', '=', row.id).where('used_at', 'is', null).returning('id').executeTakeFirst();
  if (!used) throw new ApiError(EXTERNAL_CODES.tokenInvalid, 400);
  const account = await db.selectFrom('users').select(['id', 'username', 'verify_status']).where('id', '=', row.account_id).executeTakeFirstOrThrow();
  const child = row.user_id !== row.account_id ? await db.selectFrom('users').select(['id', 'username']).where('id', '=', row.user_id).executeTakeFirst() : undefined;
  return {
    product: row.product as RedeemedEntry['product'],
    app_id: row.app_id,
    user_id: account.id,
    username: account.username,
    child: child ? { child_id: child.id, child_name: child.username } : null,
    verify_status: account.verify_status,
  };
}

/** Tokens are worthless a moment after they expire; the cleanup drops them after a day. */
export async function dropOldTokens(db: DB, now = new Date()): Promise<number> {
  const r = await db.deleteFrom('external_tokens').where('expires_at', '<', new Date(now.getTime() - 24 * 3600_000)).executeTakeFirst();
  return Number(r.numDeletedRows ?? 0);
}
