/**
 * The success answers of the backup routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { ok, str, num, bool, obj, arr, type AnswerTable } from '../http/answers';

/** The latest run of a configuration (src/shared/monitor.ts BackupRun), null before the first. */
const run = obj({
  id: num,
  trigger: str,
  status: str,
  status_text: str,
  files_total: num,
  files_done: num,
  files_copied: num,
  files_skipped: num,
  bytes_copied: num,
  error: str,
  created_at: str,
  started_at: str,
  finished_at: str,
});

/** A backup configuration (src/shared/monitor.ts BackupConfig; routes.ts `view`): the secret only masked. */
const config = obj({
  id: num,
  name: str,
  bucket_name: str,
  platform: str,
  region: str,
  target_bucket: str,
  prefix: str,
  endpoint: str,
  endpoint_used: str,
  access_key_id: str,
  last_run: run,
  secret_masked: str,
  enabled: bool,
  created_at: str,
  updated_at: str,
});

export const backupAnswers: AnswerTable = {
  // src/server/backup/routes.ts
  'GET /api/third_backup/list/': ok(arr(config), { limit: num }),
  'POST /api/third_backup/': ok(config),
  'GET /api/third_backup/configure/': ok(config),
  'POST /api/third_backup/configure/': ok(config),
  'PUT /api/third_backup/configure/': ok(config),
  'POST /api/third_backup/run/': ok(config),
  'DELETE /api/third_backup/configure/': ok(obj({ id: num })),
  // src/shared/monitor.ts BackupLog
  'GET /api/third_backup/logs/': ok(arr(obj({ id: num, config_id: num, config_name: str, action: str, detail: str, created_at: str }))),
};
