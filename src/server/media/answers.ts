/**
 * The success answers of the media routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, bool, any, obj, map, arr, type AnswerTable } from '../http/answers';

/**
 * One task as both the list and GET /av/task answer it (two copies of this shape once disagreed on
 * `result`, and the list answered 500 once a task had finished).
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
  'GET /av/tasklist': ok(arr(task), { pager: obj({ since: num, max: num }) }),
  // src/server/media/routes.ts
  'GET /av/task': ok(task),
  // src/server/media/routes.ts
  'GET /api/logs/av/query/': ok(arr(obj({
      task_id: num,
      bucket_name: str,
      type: str,
      params: any,
      status: str,
      progress: num,
      error: str,
      result: obj({ outputs: arr(str), duration: num, probe: any, width: num, height: num }),
      usage_key: str,
      minutes: num,
      created_at: str,
      finished_at: str,
    })), { pager: obj({ since: num, max: num }), start: str, end: str }),
  // src/server/media/routes.ts
  'GET /api/logs/stream/query': ok(arr(obj({ day: str, usage_key: str, minutes: num, tasks: num })), { summary: map(any), start: str, end: str }),
};
