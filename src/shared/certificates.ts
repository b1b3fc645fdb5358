/** Certificate facts both sides use. */

/** Upload statuses of spec 002 §4: 0 parsed, 1 parse failed, 2 already exists, 3 expired, 4 key mismatch. */
export const CERT_STATUS = { OK: 0, PARSE_FAILED: 1, EXISTS: 2, EXPIRED: 3, KEY_MISMATCH: 4 } as const;

/**
 * Whether a certificate's names cover a domain: an exact name, or a wildcard one level deep
 * (*.example.com covers www.example.com, not example.com nor a.b.example.com).
 */
export function covers(names: string[], domain: string): boolean {
  const d = domain.toLowerCase();
  return names.some((raw) => {
    const n = raw.toLowerCase();
    if (n === d) return true;
    if (!n.startsWith('*.')) return false;
    const rest = n.slice(2);
    const dot = d.indexOf('.');
    return dot > 0 && d.slice(dot + 1) === rest;
  });
}

/** Whole days from now until a date (negative once expired). */
export function daysLeft(validTo: string | Date, now = Date.now()): number {
  return Math.floor((new Date(validTo).getTime() - now) / 86_400_000);
}

export interface CertificateInfo {
  certificate_id: number;
  common_name: string;
  domains: string[];
  issuer: string;
  serial: string;
  fingerprint: string;
  valid_from: string;
  valid_to: string;
  days_left: number;
  gm: boolean;
  remark: string | null;
  created_at: string;
  /** domains of the account's services using it */
  bound?: string[];
}

/** At most this many free certificates per account (spec 002 §9; 24601). */
export const FREE_CERT_LIMIT = 20;
/** Where the free-certificate extension packages are bought (each unit: one free certificate beyond FREE_CERT_LIMIT). */
export const SSLPACK_LINK = '/billing/sslpack/';

/** Free certificate agents (spec 002 §3, §7): each has its own call; all are issued over ACME (docs/certificates.md). */
export const FREE_AGENTS = {
  letsencrypt: { label: "Let's Encrypt", maxDomains: 10 },
  trustasia: { label: 'TrustAsia', maxDomains: 1 },
  racent: { label: 'Racent', maxDomains: 1 },
} as const;
export type FreeAgent = keyof typeof FREE_AGENTS;

/** States of a free certificate application (apply_id); renewal keeps an issued one issued. */
export const APPLY_STATUS = {
  dcv: '待验证',
  pending: '申请中',
  processing: '签发中',
  issued: '已签发',
  failed: '申请失败',
} as const;
export type ApplyStatus = keyof typeof APPLY_STATUS;

/** A free certificate application as the API returns it. */
export interface CertificateApplication {
  apply_id: number;
  agent: FreeAgent;
  domains: string[];
  status: ApplyStatus;
  status_text: string;
  certificate_id: number | null;
  error: string | null;
  auto_renew: boolean;
  created_at: string;
  issued_at: string | null;
  valid_to: string | null;
  /** the HTTP-01 path the CDN must pass to the console for these domains */
  dcv_path: string;
}

/** A plain domain name (lower case, letters, digits, hyphens, at least two labels). */
export const DOMAIN_PATTERN = '^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}$';

// ---------------------------------------------------------------------------------------------
// Paid certificates (spec 002 §3–§5, §9; docs/certificates.md)

/** Brands (spec 002 §9); symantec goes through racent, the others through trustasia (spec 002 §4). */
export const PAID_BRANDS = {
  digicert: { label: 'DigiCert', agent: 'trustasia' },
  geotrust: { label: 'GeoTrust', agent: 'trustasia' },
  trustasia: { label: 'TrustAsia', agent: 'trustasia' },
  sslTrus: { label: 'sslTrus', agent: 'trustasia' },
  globalsign: { label: 'GlobalSign', agent: 'trustasia' },
  symantec: { label: 'Symantec', agent: 'racent' },
} as const;
export type PaidBrand = keyof typeof PAID_BRANDS;

