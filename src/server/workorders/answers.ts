/**
 * The success answers of the workorders routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, obj, arr, type AnswerTable } from '../http/answers';

/** An attached file (src/shared/monitor.ts WorkOrderAttachment). */
const attachment = obj({ id: num, name: str, size: num, type: str });

export const workordersAnswers: AnswerTable = {
  // src/server/workorders/routes.ts
  'GET /api/workorder/types/': ok(arr(obj({ id: str, name: str })), { site: str }),
  // src/server/workorders/routes.ts
  'GET /work_order/documents/': ok(arr(obj({ title: str, url: str }))),
  // src/server/workorders/routes.ts
  'POST /work_order/attachment/': ok(attachment),
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
      closed_at: str,
      attachments: arr(attachment),
      replies: arr(obj({
        id: num,
        author: str,
        author_name: str,
        content: str,
        attachments: arr(attachment),
        created_at: str,
      })),
    })),
  // src/server/workorders/routes.ts
  'POST /api/workorder/reply/': ok(obj({ id: num, status: str })),
  // src/server/workorders/routes.ts
  'POST /api/workorder/close/': ok(obj({ id: num, status: str })),
};
