/**
 * The success answers of the sms routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, obj, arr, type AnswerTable } from '../http/answers';

export const smsAnswers: AnswerTable = {
  // src/server/sms/outbox.ts
  'GET /api/dev/sms_outbox/': ok(arr(obj({ mobile: str, purpose: str, text: str, created_at: str }))),
};
