/**
 * The success answers of the files routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, obj, arr, type AnswerTable } from '../http/answers';

export const filesAnswers: AnswerTable = {
  // src/server/files/routes.ts
  'GET /folder/:bucket_name/*': ok(arr(obj({ id: num, path: str, name: str, type: str, size: num, content_type: str, updated_at: str })), { pager: obj({ since: num, max: num }), folder: str, storage: obj({ used: num }) }),
  // src/server/files/routes.ts
  'POST /folder/:bucket_name/*': ok(obj({ id: num, path: str, name: str, type: str, size: num, content_type: str, updated_at: str })),
  // src/server/files/routes.ts
  'PUT /folder/:bucket_name/*': ok(arr(obj({ id: num, path: str, name: str, type: str, size: num, content_type: str, updated_at: str }))),
  // src/server/files/routes.ts
  'DELETE /folder/:bucket_name/*': ok(undefined),
};
