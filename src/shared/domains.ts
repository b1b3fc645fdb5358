/**
 * Domains of a service (spec 000 §3 "Service info", §7 "GET /api/account/domains/", §9; spec 002 §6):
 * the limits, the pattern, the texts of the domains tab, and what the server answers for one domain.
 * The console and the server both read these.
 */

/** Domain list page size (spec 000 §9). */
export const DOMAIN_PAGE_SIZE = 15;
/** Domains per service (spec 000 §9 "Domains per CDN service": 10; applied to every kind). */
export const DOMAINS_PER_SERVICE = 10;
/** How long one CNAME lookup may take before it counts as "检查超时" (server default; DNS_TIMEOUT_MS). */
export const DNS_TIMEOUT_MS = 2000;

/** The longest domain (the add form's schema, schemas/forms/add_domain, holds the pattern and its messages). */
export const DOMAIN_MAX_LENGTH = 253;

export const DOMAIN_TEXTS = {
  /** A domain under the platform's default suffix cannot be bound by hand. */
  defaultSuffix: '不能绑定平台的默认域名',
  add: '添加域名',
  addTitle: '添加加速域名',
  added: '添加成功',
  removed: '删除成功',
  removeTitle: '删除域名',
  removeConfirm: '确定删除域名 {domain} 吗？删除后该域名将不再加速。',
  empty: '暂无域名，点击“添加域名”开始配置',
  count: '已绑定 {n} / {max} 个域名',
  defaultDomain: '默认域名',
  cnameHelp: '请到域名的 DNS 服务商处添加 CNAME 记录，将域名指向下表中的 CNAME 地址；生效后状态显示为“已生效”。',
  check: '检查 CNAME',
  search: '搜索域名',
  /** Binding a domain needs the main account's real-name verification (22005; docs/security.md "Domain ownership"). */
  realname: '绑定域名前请先完成实名认证',
  /** what the prompt (src/console/common/RealnamePrompt.tsx) says it unlocks: 才能绑定域名 */
  realnamePurpose: '绑定域名',
  /** the create-service form's domains help while the account is unverified */
  realnameCreateHelp: '完成实名认证后才能绑定域名；可以先创建服务，认证后在“{tab}”中添加域名',
} as const;

/** The service dropdown of a service page (spec 002 §2 "Bucket selector dropdown"; main accounts only). */
export const BUCKET_SELECTOR_TEXTS = {
  /** shown when the service has no name to show */
  noName: '暂无服务名称',
  placeholder: '请输入服务名称',
  empty: '没有找到匹配的服务',
  /** the remark editor beside the name */
  remarkPlaceholder: '点击添加备注',
  remarkSaved: '修改成功',
} as const;
/** Services per page of the dropdown (spec 000 §9 service list page size). */
export const BUCKET_SELECTOR_PAGE_SIZE = 10;

/** The state of a domain's CNAME as the last lookup saw it. */
export type CnameStatus = 'ok' | 'mismatch' | 'missing' | 'timeout' | 'error';

export const CNAME_STATUS_TEXTS: Record<CnameStatus, string> = {
  ok: '已生效',
  mismatch: '未指向 CNAME',
  missing: '未解析',
  timeout: '检查超时',
  error: '检查失败',
};

/** One domain as GET /api/account/domains/ answers it. */
export interface DomainEntry {
  id: number;
  domain: string;
  /** The address the domain must point to. */
  cname: string;
  bucket_name: string;
  /** The service's default domain (shown only to exempt accounts and buckets); it cannot be removed. */
  is_default: boolean;
  created_at: string;
  /** The last CNAME lookup, when one was made. */
  check: { status: CnameStatus; resolved: string[]; checked_at: string } | null;
}

/** The longest label of a domain (RFC 1035). */
export const DOMAIN_LABEL_MAX_LENGTH = 63;

/**
 * What is wrong with a domain name by the DNS rules the edge holds names by (issue 34 item 13), or null:
 * `unicode` — not ASCII (a Chinese name must be written in its punycode form, xn--…);
 * `length` — more than 253 characters; `label` — a label of more than 63; `form` — anything else: a label
 * that is empty, has a character other than a letter, digit or hyphen, or starts or ends with a hyphen,
 * a single label, or a last label that does not start with a letter. With `wildcard`, a leading `*.` is
 * allowed. The one rule of every domain field: schemas use it through the `dnsName` keyword
 * (schemas/vocabulary.ts), which the console and the server both compile.
 */
export type DnsNameProblem = 'unicode' | 'length' | 'label' | 'form';

export function dnsNameProblem(name: string, opts: { wildcard?: boolean } = {}): DnsNameProblem | null {
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(name)) return 'unicode';
  if (name.length > DOMAIN_MAX_LENGTH) return 'length';
  const bare = opts.wildcard && name.startsWith('*.') ? name.slice(2) : name;
  const labels = bare.split('.');
  if (labels.length < 2) return 'form';
  let tooLong = false;
  for (const l of labels) {
    if (!/^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/.test(l)) return 'form';
    if (l.length > DOMAIN_LABEL_MAX_LENGTH) tooLong = true;
  }
  if (!/^[A-Za-z]/.test(labels[labels.length - 1]!)) return 'form';
  return tooLong ? 'label' : null;
}

/**
 * The domains that may serve a host, in the edge's order (src/edge/lua/edge_core.lua `host_id`): the name
 * itself, then its wildcard parents from the nearest (`a.b.example.com` → `*.b.example.com`,
 * `*.example.com`, `*.com`). The first of them that is bound to a service serves the host.
 */
export function servingCandidates(host: string): string[] {
  const out = [host];
  for (let i = host.indexOf('.'); i >= 0; i = host.indexOf('.', i + 1)) out.push(`*${host.slice(i)}`);
  return out;
}

/** Lower case, no trailing dot, trimmed. */
export function normalizeDomain(d: string): string {
  return d.trim().toLowerCase().replace(/\.$/, '');
}

/** Whether a (normalised) domain is the platform's default domain or one under it. */
export function underDefaultSuffix(d: string, defaultSuffix: string): boolean {
  return d === defaultSuffix || d.endsWith(`.${defaultSuffix}`);
}

/** "{name}" placeholders of the texts above. */
export function domainText(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}
