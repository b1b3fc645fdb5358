/**
 * The success answers of the media routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, any, obj, map, arr, cursorPager, type AnswerTable } from '../http/answers';

/**
 * One task (routes.ts `taskOf`) as the service's list, the account's log and GET /av/task answer it
 * (two copies of this shape once disagreed on `result`, and the list answered 500 once a task had finished).
 */
const task = obj({
  task_id: num,
  bucket_name: str,
  type: str,
  params: any,
  status: str,
  progress: num,
  error: str,
  result: obj({ width: num, height: num, outputs: arr(str), duration: num, probe: any }),
  usage_key: str,
  minutes: num,
  created_at: str,
  finished_at: str,
});

export const mediaAnswers: AnswerTable = {
  // src/server/media/routes.ts
  'POST /av/pretreatment': ok(obj({ task_id: num })),
  // src/server/media/routes.ts
  'GET /av/tasklist': ok(arr(task), { pager: cursorPager }),
  // src/server/media/routes.ts
  'GET /av/task': ok(task),
  // src/server/media/routes.ts
  'GET /api/logs/av/query/': ok(arr(task), { pager: cursorPager, start: str, end: str }),
  // src/server/media/routes.ts
  'GET /api/logs/stream/query': ok(arr(obj({ day: str, usage_key: str, minutes: num, tasks: num })), { summary: map(obj({ minutes: num, tasks: num })), start: str, end: str }),
};
