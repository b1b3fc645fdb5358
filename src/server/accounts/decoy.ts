/**
 * Unknown accounts look like known ones where the spec lets them (issue 21, the calls before sign-in):
 *
 * - `GET /accounts/two_step_verify/status/` must say, by name alone, whether a code field appears
 *   (spec 000 §2.2 login flow). An unknown name answers like an account would: `true` for a fixed
 *   share of names, chosen by a keyed hash of the name, so the same name always gets the same answer
 *   and a `true` no longer proves the account exists (the code is then refused with the password,
 *   as for a real account with a wrong password);
 * - `PUT /accounts/resetpwd/code/` answers an unknown account as if a code were sent, with a masked
 *   number (or address) made from the same hash, and no message leaves; `POST /accounts/resetpwd/`
 *   answers it 21102 验证码错误, as a wrong code for a real account.
 *
 * The key is this installation's own secret: a hash of the oldest account's password hash (never
 * shown, the same across restarts, different in every installation), read once per database.
 * `register_check` still says whether a name is taken: the spec's registration needs it; it is limited
 * per address (21133).
 */
import { createHash, createHmac } from 'node:crypto';
import type { DB } from '../db';

/** About the share of accounts with two-step verification on: the share of unknown names answered true. */
export const DECOY_TWO_STEP_SHARE = 0.25;

const keys = new WeakMap<DB, Promise<Buffer>>();

function keyOf(db: DB): Promise<Buffer> {
  let k = keys.get(db);
  if (!k) {
    k = db
      .selectFrom('users')
      .select('password_hash')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst()
      .then((u) => createHash('sha256').update(`decoy:${u?.password_hash ?? ''}`).digest());
    keys.set(db, k);
  }
  return k;
}

/** A keyed hash of `text` under this installation's secret (also the domain-ownership tokens, src/server/domains/ownership.ts). */
export async function installationHmac(db: DB, purpose: string, text: string): Promise<Buffer> {
  return createHmac('sha256', await keyOf(db)).update(`${purpose}\u0000${text}`).digest();
}

async function digest(db: DB, purpose: string, name: string): Promise<Buffer> {
  return createHmac('sha256', await keyOf(db)).update(`${purpose}\u0000${name.trim().toLowerCase()}`).digest();
}

/** What two_step_verify/status answers for a name no account has. */
export async function decoyTwoStep(db: DB, name: string): Promise<boolean> {
  const d = await digest(db, 'two-step', name);
  return d.readUInt32BE(0) / 0x1_0000_0000 < DECOY_TWO_STEP_SHARE;
}

/** The masked contact resetpwd/code answers for a name no account has (as maskMobile / maskMiddle would). */
export async function decoyContact(db: DB, name: string, via: 'sms' | 'email'): Promise<{ mobile: string } | { email: string }> {
  const d = await digest(db, 'contact', name);
  if (via === 'sms') {
    const prefixes = ['138', '139', '135', '136', '137', '150', '151', '158', '159', '186', '187', '188', '177', '189', '133', '153'];
    const tail = String(d.readUInt16BE(2) % 10000).padStart(4, '0');
    return { mobile: `${prefixes[d[0] % prefixes.length]}****${tail}` };
  }
  // an address of 9–16 characters masked as maskMiddle does: its first and last four kept
  const domains = ['qq.com', '163.com', '126.com', 'gmail.com', 'outlook.com', 'sina.com', 'foxmail.com'];
  const letters = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const local = Array.from({ length: 4 + (d[4] % 6) }, (_, i) => letters[d[5 + i] % letters.length]).join('');
  const email = `${local}@${domains[d[1] % domains.length]}`;
  return { email: email.slice(0, 4) + '*'.repeat(email.length - 8) + email.slice(-4) };
}
