/**
 * The success answers of the monitor routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, bool, obj, arr, type AnswerTable } from '../http/answers';

/** A monitoring task (src/shared/monitor.ts MonitorTask; routes.ts `toTask`). */
const task = obj({
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
});

export const monitorAnswers: AnswerTable = {
  // src/server/monitor/routes.ts
  'GET /api/monitor/': ok(arr(task), { limit: num }),
  'PUT /api/monitor/': ok(task),
  'POST /api/monitor/': ok(task),
  'DELETE /api/monitor/': ok(obj({ id: num })),
  'POST /api/monitor/visible/': ok(task),
  // src/shared/monitor.ts MonitorAlert
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
