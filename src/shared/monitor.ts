/**
 * Operational tools of spec 002 §2 "Other tools" — monitor alarms, work orders, log analysis and
 * cross-platform backup — as both sides read them: labels, limits and the shapes of the answers.
 * Spec 002 §3, §4 and §9 leave the fields, status names and limits "not shown"; what is chosen here
 * is written down in docs/operations-tools.md. Field limits and messages of the forms live in their
 * declarations (schemas/forms/monitor_task, work_order, third_backup).
 */

/* ---------------------------------------------------------------- monitor alarms */

export type MonitorMetric = 'bandwidth' | 'requests' | 'status_4xx' | 'status_5xx' | 'hit_rate';

/** What a task watches, its unit and the usual direction of an alarm. */
export const MONITOR_METRICS: Record<MonitorMetric, { label: string; unit: string }> = {
  bandwidth: { label: '带宽峰值', unit: 'Mbps' },
  requests: { label: '请求数', unit: '次' },
  status_4xx: { label: '4xx 状态码占比', unit: '%' },
  status_5xx: { label: '5xx 状态码占比', unit: '%' },
  hit_rate: { label: '缓存命中率', unit: '%' },
};

export type MonitorOperator = 'gt' | 'lt';
export const MONITOR_OPERATORS: Record<MonitorOperator, string> = { gt: '大于', lt: '小于' };

/** A task's state as the worker last saw it. */
export type MonitorState = 'normal' | 'alarm' | 'no_data';
export const MONITOR_STATE_LABELS: Record<MonitorState, string> = { normal: '正常', alarm: '告警中', no_data: '暂无数据' };

/** Alarm tasks per account. */
export const MONITOR_MAX_TASKS = 50;
/** How often the worker evaluates every task (ms). */
export const MONITOR_EVERY_MS = 60_000;
/** The statistics slot the tasks read (seconds): traffic_5m. */
export const MONITOR_SLOT_S = 300;

export interface MonitorTask {
  id: number;
  name: string;
  metric: MonitorMetric;
  operator: MonitorOperator;
  threshold: number;
  /** minutes: the window evaluated, whole 5-minute slots */
  period: number;
  buckets: string[];
  notify_message: boolean;
  notify_sms: boolean;
  visible: boolean;
  state: MonitorState;
  last_value: number | null;
  checked_at: string | null;
  created_at: string;
}

export interface MonitorAlert {
  id: number;
  task_id: number;
  task_name: string;
  metric: MonitorMetric;
  value: number;
  threshold: number;
  started_at: string;
  recovered_at: string | null;
}

/** The value as a person reads it, with the metric's unit. */
export function formatMetric(metric: MonitorMetric, value: number): string {
  const v = Math.round(value * 100) / 100;
  return metric === 'requests' ? `${v} ${MONITOR_METRICS.requests.unit}` : `${v}${metric === 'bandwidth' ? ' ' : ''}${MONITOR_METRICS[metric].unit}`;
}

/* ---------------------------------------------------------------- work orders */

export const WORK_ORDER_TYPES = [
  { id: 'cdn', name: 'CDN 加速' },
  { id: 'storage', name: '云存储' },
  { id: 'live', name: '直播云' },
  { id: 'https', name: 'SSL 证书' },
  { id: 'security', name: 'DDoS 与安全防护' },
  { id: 'billing', name: '财务与发票' },
  { id: 'account', name: '账号与实名认证' },
  { id: 'other', name: '其他问题' },
] as const;
export type WorkOrderType = (typeof WORK_ORDER_TYPES)[number]['id'];

export type WorkOrderStatus = 'pending' | 'replied' | 'closed';
export const WORK_ORDER_STATUS_LABELS: Record<WorkOrderStatus, string> = { pending: '待处理', replied: '已回复', closed: '已关闭' };

/** Attachments: size and the types recognised by their content (docs/operations-tools.md). */
export const ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;
export const ATTACHMENT_TYPES = ['png', 'jpg', 'gif', 'pdf', 'txt', 'zip'] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];
export const ATTACHMENT_HELP = '支持 png、jpg、gif、pdf、txt、zip，单个不超过 5 MB，每个工单最多 5 个';

export interface WorkOrderSummary {
  id: number;
  type: string;
  title: string;
  status: WorkOrderStatus;
  replies: number;
  last_reply_at: string | null;
  created_at: string;
}

export interface WorkOrderAttachment {
  id: number;
  name: string;
  size: number;
  type: string;
}

export interface WorkOrderReply {
  id: number;
  author: 'user' | 'support';
  author_name: string;
  content: string;
  attachments: WorkOrderAttachment[];
  created_at: string;
}

