/**
 * The success answers of the edgerules routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, bool, any, obj, map, arr, type AnswerTable } from '../http/answers';

/** A stored rule (src/shared/edgerules EdgeRule; repo.ts `toApi`): general rules carry `content` (free, its declaration's), custom ones `pattern` and `rule`; `ip` only in debug. */
const rule = obj({
  rewrite_id: num,
  bucket_name: str,
  describe: str,
  type: str,
  priority: num,
  break: bool,
  status: str,
  ip: str,
  content: any,
  pattern: str,
  rule: str,
  created_at: str,
  updated_at: str,
});

/** A header the rules add or delete (src/shared/edgerules/types.ts HeaderChange); `note` says why the edge refuses one. */
const headerChange = obj({ action: str, name: str, value: str, cover: bool, priority: num, applied: bool, note: str });

/** What the edge would do with a request (src/shared/edgerules/types.ts EdgeOutcome; evaluate.ts). */
const outcome = obj({
  status: num,
  location: str,
  body: str,
  error_page: str,
  uri: str,
  rewritten: bool,
  method: str,
  request_body: str,
  deleted_args: arr(str),
  request_headers: arr(headerChange),
  response_headers: arr(headerChange),
  limit_rate: obj({ after: num, rate: num }),
  matched: arr(obj({ rewrite_id: num, describe: str, priority: num, ended: str })),
  trace: arr(obj({ rewrite_id: num, describe: str, priority: num, outcome: str, detail: str })),
  notes: arr(str),
});

export const edgerulesAnswers: AnswerTable = {
  // src/server/edgerules/routes.ts
  'GET /api/buckets/rewrite/': ok(obj({ pager: obj({ total: num, page: num, pages: num }), rewrite: arr(rule) })),
  'PUT /api/buckets/rewrite/': ok(rule),
  'POST /api/buckets/rewrite/': ok(rule),
  'DELETE /api/buckets/rewrite/': ok(),
  'POST /api/buckets/rewrite/priority/': ok(obj({ rewrite_id: num, priority: num })),
  'POST /api/buckets/rewrite/status/': ok(obj({ rewrite_id: num, status: str, ip: str })),
  // a program that does not compile is answered 200 with result false, its place as data and the field errors
  'POST /api/buckets/rewrite/check/': ok(obj({ part: str, reason: str, line: num, column: num, start: num, end: num }), { message: str, errors: arr(obj({ path: str, message: str })) }),
  'POST /api/buckets/rewrite/test/': ok(outcome, { rules: arr(obj({ rewrite_id: num, describe: str, priority: num, status: str })) }),
  // the codes and names of the countries and regions a rule may name (keyed by code)
  'GET /api/buckets/rewrite/countries/': ok(map(str)),
  'GET /api/ip': ok(obj({ ip: str })),
  // src/server/edgerules/live.ts (the live tester, needs an edge; src/shared/edgerules/live.ts LiveAnswer): the request as
  // sent, the rules' prediction (as POST /api/buckets/rewrite/test/ computes it), what the edge answered, and the differences
  'POST /api/buckets/rewrite/send/': ok(obj({
      request: obj({ host: str, uri: str, ip: str }),
      predicted: outcome,
      edge: obj({
        status: num,
        location: str,
        headers: map(str),
        origin_uri: str,
        limit_rate: obj({ after: num, rate: num }),
        rules: arr(obj({ rewrite_id: num, outcome: str })),
        body: str,
      }),
      differences: arr(str),
    })),
};
