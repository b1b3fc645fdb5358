/**
 * The success answers of the domains routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, bool, obj, arr, cursorPager, type AnswerTable } from '../http/answers';
import { bucketInfoSchema } from '../buckets/answer';

/** A service's domain (src/shared/domains.ts DomainEntry; routes.ts `entryOf`, `recheck`): `check` is the last CNAME lookup, null before one. */
const domainEntry = obj({
  id: num,
  domain: str,
  cname: str,
  bucket_name: str,
  is_default: bool,
  created_at: str,
  check: obj({ status: str, resolved: arr(str), checked_at: str }),
});

/** The fusion CDN's cache rules: the cache_rules declaration's value (schemas/settings/cache_rules/schema.json) and its label. */
const cacheRules = ok(obj({ rules: arr(obj({ type: str, value: str, ttl: num, ignore_query: bool })) }), { summary: str });

export const domainsAnswers: AnswerTable = {
  // src/server/domains/fusion.ts: the fusion services, each as GET /api/buckets/ lists it (BucketInfo)
  'GET /api/fusion/buckets': ok(arr(bucketInfoSchema()), { pager: cursorPager }),
  'GET /api/fusion/cdn/cache': cacheRules,
  'POST /api/fusion/cdn/cache': cacheRules,
  // src/server/domains/routes.ts
  'GET /api/account/domains/': ok(arr(domainEntry), { pager: cursorPager, total: num, limit: num, default_domain: str }),
  'POST /api/account/domains/': ok(domainEntry),
  // answers data null
  'DELETE /api/account/domains/': ok({ type: 'null' }),
  'GET /api/account/domains/cname/': ok(domainEntry),
};