/** The help documents shown beside the form, by type (GET /work_order/documents/). */
export const WORK_ORDER_DOCUMENTS: Record<string, { title: string; url: string }[]> = {
  cdn: [
    { title: 'CDN 快速入门', url: '/docs/cdn/quick-start/' },
    { title: '缓存配置说明', url: '/docs/cdn/cache/' },
    { title: '回源与源站配置', url: '/docs/cdn/origin/' },
  ],
  storage: [{ title: '云存储快速入门', url: '/docs/storage/quick-start/' }, { title: '镜像回源与迁移', url: '/docs/storage/mirror/' }],
  live: [{ title: '直播推流与播放', url: '/docs/live/push-pull/' }],
  https: [{ title: 'HTTPS 配置指南', url: '/docs/https/config/' }, { title: '证书申请常见问题', url: '/docs/https/faq/' }],
  security: [{ title: 'DDoS 高防使用说明', url: '/docs/ddos/guide/' }],
  billing: [{ title: '计费说明', url: '/docs/billing/pricing/' }, { title: '发票申请', url: '/docs/billing/invoice/' }],
  account: [{ title: '实名认证说明', url: '/docs/account/verify/' }, { title: '子账号与权限', url: '/docs/account/subaccount/' }],
  other: [{ title: '常见问题', url: '/docs/faq/' }],
};

/* ---------------------------------------------------------------- log analysis */

/** Top lists of GET /api/analysis/. */
export const ANALYSIS_TOP_DEFAULT = 10;
export const ANALYSIS_TOP_MAX = 100;
/** Access-log records kept (days) and the days a person may pick. */
export const ACCESS_LOG_DAYS = 30;
/** Records per ingestion call. */
export const ACCESS_LOG_INGEST_MAX = 5000;

export interface AnalysisRow {
  key: string;
  count: number;
  bytes: number;
}

export interface AnalysisResult {
  date: string;
  total: number;
  bytes: number;
  urls: AnalysisRow[];
  referers: AnalysisRow[];
  ips: AnalysisRow[];
  status: AnalysisRow[];
}

export interface LogArchive {
  domain: string;
  /** CST hour start, YYYY-MM-DD HH:00 */
  hour: string;
  records: number;
  /** the download path (gzip) */
  url: string;
}

/* ---------------------------------------------------------------- cross-platform backup */

export const BACKUP_PLATFORMS = {
  aliyun_oss: '阿里云 OSS',
  tencent_cos: '腾讯云 COS',
  huawei_obs: '华为云 OBS',
  qiniu_kodo: '七牛云 Kodo',
  aws_s3: 'Amazon S3',
  s3_compatible: '其他 S3 兼容存储',
} as const;
export type BackupPlatform = keyof typeof BACKUP_PLATFORMS;

/**
 * Where each platform's S3-compatible API answers for a region ({region} replaced), and whether it
 * takes path-style addresses; an endpoint given in the configuration wins (required for s3_compatible).
 */
export const BACKUP_ENDPOINTS: Record<BackupPlatform, { template: string; pathStyle: boolean }> = {
  aliyun_oss: { template: 'https://oss-{region}.aliyuncs.com', pathStyle: false },
  tencent_cos: { template: 'https://cos.{region}.myqcloud.com', pathStyle: false },
  huawei_obs: { template: 'https://obs.{region}.myhuaweicloud.com', pathStyle: false },
  qiniu_kodo: { template: 'https://s3.{region}.qiniucs.com', pathStyle: false },
  aws_s3: { template: 'https://s3.{region}.amazonaws.com', pathStyle: false },
  s3_compatible: { template: '', pathStyle: true },
};

/** The endpoint a configuration copies to: its own, else the platform's for the region. */
export function backupEndpoint(c: { platform: BackupPlatform; region: string; endpoint?: string | null }): string {
  return c.endpoint || BACKUP_ENDPOINTS[c.platform].template.replace('{region}', c.region);
}

/** A run copies the files changed since the last one; enabled configurations run every this often (BACKUP_INTERVAL_MINUTES overrides). */
export const BACKUP_INTERVAL_MINUTES = 60;

export type BackupRunStatus = 'queued' | 'running' | 'succeeded' | 'failed';
export const BACKUP_RUN_STATUS: Record<BackupRunStatus, string> = { queued: '等待备份', running: '备份中', succeeded: '备份成功', failed: '备份失败' };

export interface BackupRun {
  id: number;
  trigger: 'schedule' | 'manual';
  status: BackupRunStatus;
  status_text: string;
  /** files of the service when the run started, and how many of them it has gone through */
  files_total: number;
  files_done: number;
  /** copied because new or changed, and left because unchanged since the last run */
  files_copied: number;
  files_skipped: number;
  bytes_copied: number;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export const BACKUP_MAX_CONFIGS = 20;

export type BackupAction = 'create' | 'change' | 'enable' | 'disable' | 'delete' | 'run';
export const BACKUP_ACTION_LABELS: Record<BackupAction, string> = { create: '创建配置', change: '修改配置', enable: '启用', disable: '停用', delete: '删除配置', run: '执行备份' };

export interface BackupConfig {
  id: number;
  name: string;
  bucket_name: string;
  platform: BackupPlatform;
  region: string;
  target_bucket: string;
  prefix: string;
  /** the endpoint given ('' = the platform's for the region) and the one used */
  endpoint: string;
  endpoint_used: string;
  access_key_id: string;
  /** the latest run, null before the first */
  last_run: BackupRun | null;
  /** never the secret: its last 4 characters behind stars */
  secret_masked: string;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

export interface BackupLog {
  id: number;
  config_id: number;
  config_name: string;
  action: BackupAction;
  detail: string;
  created_at: string;
}

/** "****abcd": what a stored secret looks like in every answer. */
export function maskSecret(secret: string): string {
  return `****${secret.slice(-4)}`;
}
