/**
 * The success answers of the messages routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { MESSAGE_TYPES } from '../../shared/messages';
import { ok, str, num, obj, arr, type AnswerTable } from '../http/answers';

/** A message (src/shared/messages.ts AccountMessage; routes.ts `toMessage`): a list carries `summary`, one message its whole `body`. */
const message = obj({
  account_message_id: num,
  type: str,
  category: str,
  title: str,
  summary: str,
  body: str,
  link: str,
  status: str,
  mode: str,
  create_at: num,
});

/** The unread messages counted by type (routes.ts `unreadCounts`). */
const unreadFields = {
  total: num,
  by_type: obj(Object.fromEntries(Object.keys(MESSAGE_TYPES).map((t) => [t, num]))),
};

export const messagesAnswers: AnswerTable = {
  // src/server/messages/routes.ts
  'GET /api/messages/': ok(arr(message), { total: num, page: num, limit: num, unread: obj(unreadFields) }),
  'POST /api/messages/': ok(obj({ changed: num }), { unread: obj(unreadFields) }),
  'GET /api/messages/unread/': ok(obj({ ...unreadFields, latest: arr(message), popup: message })),
  'GET /api/message/': ok(message),
};
