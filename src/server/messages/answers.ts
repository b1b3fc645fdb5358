/**
 * The success answers of the messages routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, obj, arr, type AnswerTable } from '../http/answers';

export const messagesAnswers: AnswerTable = {
  // src/server/messages/routes.ts
  'GET /api/messages/': ok(arr(obj({
      account_message_id: num,
      type: str,
      category: str,
      title: str,
      summary: str,
      link: str,
      status: str,
      mode: str,
      create_at: num,
    })), { total: num, page: num, limit: num, unread: obj({
      total: num,
      by_type: obj({ platform_notify: num, feature_update: num, market_activity: num, service_feedback: num }),
    }) }),
  // src/server/messages/routes.ts
  'POST /api/messages/': ok(obj({ changed: num }), { unread: obj({
      total: num,
      by_type: obj({ platform_notify: num, feature_update: num, market_activity: num, service_feedback: num }),
    }) }),
  // src/server/messages/routes.ts
  'GET /api/messages/unread/': ok(obj({
      total: num,
      by_type: obj({ platform_notify: num, feature_update: num, market_activity: num, service_feedback: num }),
      latest: arr(obj({
        account_message_id: num,
        type: str,
        category: str,
        title: str,
        summary: str,
        link: str,
        status: str,
        mode: str,
        create_at: num,
      })),
      popup: obj({
        account_message_id: num,
        type: str,
        category: str,
        title: str,
        body: str,
        link: str,
        status: str,
        mode: str,
        create_at: num,
      }),
    })),
  // read from the handler (toMessage(row, true): the whole body instead of the summary)
  'GET /api/message/': ok(obj({ account_message_id: num, type: str, category: str, title: str, body: str, link: str, status: str, mode: str, create_at: num })),
};
