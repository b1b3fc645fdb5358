/**
 * The success answers of the dashboard routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, obj, arr, type AnswerTable } from '../http/answers';

export const dashboardAnswers: AnswerTable = {
  // src/server/dashboard/routes.ts
  'GET /api/dashboard/': ok(obj({
      traffic: obj({ times: arr(num), traffic: arr(num), bandwidth: arr(num) }),
      certificates: arr(obj({ id: num, common_name: str, valid_to: num, days_left: num })),
      packages: arr(obj({
        id: num,
        kind: str,
        label: str,
        spec: str,
        remain: num,
        unit: str,
        expires_at: num,
        days_left: num,
      })),
      messages: obj({ unread: num, latest: arr(obj({ id: num, title: str, created_at: num })) }),
      blog: arr(obj({ title: str, link: str, date: num })),
    })),
};
