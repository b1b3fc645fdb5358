/**
 * The success answers of the files routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, obj, arr, cursorPager, type AnswerTable } from '../http/answers';

/** A file or folder (src/shared/files.ts FileEntry). */
const entry = obj({ id: num, path: str, name: str, type: str, size: num, content_type: str, updated_at: str });

export const filesAnswers: AnswerTable = {
  // src/server/files/routes.ts: a folder's page (a file is sent as itself, not through this schema)
  'GET /folder/:bucket_name/*': ok(arr(entry), { pager: cursorPager, folder: str, storage: obj({ used: num }) }),
  'POST /folder/:bucket_name/*': ok(entry),
  'PUT /folder/:bucket_name/*': ok(arr(entry)),
  'DELETE /folder/:bucket_name/*': ok(),
};
