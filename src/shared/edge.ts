/**
 * The edge API: what the control plane (src/server/edge/) hands to an edge node (src/edge/) and what
 * the node reports back, and the texts the console shows about it (docs/edge.md). Both sides and the
 * console read these; nothing here imports either side.
 */
import type { ServiceKind } from './services';

/** The edge API's prefix on the server; authenticated by a node key (`Authorization: Bearer <key>`). */
export const EDGE_API_PREFIX = '/edge/v1';

/** A node counts as online while it has been seen within this many seconds (edge status, purge tasks). */
export const EDGE_NODE_ALIVE_SECONDS = 120;

/** A long poll waits at most this long for a newer configuration before answering "unchanged". */
export const EDGE_POLL_MAX_SECONDS = 25;

/** One domain of a service as the edge serves it. */
export interface EdgeDomain {
  name: string;
  https: boolean;
  force_https: boolean;
  /** The certificate bound to the domain (in `certificates`), when HTTPS is on. */
  certificate_id: number | null;
}

export interface EdgeCertificate {
  id: number;
  fingerprint: string;
  certificate: string;
  private_key: string;
}

/** An edge rule as stored (spec 002 §3); the agent compiles it with src/shared/edgerules. */
export interface EdgeRuleRow {
  id: number;
  type: 'general' | 'custom';
  priority: number;
  break: boolean;
  status: 'ON' | 'OFF' | 'DEBUG';
  ip: string | null;
  content: unknown;
  pattern: string | null;
  rule: string | null;
}

/** A service as the edge needs it: everything a request's answer depends on. */
export interface EdgeService {
  id: number;
  name: string;
  kind: ServiceKind;
  /** NORMAL | PENDING | DEPLOYING | … (buckets.status) */
  status: string;
  /** The configuration version of this service's last change. */
  version: number;
  /** Paused by its bandwidth cap (cost control): the edge answers the "service closed" page. */
  paused: boolean;
  domains: EdgeDomain[];
  certificates: EdgeCertificate[];
  /** The effective value of every setting that applies to the kind (fixed, stored or default). */
  settings: Record<string, unknown>;
  /** The version at which each stored setting last changed (absent: never stored, the default). */
  setting_versions: Record<string, number>;
  rules: EdgeRuleRow[];
}

/**
 * GET /edge/v1/config?after=V[&wait=S]: the services changed after V (all of them when V is 0) and the
 * ids of every service that exists, so that a node drops the others. `changed: false` when nothing
 * changed within the wait.
 */
export interface EdgeConfigAnswer {
  version: number;
  changed: boolean;
  services: EdgeService[];
  ids: number[];
  /** Where a node fetches a file service's objects and stores mirrored ones (the control plane's storage). */
  storage_base: string;
  /** A paged answer (`limit`) that may have more: ask again with `from` set to this id. */
  next?: number;
}

/** The most services one page of GET /edge/v1/config gives (a node's first pull pages by this many). */
export const EDGE_CONFIG_PAGE_MAX = 5000;

/** What happened to one service in an apply. */
export type EdgeServiceState = 'applied' | 'refused' | 'unsupported';

export interface EdgeServiceReport {
  id: number;
  /** The service version the node tried. */
  version: number;
  /** applied: live; refused: nginx refused it (the previous one stays live); */
  state: 'applied' | 'refused';
  /** Chinese: why it was refused. */
  message?: string;
  /** Chinese: settings the edge cannot do as asked (e.g. HTTP/3 on nginx 1.22), by setting id. */
  notes?: Record<string, string>;
}

/** POST /edge/v1/report: one apply (reload) of a node. */
export interface EdgeApplyReport {
  node: string;
  version: number;
  ok: boolean;
  /** Chinese, when the whole apply failed (e.g. nginx would not reload). */
  message?: string;
  /** ms, and `reloads`: the nginx reloads since the agent started (0 unless the node's fixed part changed). */
  timings?: { compile: number; load: number; reloads: number };
  services: EdgeServiceReport[];
}

/** GET /api/buckets/edge/?bucket_name=: what the console shows on a service page. */
export interface EdgeStatus {
  /** false: this installation runs without an edge (EDGE=off), or no node has ever reported. */
  enabled: boolean;
  node: string | null;
  /** The service's own configuration version, and the one the edge runs. */
  version: number;
  applied_version: number | null;
  applied_at: string | null;
  state: 'applied' | 'pending' | 'refused' | null;
  message: string | null;
  notes: Record<string, string>;
  /** Each stored setting: live on the edge, waiting, or refused (with the reason). */
  settings: Record<string, { state: EdgeSettingState; message?: string }>;
}

export type EdgeSettingState = 'applied' | 'pending' | 'failed';

/**
 * The edge's own refusals, by the 8-digit codes that 自定义错误页面 offers for them (spec 002 §9,
 * schemas/settings/error_pages): the HTTP status is the code's first three digits. A setting whose
 * compiler refuses a request names the kind in the nginx variable `$edge_refusal` (declared empty in
 * every server block) before it answers, e.g. `ngx.var.edge_refusal = 40310002; return ngx.exit(403)`,
 * so that the page configured for that kind is served (docs/edge.md "Compression, error pages and cache").
 */
export const EDGE_REFUSALS = {
  /** IP/地区限制 (ip_antileech) */
  ip: 40310001,
  /** 防盗链拦截 (referer_antileech) */
  referer: 40310002,
  /** 回源鉴权失败: no setting of this installation refuses so */
  originAuth: 40110003,
  /** 安全防护拦截: no setting of this installation refuses so */
  security: 40310004,
  /** 边缘规则拦截 (edge rules' access control) */
  edgeRules: 40310005,
  /** 服务已关闭 (cost control paused the service) */
  closed: 40310006,
} as const;

/** The console's words for the edge (docs/edge.md). */
export const EDGE_TEXTS = {
  settingState: { applied: '已生效', pending: '等待生效', failed: '未能生效' } as Record<EdgeSettingState, string>,
  noEdge: '本环境未运行边缘节点，配置已保存，但不会在边缘生效',
  title: '边缘节点',
  runs: '边缘运行的配置版本',
  appliedAt: '生效时间',
  refused: '边缘节点未能应用该服务的最新配置，仍在使用上一次成功的配置',
  liveOutOfScope: '直播服务的推流与播放（RTMP/HLS）不在本边缘节点上运行',
  http3Unsupported: '本边缘节点（nginx 1.22）不支持 QUIC，HTTP/3 设置已保存，但不会生效',
  serviceClosed: '服务已关闭',
  /** A service the node's workers cannot use (its data, a certificate): refused alone, the previous version stays. */
  refusedByNode: '边缘节点（nginx）拒绝了该服务的配置：',
  unknownDomain: '该域名未接入本节点',
  // the service page (src/console/edge/)
  serviceVersion: '本服务的配置版本',
  notApplied: '尚未应用',
  reason: '原因：',
  unavailable: '暂时无法获取边缘节点状态',
  refresh: '刷新',
} as const;
