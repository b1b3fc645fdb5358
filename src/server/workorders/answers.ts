/**
 * The success answers of the workorders routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, any, obj, arr, type AnswerTable } from '../http/answers';

export const workordersAnswers: AnswerTable = {
  // src/server/workorders/routes.ts
  'GET /api/workorder/types/': ok(arr(obj({ id: str, name: str })), { site: str }),
  // src/server/workorders/routes.ts
  'GET /work_order/documents/': ok(arr(obj({ title: str, url: str }))),
  // src/server/workorders/routes.ts
  'POST /work_order/attachment/': ok(obj({ id: num, name: str, size: num, type: str })),
  // 'GET /work_order/attachment/': not answered in the tests (src/server/workorders/routes.ts)
  // src/server/workorders/routes.ts
  'POST /api/workorder': ok(obj({ id: num, status: str, created_at: str })),
  // src/server/workorders/routes.ts
  'GET /api/workorder/list/': ok(arr(obj({
      id: num,
      type: str,
      title: str,
      status: str,
      replies: num,
      last_reply_at: str,
      created_at: str,
    })), { pager: obj({ total: num, page: num, pages: num }) }),
  // src/server/workorders/routes.ts
  'GET /api/workorder/detail/': ok(obj({
      id: num,
      type: str,
      title: str,
      content: str,
      mobile: str,
      status: str,
      created_at: str,
      closed_at: any,
      attachments: arr(obj({ id: num, name: str, size: num, type: str })),
      replies: arr(obj({
        id: num,
        author: str,
        author_name: str,
        content: str,
        attachments: arr(obj({ id: num, name: str, size: num, type: str })),
        created_at: str,
      })),
    })),
  // src/server/workorders/routes.ts
  'POST /api/workorder/reply/': ok(obj({ id: num, status: str })),
  // src/server/workorders/routes.ts
  'POST /api/workorder/close/': ok(obj({ id: num, status: str })),
};
