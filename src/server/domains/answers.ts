/**
 * The success answers of the domains routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, bool, any, obj, arr, type AnswerTable } from '../http/answers';

export const domainsAnswers: AnswerTable = {
  // src/server/domains/fusion.ts
  'GET /api/fusion/buckets': ok(arr(obj({
      bucket_id: num,
      bucket_name: str,
      kind: str,
      type: str,
      business_type: str,
      fusion_cdn: bool,
      websocket: bool,
      abroad: bool,
      security_cdn: bool,
      remark: str,
      status: str,
      storage: obj({ used: num }),
      domains: arr(obj({ domain: str, cname: str })),
      created_at: str,
    })), { pager: obj({ since: num, max: num }) }),
  // src/server/domains/fusion.ts
  'GET /api/fusion/cdn/cache': ok(obj({ rules: arr(obj({ ttl: num, type: str, value: str, ignore_query: bool })) }), { summary: str }),
  // src/server/domains/fusion.ts
  'POST /api/fusion/cdn/cache': ok(obj({ rules: arr(obj({ type: str, value: str, ttl: num, ignore_query: bool })) }), { summary: str }),
  // src/server/domains/routes.ts
  'GET /api/account/domains/': ok(arr(obj({
      id: num,
      domain: str,
      cname: str,
      bucket_name: str,
      is_default: bool,
      created_at: str,
      check: obj({ status: str, resolved: arr(str), checked_at: str }),
    })), { pager: obj({ since: num, max: num }), total: num, limit: num, default_domain: str }),
  // src/server/domains/routes.ts
  'POST /api/account/domains/': ok(obj({
      id: num,
      domain: str,
      cname: str,
      bucket_name: str,
      is_default: bool,
      created_at: str,
      check: any,
    })),
  // src/server/domains/routes.ts
  'DELETE /api/account/domains/': ok(any),
  // src/server/domains/routes.ts
  'GET /api/account/domains/cname/': ok(obj({
      id: num,
      domain: str,
      cname: str,
      bucket_name: str,
      is_default: bool,
      created_at: str,
      check: obj({ status: str, resolved: arr(any), checked_at: str }),
    })),
};
