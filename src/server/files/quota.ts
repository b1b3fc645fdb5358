/**
 * The storage quota of an account (issue 21 item 19; STORAGE_QUOTA_BYTES in src/shared/files.ts, the
 * server's STORAGE_QUOTA_BYTES variable overrides it). What counts: the bytes stored in all the
 * account's file services (buckets.storage_used of its own services) plus the bytes of uploads still
 * arriving — every part of every multipart upload in flight in this process, counted chunk by chunk
 * as it is read, so two large uploads started together cannot both pass a check made before either
 * arrived. An upload that would go over is refused with 413 and 27111 as soon as its bytes would,
 * before it is stored, and again just before it is stored against what is stored by then.
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { DB } from '../db';
import { ApiError } from '../http/errors';
import { STORAGE_QUOTA_BYTES } from '../../shared/files';

/** Bytes of parts being read now, per account (this process). */
const inFlight = new Map<number, number>();

export function bytesInFlight(accountId: number): number {
  return inFlight.get(accountId) ?? 0;
}

const add = (accountId: number, n: number) => {
  const v = (inFlight.get(accountId) ?? 0) + n;
  if (v <= 0) inFlight.delete(accountId);
  else inFlight.set(accountId, v);
};

/** What the account's file services hold now. */
export async function storedBytes(db: DB, accountId: number): Promise<number> {
  const r = await db.selectFrom('buckets').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('storage_used'), eb.lit(0)).as('used')).where('owner_id', '=', accountId).executeTakeFirst();
  return Number(r?.used ?? 0);
}

export function quotaRefusal(quota: number, used: number): ApiError {
  return new ApiError(27111, 413, undefined, { quota_bytes: quota, used_bytes: used });
}

/**
 * One part being received: a pass-through that counts its bytes in flight for the account and fails
 * with 27111 the moment stored + in flight would pass the quota. `release()` takes its bytes out of
 * the count (after the part is recorded, where storage_used holds them, or when it fails).
 */
export function quotaMeter(accountId: number, quota: number = STORAGE_QUOTA_BYTES, stored: number) {
  // `stored`: what the account holds, less the file this part replaces
  let counted = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      counted += chunk.length;
      add(accountId, chunk.length);
      const total = stored + bytesInFlight(accountId);
      if (total > quota) return done(quotaRefusal(quota, Math.max(stored, 0)));
      done(null, chunk);
    },
  });
  return {
    meter,
    /** bytes of this part counted so far */
    get counted() {
      return counted;
    },
    release() {
      add(accountId, -counted);
      counted = 0;
    },
  };
}

/**
 * The check just before a part is stored: what is stored now, less the file it replaces, plus this
 * part and the other parts still in flight, within the quota.
 */
export async function assertWithinQuota(db: DB, accountId: number, quota: number, size: number, replaced: number, ownInFlight: number): Promise<void> {
  const used = await storedBytes(db, accountId);
  const others = bytesInFlight(accountId) - ownInFlight;
  if (used - replaced + size + others > quota) throw quotaRefusal(quota, used);
}