/** Kinds: one domain, several domains, one wildcard, domains and wildcards together. */
export const CERT_KINDS = { single: '单域名', multiple: '多域名', wildcard: '通配符', mixed: '多域名通配符' } as const;
export type CertKind = keyof typeof CERT_KINDS;
/** Validation levels (spec 002 §9). */
export const CERT_LEVELS = { DV: 'DV', OV: 'OV', OV_PRO: 'OV Pro', EV: 'EV', EV_PRO: 'EV Pro', CODE: '代码签名', GM_OV: '国密 OV', GM_DV: '国密 DV' } as const;
export type CertLevel = keyof typeof CERT_LEVELS;

/** domain_type of an order as spec 002 §3 names it: mix for mixed, multiple for several plain domains. */
export function domainTypeOf(kind: CertKind): 'single' | 'multiple' | 'wildcard' | 'mix' {
  return kind === 'mixed' ? 'mix' : kind;
}

export interface CertProduct {
  product_id: string;
  brand: PaidBrand;
  level: CertLevel;
  kind: CertKind;
  /** yuan a year for the domains included */
  price: number;
  /** plain and wildcard domains included in the price */
  included_default: number;
  included_general: number;
  /** yuan a year for each plain / wildcard domain beyond the included ones (multiple, mixed) */
  extra_default: number;
  extra_general: number;
}

const P = (brand: PaidBrand, level: CertLevel, kind: CertKind, price: number, extra_default = 0, extra_general = 0): CertProduct => ({
  product_id: `${brand}-${level}-${kind}`.toLowerCase(),
  brand,
  level,
  kind,
  price,
  included_default: kind === 'single' ? 1 : kind === 'multiple' ? 2 : kind === 'mixed' ? 1 : 0,
  included_general: kind === 'wildcard' || kind === 'mixed' ? 1 : 0,
  extra_default,
  extra_general,
});

/** The catalogue (GET /api/https/trustasia/products/); prices are ours, the spec does not show them. */
export const CERT_PRODUCTS: readonly CertProduct[] = [
  P('trustasia', 'DV', 'single', 199),
  P('trustasia', 'DV', 'multiple', 598, 299),
  P('trustasia', 'DV', 'wildcard', 1699),
  P('trustasia', 'DV', 'mixed', 1898, 299, 1699),
  P('trustasia', 'OV', 'single', 2999),
  P('trustasia', 'OV', 'wildcard', 5999),
  P('trustasia', 'GM_DV', 'single', 599),
  P('trustasia', 'GM_OV', 'single', 3999),
  P('geotrust', 'DV', 'single', 999),
  P('geotrust', 'DV', 'multiple', 1998, 999),
  P('geotrust', 'DV', 'mixed', 4998, 999, 3999),
  P('geotrust', 'OV', 'single', 3999),
  P('geotrust', 'EV', 'single', 6999),
  P('digicert', 'OV', 'single', 7999),
  P('digicert', 'OV_PRO', 'single', 12999),
  P('digicert', 'EV', 'single', 11999),
  P('digicert', 'EV_PRO', 'single', 16999),
  P('digicert', 'OV', 'wildcard', 19999),
  P('globalsign', 'OV', 'single', 6999),
  P('globalsign', 'OV', 'wildcard', 16999),
  P('sslTrus', 'DV', 'single', 299),
  P('sslTrus', 'DV', 'wildcard', 1999),
  P('symantec', 'OV', 'single', 8999),
  P('symantec', 'CODE', 'single', 4999),
];

export const MAX_ORDER_DOMAINS = 250;
export const MAX_ORDER_YEARS = 3;

/** Price of an order (POST /api/https/v2/certificate/crm/calculate/): yuan, two decimals. */
export function orderPrice(p: CertProduct, years: number, defaultDomain: number, generalDomain: number): number {
  const extra = Math.max(0, defaultDomain - p.included_default) * p.extra_default + Math.max(0, generalDomain - p.included_general) * p.extra_general;
  return Math.round((p.price + extra) * years * 100) / 100;
}

