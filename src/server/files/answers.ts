/**
 * The success answers of the files routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, obj, arr, type AnswerTable } from '../http/answers';

export const filesAnswers: AnswerTable = {
  // src/server/files/routes.ts, 91 samples
  'GET /folder/:bucket_name/*': ok(arr(obj({ id: num, path: str, name: str, type: str, size: num, content_type: str, updated_at: str })), { pager: obj({ since: num, max: num }), folder: str, storage: obj({ used: num }) }),
  // src/server/files/routes.ts, 29 samples
  'POST /folder/:bucket_name/*': ok(obj({ id: num, path: str, name: str, type: str, size: num, content_type: str, updated_at: str })),
  // src/server/files/routes.ts, 78 samples
  'PUT /folder/:bucket_name/*': ok(arr(obj({ id: num, path: str, name: str, type: str, size: num, content_type: str, updated_at: str }))),
  // src/server/files/routes.ts, 59 samples
  'DELETE /folder/:bucket_name/*': ok(undefined),
};
