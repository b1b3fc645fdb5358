/**
 * The success answers of the external routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, bool, obj, arr, cursorPager, type AnswerTable } from '../http/answers';

export const externalAnswers: AnswerTable = {
  // src/server/external/routes.ts
  'GET /api/external/entry': ok(obj({ product: str, url: str, landing: str, expires_in: num })),
  // src/server/external/routes.ts
  'POST /accounts/app/': ok(obj({ product: str, app_id: str, user_id: num, username: str, child: obj({ child_id: num, child_name: str }), verify_status: str })),
  // src/server/external/routes.ts
  'GET /api/oauth/app/': ok(obj({ app_id: str, name: str, redirect_prefix: str })),
  // src/server/external/routes.ts
  'GET /api/oauth/hash/': ok(obj({ token: str, redirect: str, expires_in: num })),
  // src/server/external/announcements.ts
  'GET /api/announcements/popup': ok(obj({ id: num, title: str, body: str, link: str })),
  // src/server/external/announcements.ts
  'POST /api/announcements/popup': ok(obj({ id: num })),
  // src/server/external/audit.ts
  'GET /api/audit/exists': ok(obj({ exists: bool })),
  // src/server/external/audit.ts
  'GET /api/audit/services': ok(obj({ services: arr(obj({ bucket_name: str, kind: str, enabled: bool, enabled_at: str })) })),
  // src/server/external/audit.ts
  'POST /api/audit/services': ok(obj({ bucket_name: str, enabled: bool })),
  // src/server/external/audit.ts
  'GET /api/audit/records': ok(obj({
      records: arr(obj({
        id: num,
        bucket_name: str,
        url: str,
        media: str,
        label: str,
        confidence: num,
        review_state: str,
        reviewed_at: str,
        created_at: str,
      })),
      pager: cursorPager,
    })),
  // src/server/external/audit.ts
  'POST /api/audit/records/review': ok(obj({ id: num, review_state: str })),
};
