/**
 * The success answers of the referrals routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, any, obj, arr, type AnswerTable } from '../http/answers';

export const referralsAnswers: AnswerTable = {
  // src/server/referrals/routes.ts
  'GET /api/accounts/invite-url/': ok(obj({ invite_code: str, url: str, rate: num, days: num })),
  // src/server/referrals/routes.ts
  'GET /api/accounts/invitations/': ok(obj({
      invitations: arr(obj({
        invitee_id: num,
        username: str,
        registered_at: str,
        verify_status: str,
        rebate_until: str,
        rebate: num,
      })),
      pager: obj({ since: num, max: num }),
      total: num,
      rebate_total: num,
    })),
  // src/server/referrals/routes.ts
  'POST /api/accounts/invitations/': ok(obj({
      invitations: arr(obj({
        invitee_id: num,
        username: str,
        registered_at: str,
        verify_status: str,
        rebate_until: str,
        rebate: num,
      })),
      pager: obj({ since: num, max: num }),
      total: num,
      rebate_total: num,
    })),
  // src/server/referrals/routes.ts
  'GET /api/accounts/invitations': ok(obj({ invitations: arr(any), pager: obj({ since: num, max: num }), total: num, rebate_total: num })),
  // src/server/referrals/routes.ts
  'POST /api/accounts/invitations': ok(obj({ invitations: arr(any), pager: obj({ since: num, max: num }), total: num, rebate_total: num })),
  // src/server/referrals/routes.ts
  'GET /api/accounts/invitations/detail': ok(obj({
      invitee: obj({
        invitee_id: num,
        username: str,
        registered_at: str,
        verify_status: str,
        rebate_until: str,
        rebate: num,
      }),
      credits: arr(obj({ order_no: str, recharge: num, rebate: num, created_at: str })),
    })),
};