/** How many plain and wildcard domains an order may buy for its kind (a refusal message, or null). */
export function countsAllowed(kind: CertKind, defaultDomain: number, generalDomain: number): string | null {
  const ok =
    kind === 'single' ? defaultDomain === 1 && generalDomain === 0
    : kind === 'wildcard' ? defaultDomain === 0 && generalDomain === 1
    : kind === 'multiple' ? defaultDomain >= 2 && generalDomain === 0 && defaultDomain <= MAX_ORDER_DOMAINS
    : defaultDomain >= 1 && generalDomain >= 1 && defaultDomain + generalDomain <= MAX_ORDER_DOMAINS;
  return ok ? null : '域名数量与证书类型不符';
}

export interface DomainCountInput {
  domains: string[];
  brand: string;
  domain_type: 'single' | 'multiple' | 'wildcard' | 'mix';
  /** plain domains bought */
  defaultDomain: number;
  /** wildcard domains bought */
  generalDomain: number;
}

/**
 * The domain-count check of purchased certificates (spec 002 §5), one function for the console and the
 * server. classificationCheck: no duplicate plain domains ('www.' plus the same remainder counts as a
 * duplicate), no duplicate wildcards, no wildcard and plain domain at the same level with the same base.
 * totalNumberCheck: mix — geotrust 1 to 5 plain plus exactly the bought wildcards unless more than 5 plain
 * were bought (then exact), other brands exact; multiple — trustasia or geotrust 2 to 5 plain (exact when
 * more than 5 were bought), other brands exact; single and wildcard (spec silent) exact.
 */
export function domainCountCheck(input: DomainCountInput): { classificationCheck: boolean; totalNumberCheck: boolean } {
  const names = input.domains.map((d) => d.trim().toLowerCase()).filter(Boolean);
  const general = names.filter((d) => d.startsWith('*.'));
  const plain = names.filter((d) => !d.startsWith('*.'));
  const bare = (d: string) => (d.startsWith('www.') ? d.slice(4) : d);
  const base = (d: string) => d.slice(d.indexOf('.') + 1);
  let classificationCheck = new Set(plain.map(bare)).size === plain.length && new Set(general).size === general.length;
  if (classificationCheck) {
    const wildBases = new Set(general.map((g) => g.slice(2)));
    if (plain.some((p) => p.includes('.') && wildBases.has(base(p)))) classificationCheck = false;
  }
  const brand = input.brand.toLowerCase();
  const exact = plain.length === input.defaultDomain && general.length === input.generalDomain;
  let totalNumberCheck: boolean;
  if (input.domain_type === 'mix') {
    totalNumberCheck = brand === 'geotrust' && input.defaultDomain <= 5 ? plain.length >= 1 && plain.length <= 5 && general.length === input.generalDomain : exact;
  } else if (input.domain_type === 'multiple') {
    totalNumberCheck = (brand === 'trustasia' || brand === 'geotrust') && input.defaultDomain <= 5 ? plain.length >= 2 && plain.length <= 5 && general.length === 0 : exact;
  } else {
    totalNumberCheck = exact;
  }
  return { classificationCheck, totalNumberCheck };
}

/** The platform's own domains, refused in certificate orders (spec 002 §5 "the provider's own two domains"). */
export const PROVIDER_OWN_DOMAINS = ['cdn-default.example.net', 'cdn-cname.example.net'] as const;

/** Messages of the re-issue page and the CA message (spec 002 §5; quoted texts verbatim). */
export const REISSUE_TEXTS = {
  required: '请填写域名',
  invalid: '请填写正确的域名',
  provider: '不能使用本平台的域名申请证书',
  symbol: '域名不能包含下划线等特殊符号',
  noWildcard: '该订单不支持泛域名',
  duplicate: '申购域名填写重复',
  countMismatch: '您填写的域名数量与购买的域名数量不符',
  tooMany: '个数超出限制',
  classification: '域名填写不符合规则：不能重复，www 与主域名视为重复，通配符与同级域名不能同时填写',
} as const;

