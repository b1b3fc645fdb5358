/**
 * The success answers of the accounts routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, bool, any, obj, map, arr, type AnswerTable } from '../http/answers';

export const accountsAnswers: AnswerTable = {
  // src/server/accounts/routes.ts
  'GET /accounts/two_step_verify/status/': ok(undefined),
  // src/server/accounts/routes.ts
  'PUT /accounts/two_step_verify/code': ok(undefined, { mobile: str }),
  // src/server/accounts/routes.ts
  'POST /accounts/signin/': ok(undefined, { user: obj({
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
    }), from: str }),
  // 'GET /accounts/signout/': not answered in the tests (src/server/accounts/routes.ts)
  // src/server/accounts/routes.ts
  'POST /accounts/signout/': ok(undefined),
  // src/server/accounts/routes.ts
  'GET /api/accounts/v2/usage/': ok(obj({
      money: num,
      actual_charge: num,
      gift: num,
      resource_flow_remain: num,
      pcdn_open: bool,
      mingmou: bool,
    }), { user: obj({
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
    }) }),
  // src/server/accounts/children.ts
  'GET /api/account/child/': ok(undefined, { children: arr(obj({
      child_id: num,
      child_name: str,
      nickname: str,
      status: str,
      permissions: arr(str),
      created_at: str,
    })), pager: obj({ since: num, max: num }), grantable: obj({ bill: bool }) }),
  // src/server/accounts/children.ts
  'GET /api/account/child/check/': ok(obj({ exists: bool })),
  // src/server/accounts/children.ts
  'PUT /api/account/child/': ok(obj({ child_id: num })),
  // src/server/accounts/children.ts
  'POST /api/account/child/': ok(obj({ child_id: num, status: str })),
  // src/server/accounts/children.ts
  'DELETE /api/account/child/': ok(obj({ child_id: num })),
  // src/server/accounts/children.ts
  'GET /api/bucket/child/': ok(undefined, { binds: arr(obj({ id: num, bucket_id: num, bucket_name: str, bucket_type: str })), pager: obj({ since: num, max: num }) }),
  // src/server/accounts/children.ts
  'PUT /api/bucket/child/': ok(obj({ id: num })),
  // src/server/accounts/children.ts
  'DELETE /api/bucket/child/': ok(obj({ id: num })),
  // src/server/accounts/oplog.ts
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
    })), { pager: obj({ since: num, max: num }) }),
  // src/server/accounts/registration.ts
  'POST /accounts/manmachine/next': ok(obj({ captcha_id: str, image: str })),
  // src/server/accounts/registration.ts
  'GET /accounts/captcha/image': ok(obj({ captcha_id: str, image: str })),
  // src/server/accounts/registration.ts
  'PUT /accounts/captcha/image/': ok(obj({ captcha_id: str, image: str })),
  // src/server/accounts/registration.ts
  'GET /accounts/register_check/': ok(undefined),
  // src/server/accounts/registration.ts
  'PUT /api/accounts/authentication/email/': ok(obj({ email: str, maiLoginUrl: str })),
  // src/server/accounts/registration.ts
  'POST /accounts/authentication/email/': ok(obj({ email: str, username: str })),
  // src/server/accounts/security.ts
  'GET /api/accounts/security/': ok(obj({
      username: str,
      mobile: str,
      mobile_verified: bool,
      email: str,
      email_verified: bool,
      two_step: bool,
    })),
  // src/server/accounts/security.ts
  'POST /api/accounts/password/': ok(undefined),
  // src/server/accounts/security.ts
  'PUT /api/accounts/authentication/mobile/': ok(undefined, { mobile: str }),
  // src/server/accounts/security.ts
  'POST /api/accounts/mobile/': ok(undefined, { mobile: str }),
  // src/server/accounts/security.ts
  'POST /api/accounts/email/': ok(obj({ email: str })),
  // src/server/accounts/security.ts
  'POST /api/accounts/two_step_verify/status': ok(undefined, { two_step: bool }),
  // src/server/accounts/security.ts
  'GET /accounts/profile/': ok(obj({
      username: str,
      user_id: num,
      mobile: str,
      email: str,
      verify_status: str,
      created_at: str,
      profile: map(str),
      verification: obj({ status: str, kind: str, name: str, id_number: str, reason: str, created_at: str }),
    })),
  // src/server/accounts/security.ts
  'POST /accounts/profile/': ok(map(str)),
  // src/server/accounts/security.ts
  'GET /api/accounts/certificate/': ok(obj({ status: str, kind: str, name: str, id_number: str, reason: str, created_at: str })),
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
  // src/server/accounts/operators.ts
  'GET /api/operators/info/': ok(undefined),
  // src/server/accounts/operators.ts
  'PUT /api/operators/': ok(obj({ operator_id: num })),
  // src/server/accounts/operators.ts
  'POST /api/operators/': ok(undefined),
  // src/server/accounts/operators.ts
  'DELETE /api/operators/': ok(undefined),
  // src/server/accounts/operators.ts
  'POST /api/operators/disable/': ok(undefined),
  // src/server/accounts/operators.ts
  'GET /api/operators/buckets/': ok(arr(obj({ id: num, bucket_id: num, bucket_name: str })), { pager: obj({ since: num, max: num }) }),
  // src/server/accounts/operators.ts
  'PUT /api/operators/buckets/binding/': ok(obj({ id: num })),
  // src/server/accounts/operators.ts
  'DELETE /api/operators/buckets/binding/': ok(undefined),
  // src/server/accounts/mail.ts
  'GET /api/dev/email_outbox/': ok(arr(any)),
  // src/server/accounts/mail.ts
  'GET /api/dev/captcha/': ok(obj({ answer: str })),
  // src/server/accounts/security.ts
  'POST /accounts/identity/certificate/': ok(obj({ verification_id: num, status: str })),
  // read from the handlers (not answered in the tests, or answering one of two shapes)
  'PUT /accounts/verify_mobile/code/': ok(undefined, { mobile: str }),
  'POST /accounts/verify_mobile/code/': ok(undefined, { mobile: str }),
  'POST /accounts/register/': ok(obj({ email: str, maiLoginUrl: str })),
  'PUT /accounts/resetpwd/code/': ok(undefined, { mobile: str, email: str }),
  'POST /accounts/resetpwd/': ok(),
  'POST /api/accounts/authentication/mobile/': ok(undefined, { mobile: str }),
  'POST /api/operators/enable/': ok(),
};
