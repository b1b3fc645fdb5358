/**
 * The success answers of the schemas routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, any, obj, arr, type AnswerTable } from '../http/answers';

export const schemasAnswers: AnswerTable = {
  // src/server/schemas/routes.ts
  'GET /api/schemas/gallery/': ok(arr(obj({ id: str, meta: any, schema: any, ui: any, fixtures: any }))),
};
