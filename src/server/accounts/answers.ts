/**
 * The success answers of the accounts routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, bool, any, obj, map, arr, cursorPager, type AnswerTable } from '../http/answers';

/** The signed-in user (src/shared/account.ts CurrentUser; users.ts `publicUser`): `child` only for a sub-account. */
const currentUser = obj({
  user_id: num,
  username: str,
  mobile: str,
  email: str,
  status: str,
  verify_status: str,
  two_step: bool,
  overseas_acceleration_switch: bool,
  custom_prohibit_configuration: bool,
  smart_compression: bool,
  account_status: str,
  child: obj({ permissions: arr(str) }),
});

/** The latest identity verification (src/shared/account.ts VerificationInfo; security.ts `verificationOf`), the ID number masked. */
const verification = obj({ status: str, kind: str, name: str, id_number: str, reason: str, created_at: str });

/** A picture challenge (captcha.ts `newCaptcha`). */
const captcha = obj({ captcha_id: str, image: str });

/** Where to read the mail just sent (registration.ts `mailLoginUrl`). */
const mailSent = obj({ email: str, maiLoginUrl: str });

/** The masked mobile number a code was sent to, beside `data`. */
const sentTo = { mobile: str };

export const accountsAnswers: AnswerTable = {
  // src/server/accounts/routes.ts
  'GET /accounts/two_step_verify/status/': ok(),
  'PUT /accounts/two_step_verify/code': ok(undefined, sentTo),
  'POST /accounts/signin/': ok(undefined, { user: currentUser, from: str }),
  // 'GET /accounts/signout/' redirects (NOT_ENVELOPE)
  'POST /accounts/signout/': ok(),
  // also GET /api/accounts/session/ (data and user null for a visitor)
  'GET /api/accounts/v2/usage/': ok(obj({
      money: num,
      actual_charge: num,
      gift: num,
      resource_flow_remain: num,
      pcdn_open: bool,
      mingmou: bool,
    }), { user: currentUser }),
  // src/server/accounts/children.ts
  'GET /api/account/child/': ok(undefined, { children: arr(obj({
      child_id: num,
      child_name: str,
      nickname: str,
      status: str,
      permissions: arr(str),
      created_at: str,
    })), pager: cursorPager, grantable: obj({ bill: bool }) }),
  'GET /api/account/child/check/': ok(obj({ exists: bool })),
  'PUT /api/account/child/': ok(obj({ child_id: num })),
  'POST /api/account/child/': ok(obj({ child_id: num, status: str })),
  'DELETE /api/account/child/': ok(obj({ child_id: num })),
  'GET /api/bucket/child/': ok(undefined, { binds: arr(obj({ id: num, bucket_id: num, bucket_name: str, bucket_type: str })), pager: cursorPager }),
  'PUT /api/bucket/child/': ok(obj({ id: num })),
  'DELETE /api/bucket/child/': ok(obj({ id: num })),
  // src/server/accounts/oplog.ts (`detail` is each action's own)
  'GET /api/logs/': ok(arr(obj({
      id: num,
      user_id: num,
      username: str,
      action: str,
      action_text: str,
      target: str,
      detail: any,
      ip: str,
      created_at: str,
    })), { pager: cursorPager }),
  // src/server/accounts/registration.ts
  'POST /accounts/manmachine/next': ok(captcha),
  'GET /accounts/captcha/image': ok(captcha),
  'PUT /accounts/captcha/image/': ok(captcha),
  'GET /accounts/register_check/': ok(),
  'PUT /api/accounts/authentication/email/': ok(mailSent),
  'POST /accounts/authentication/email/': ok(obj({ email: str, username: str })),
  'PUT /accounts/verify_mobile/code/': ok(undefined, sentTo),
  'POST /accounts/verify_mobile/code/': ok(undefined, sentTo),
  'POST /accounts/register/': ok(mailSent),
  // the code goes by SMS or by mail: the masked address it went to
  'PUT /accounts/resetpwd/code/': ok(undefined, { mobile: str, email: str }),
  'POST /accounts/resetpwd/': ok(),
  // src/server/accounts/security.ts
  'GET /api/accounts/security/': ok(obj({
      username: str,
      mobile: str,
      mobile_verified: bool,
      email: str,
      email_verified: bool,
      two_step: bool,
    })),
  'POST /api/accounts/password/': ok(),
  'PUT /api/accounts/authentication/mobile/': ok(undefined, sentTo),
  'POST /api/accounts/authentication/mobile/': ok(undefined, sentTo),
  'POST /api/accounts/mobile/': ok(undefined, sentTo),
  'POST /api/accounts/email/': ok(obj({ email: str })),
  'POST /api/accounts/two_step_verify/status': ok(undefined, { two_step: bool }),
  'GET /accounts/profile/': ok(obj({
      username: str,
      user_id: num,
      mobile: str,
      email: str,
      verify_status: str,
      created_at: str,
      profile: map(str),
      verification,
    })),
  'POST /accounts/profile/': ok(map(str)),
  'GET /api/accounts/certificate/': ok(verification),
  'POST /accounts/identity/certificate/': ok(obj({ verification_id: num, status: str })),
  // src/server/accounts/operators.ts
  'GET /api/operators/': ok(arr(obj({
      operator_id: num,
      operator_name: str,
      realname: str,
      status: str,
      operator_auth: obj({ read: bool, write: bool, delete: bool }),
      ak: str,
      buckets: num,
      created_at: str,
    }))),
  // the finding is `result` itself (whether the name is taken)
  'GET /api/operators/info/': ok(),
  'PUT /api/operators/': ok(obj({ operator_id: num })),
  'POST /api/operators/': ok(),
  'DELETE /api/operators/': ok(),
  'POST /api/operators/disable/': ok(),
  'POST /api/operators/enable/': ok(),
  'GET /api/operators/buckets/': ok(arr(obj({ id: num, bucket_id: num, bucket_name: str })), { pager: cursorPager }),
  'PUT /api/operators/buckets/binding/': ok(obj({ id: num })),
  'DELETE /api/operators/buckets/binding/': ok(),
  // src/server/accounts/mail.ts (the development outbox)
  'GET /api/dev/email_outbox/': ok(arr(obj({ email: str, purpose: str, subject: str, text: str, created_at: str }))),
  'GET /api/dev/captcha/': ok(obj({ answer: str })),
};
