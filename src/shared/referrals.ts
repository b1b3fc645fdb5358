/**
 * Referrals (spec 000 §2.4 recommendation/introduction/ and recommendation/list/, §7 invite-url and
 * invitations calls; docs/referrals.md). The rule: the inviter is credited REFERRAL_RATE of every
 * recharge the invitee pays within REFERRAL_DAYS of registering; the credit is a rebate (billing rebates).
 */
export const REFERRAL_RATE = 0.05;
export const REFERRAL_DAYS = 365;
export const REFERRAL_PAGE_SIZE = 20;

/** One invitee in the list (username masked: the inviter must not learn whole names of other customers). */
export interface Invitation {
  invitee_id: number;
  username: string;
  registered_at: string;
  verify_status: string;
  /** the end of the rebate period */
  rebate_until: string;
  /** rebates credited from this invitee so far, yuan */
  rebate: number;
}

export interface InvitationDetail {
  invitee: Invitation;
  credits: { order_no: string; recharge: number; rebate: number; created_at: string }[];
}

export interface InviteUrl {
  invite_code: string;
  url: string;
  rate: number;
  days: number;
}

/** An invitee's name as the inviter sees it: the first 2 characters, *** and the last one (ab***z). */
export function maskInvitee(name: string): string {
  if (name.length <= 3) return `${name[0] ?? ''}***`;
  return `${name.slice(0, 2)}***${name.slice(-1)}`;
}
