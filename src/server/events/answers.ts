/**
 * The success answers of the events routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, type AnswerTable } from '../http/answers';

export const eventsAnswers: AnswerTable = {
  // src/server/events/routes.ts
  'POST /accounts/verify/statistics': ok(undefined),
  // src/server/events/routes.ts
  'POST /accounts/usage/statistics': ok(undefined),
  // src/server/events/routes.ts
  'POST /api/buried': ok(undefined),
};
