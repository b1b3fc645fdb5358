/**
 * The success answers of the purge routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, obj, arr, type AnswerTable } from '../http/answers';

export const purgeAnswers: AnswerTable = {
  // src/server/purge/routes.ts
  'POST /api/purge/': ok(obj({ count: num, task_ids: arr(num), first_domain: str }), { quota: obj({ kind: str, used: num, limit: num, remaining: num }) }),
  // src/server/purge/routes.ts
  'POST /api/buckets/purge/batch/': ok(obj({ count: num, task_ids: arr(num), first_domain: str }), { quota: obj({ kind: str, used: num, limit: num, remaining: num }) }),
  // src/server/purge/routes.ts
  'POST /api/buckets/purge/': ok(obj({ count: num, task_ids: arr(num), first_domain: str }), { quota: obj({ kind: str, used: num, limit: num, remaining: num }) }),
  // src/server/purge/routes.ts
  'POST /api/preheat': ok(obj({ count: num, task_ids: arr(num), first_domain: str }), { quota: obj({ kind: str, used: num, limit: num, remaining: num }) }),
  // src/server/purge/routes.ts
  'GET /api/purge/list': ok(arr(obj({
      id: num,
      kind: str,
      target: str,
      domain: str,
      status: str,
      created_at: str,
      finished_at: str,
      message: str,
      removed: num,
    })), { pager: obj({ total: num, page: num, pages: num }), quota: arr(obj({ kind: str, used: num, limit: num, remaining: num })) }),
};
