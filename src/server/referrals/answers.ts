/**
 * The success answers of the referrals routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, obj, arr, cursorPager, type AnswerTable } from '../http/answers';

/** One invitee (src/shared/referrals.ts Invitation; routes.ts `invitation`), the name masked. */
const invitation = obj({
  invitee_id: num,
  username: str,
  registered_at: str,
  verify_status: str,
  rebate_until: str,
  rebate: num,
});

/** A page of invitees with the totals (routes.ts `list`); spec 000 §7 names the path with and without the slash. */
const invitations = ok(obj({ invitations: arr(invitation), pager: cursorPager, total: num, rebate_total: num }));

export const referralsAnswers: AnswerTable = {
  // src/server/referrals/routes.ts
  'GET /api/accounts/invite-url/': ok(obj({ invite_code: str, url: str, rate: num, days: num })),
  'GET /api/accounts/invitations/': invitations,
  'POST /api/accounts/invitations/': invitations,
  'GET /api/accounts/invitations': invitations,
  'POST /api/accounts/invitations': invitations,
  'GET /api/accounts/invitations/detail': ok(obj({
      invitee: invitation,
      credits: arr(obj({ order_no: str, recharge: num, rebate: num, created_at: str })),
    })),
};
