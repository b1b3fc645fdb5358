/**
 * The success answers of the monitor routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, bool, obj, arr, type AnswerTable } from '../http/answers';

export const monitorAnswers: AnswerTable = {
  // src/server/monitor/routes.ts
  'GET /api/monitor/': ok(arr(obj({
      id: num,
      name: str,
      metric: str,
      operator: str,
      threshold: num,
      period: num,
      buckets: arr(str),
      notify_message: bool,
      notify_sms: bool,
      visible: bool,
      state: str,
      last_value: num,
      checked_at: str,
      created_at: str,
    })), { limit: num }),
  // src/server/monitor/routes.ts
  'PUT /api/monitor/': ok(obj({
      id: num,
      name: str,
      metric: str,
      operator: str,
      threshold: num,
      period: num,
      buckets: arr(str),
      notify_message: bool,
      notify_sms: bool,
      visible: bool,
      state: str,
      last_value: num,
      checked_at: str,
      created_at: str,
    })),
  // src/server/monitor/routes.ts
  'POST /api/monitor/': ok(obj({
      id: num,
      name: str,
      metric: str,
      operator: str,
      threshold: num,
      period: num,
      buckets: arr(str),
      notify_message: bool,
      notify_sms: bool,
      visible: bool,
      state: str,
      last_value: num,
      checked_at: str,
      created_at: str,
    })),
  // src/server/monitor/routes.ts
  'DELETE /api/monitor/': ok(obj({ id: num })),
  // src/server/monitor/routes.ts
  'POST /api/monitor/visible/': ok(obj({
      id: num,
      name: str,
      metric: str,
      operator: str,
      threshold: num,
      period: num,
      buckets: arr(str),
      notify_message: bool,
      notify_sms: bool,
      visible: bool,
      state: str,
      last_value: num,
      checked_at: str,
      created_at: str,
    })),
  // src/server/monitor/routes.ts
  'GET /api/monitor/alerts/': ok(arr(obj({
      id: num,
      task_id: num,
      task_name: str,
      metric: str,
      value: num,
      threshold: num,
      started_at: str,
      recovered_at: str,
    }))),
};
