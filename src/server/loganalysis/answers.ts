/**
 * The success answers of the loganalysis routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, obj, arr, type AnswerTable } from '../http/answers';

/** Keys with their requests and bytes (src/shared/monitor.ts AnalysisRow[]). */
const rows = arr(obj({ key: str, count: num, bytes: num }));

export const loganalysisAnswers: AnswerTable = {
  // src/server/loganalysis/routes.ts
  'POST /api/analysis/ingest/': ok(obj({ stored: num })),
  // src/server/loganalysis/routes.ts
  'GET /api/analysis/': ok(obj({
      date: str,
      total: num,
      bytes: num,
      urls: rows,
      referers: rows,
      ips: rows,
      status: rows,
    })),
  // src/server/loganalysis/routes.ts
  'GET /api/analysis/archives/': ok(arr(obj({ domain: str, hour: str, records: num, url: str }))),
  // 'GET /api/analysis/archives/download/': not answered in the tests (src/server/loganalysis/routes.ts)
};