/** One domain of a re-issue or CA message: the message of its first problem, or null. */
export function orderDomainError(domain: string, allowWildcard: boolean): string | null {
  const d = domain.trim().toLowerCase();
  if (!d) return REISSUE_TEXTS.required;
  if (d.includes('_')) return REISSUE_TEXTS.symbol;
  if (!/^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(d) || d.length > 253) return REISSUE_TEXTS.invalid;
  if (PROVIDER_OWN_DOMAINS.some((p) => d === p || d.endsWith(`.${p}`))) return REISSUE_TEXTS.provider;
  if (d.startsWith('*.') && !allowWildcard) return REISSUE_TEXTS.noWildcard;
  return null;
}

/** The textarea line-count validator: unique non-empty lines must not exceed max (个数超出限制). */
export function lineCountOk(lines: string[], max: number): boolean {
  return new Set(lines.map((l) => l.trim()).filter(Boolean)).size <= max;
}

/** Order states (status names are not shown by the spec; ours, docs/certificates.md). */
export const ORDER_STATUS = {
  unpaid: '待支付',
  paid: '待提交资料',
  applying: '待验证',
  verifying: '审核中',
  issued: '已签发',
  failed: '审核失败',
  cancelled: '已取消',
} as const;
export type OrderStatus = keyof typeof ORDER_STATUS;

/** What an order allows its domains to be (brand, kind and the counts bought). */
export interface OrderDomainContext {
  brand: string;
  domain_type: DomainCountInput['domain_type'];
  defaultDomain: number;
  generalDomain: number;
}

/** Whether the plain-domain total is a range (geotrust mix, trustasia/geotrust multiple, up to 5 bought). */
function flexibleTotal(ctx: OrderDomainContext): boolean {
  const b = ctx.brand.toLowerCase();
  return ctx.defaultDomain <= 5 && ((ctx.domain_type === 'mix' && b === 'geotrust') || (ctx.domain_type === 'multiple' && (b === 'geotrust' || b === 'trustasia')));
}

/** The most lines the domain textarea takes for an order (the line-count validator's number). */
export function orderLineLimit(ctx: OrderDomainContext): number {
  return (flexibleTotal(ctx) ? 5 : ctx.defaultDomain) + ctx.generalDomain;
}

/**
 * Every rule of the re-issue page and the CA message on a list of domains (spec 002 §5), in order:
 * required; each line (symbol, pattern, the provider's domains, wildcards only when bought); the line
 * count (个数超出限制); duplicates and the classification check (申购域名填写重复); the totals
 * (您填写的域名数量与购买的域名数量不符). Paths are relative to the list ("" the list, "/i" a line).
 */
export function orderDomainsErrors(domains: string[], ctx: OrderDomainContext): { path: string; message: string }[] {
  const lines = domains.map((d) => d.trim().toLowerCase());
  if (!lines.some(Boolean)) return [{ path: '', message: REISSUE_TEXTS.required }];
  const each = lines.flatMap((d, i) => {
    const m = orderDomainError(d, ctx.generalDomain > 0);
    return m ? [{ path: `/${i}`, message: m }] : [];
  });
  if (each.length) return each;
  if (!lineCountOk(lines, orderLineLimit(ctx))) return [{ path: '', message: REISSUE_TEXTS.tooMany }];
  const check = domainCountCheck({ domains: lines, ...ctx });
  if (!check.classificationCheck) return [{ path: '', message: REISSUE_TEXTS.duplicate }];
  if (!check.totalNumberCheck) return [{ path: '', message: REISSUE_TEXTS.countMismatch }];
  return [];
}
