/**
 * The success answers of the purge routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, obj, arr, type AnswerTable } from '../http/answers';

/** A kind's daily quota (routes.ts `quotasOf`). */
const quota = obj({ kind: str, used: num, limit: num, remaining: num });

/** The tasks a refresh or preheat made (routes.ts `submit`), with the quota of its kind. */
const submitted = ok(obj({ count: num, task_ids: arr(num), first_domain: str }), { quota });

export const purgeAnswers: AnswerTable = {
  // src/server/purge/routes.ts
  'POST /api/purge/': submitted,
  'POST /api/buckets/purge/batch/': submitted,
  'POST /api/buckets/purge/': submitted,
  'POST /api/preheat': submitted,
  // src/shared/purge.ts PurgeTask, with every kind's quota
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
    })), { pager: obj({ total: num, page: num, pages: num }), quota: arr(quota) }),
};
