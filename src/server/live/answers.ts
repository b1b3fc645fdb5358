/**
 * The success answers of the live routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, bool, obj, type AnswerTable } from '../http/answers';

export const liveAnswers: AnswerTable = {
  // src/server/live/routes.ts
  'GET /api/buckets/live/info/': ok(obj({ bucket_name: str, transport: str, type: str, suspended: bool, suspended_reason: str })),
  // src/server/live/routes.ts
  'GET /api/srs/info/': ok(obj({ bucket_name: str, transport: str, type: str, suspended: bool, suspended_reason: str })),
};
