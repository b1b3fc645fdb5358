/**
 * The success answers of the live routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, bool, obj, type AnswerTable } from '../http/answers';

/** A live service's transport and state (src/shared/live.ts LiveInfo, with its name; routes.ts `liveInfo`). */
const info = ok(obj({ bucket_name: str, transport: str, type: str, suspended: bool, suspended_reason: str }));

export const liveAnswers: AnswerTable = {
  // src/server/live/routes.ts: one handler under two paths
  'GET /api/buckets/live/info/': info,
  'GET /api/srs/info/': info,
};
