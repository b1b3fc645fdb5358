/**
 * The success answers of the service routes not declared beside them (issue 23 item 2; see
 * src/server/http/answers.ts): creating a service and changing its remark answer the service as
 * GET /api/buckets/info/ does (./answer.ts, src/shared/buckets.ts BucketInfo).
 */
import type { AnswerTable } from '../http/answers';
import { bucketInfoAnswer } from './answer';

export const bucketsAnswers: AnswerTable = {
  'POST /api/buckets/info/': bucketInfoAnswer[200],
  'PUT /api/buckets/': bucketInfoAnswer[200],
};
