/**
 * Proof that a customer owns a domain (issue 21 item 13; docs/security.md "Domain ownership"). Binding
 * a domain nobody holds stays as the spec's add-domain flow has it (no step before it); what changes is
 * that a domain held by another account no longer blocks its owner: the owner proves the domain with a
 * DNS TXT record and takes the binding over.
 *
 * The record: `_cdn-verify.<domain>` (for `*.example.com`, `_cdn-verify.example.com`) holding
 * `cdn-verify=<token>`, the token a keyed hash of the account and the domain under the installation's
 * secret (src/server/accounts/decoy.ts `installationHmac`): nothing is stored, the same account always
 * gets the same token, and no one can make another account's. The proof is read when it is needed,
 * from DNS as it is now: the asking account's token is there and the holder's is not.
 */
import type { DB } from '../db';
import { installationHmac } from '../accounts/decoy';
import type { CnameResolver } from './resolver';

export const OWNERSHIP_PREFIX = '_cdn-verify';

/** The name that carries the proof of `domain`. */
export function ownershipRecordName(domain: string): string {
  const base = domain.toLowerCase().replace(/\.$/, '').replace(/^\*\./, '');
  return `${OWNERSHIP_PREFIX}.${base}`;
}

/** The TXT value that proves `accountId` owns `domain`. */
export async function ownershipValue(db: DB, accountId: number, domain: string): Promise<string> {
  const h = await installationHmac(db, 'domain-ownership', `${accountId}:${ownershipRecordName(domain)}`);
  return `cdn-verify=${h.toString('hex').slice(0, 32)}`;
}

export interface OwnershipRecord {
  type: 'TXT';
  name: string;
  value: string;
}

export async function ownershipRecord(db: DB, accountId: number, domain: string): Promise<OwnershipRecord> {
  return { type: 'TXT', name: ownershipRecordName(domain), value: await ownershipValue(db, accountId, domain) };
}

/** The TXT strings at the domain's record now; [] when there are none or DNS does not answer. */
export async function ownershipTxt(resolver: CnameResolver, domain: string): Promise<string[]> {
  if (!resolver.resolveTxt) return [];
  try {
    return (await resolver.resolveTxt(ownershipRecordName(domain))).map((parts) => parts.join('').trim());
  } catch {
    return [];
  }
}

/**
 * Whether `claimant` may take `domain` over from `holder`: the claimant's token is in DNS now and the
 * holder's is not (both there: DNS does not say who owns it, the holder keeps it).
 */
export async function mayTakeOver(db: DB, resolver: CnameResolver, domain: string, claimant: number, holder: number): Promise<boolean> {
  if (claimant === holder) return false;
  const txt = await ownershipTxt(resolver, domain);
  if (!txt.length) return false;
  const [mine, theirs] = await Promise.all([ownershipValue(db, claimant, domain), ownershipValue(db, holder, domain)]);
  return txt.includes(mine) && !txt.includes(theirs);
}
