/**
 * External products (spec 000 §1, §5 "Global rules", §7 POST /accounts/app/, GET /api/oauth/hash/):
 * the menu entries that leave the console for a product's own console with a one-time token
 * (docs/external-products.md). One source for the console and the server.
 */
export const EXTERNAL_PRODUCTS = ['sms', 'oneclicklogin', 'cdp', 'audit', 'workorder'] as const;
export type ExternalProduct = (typeof EXTERNAL_PRODUCTS)[number];

export interface ExternalProductInfo {
  label: string;
  /** the in-console page shown when the product has no address configured (or, for audit, no audit account) */
  landing: string;
  /** spec 000 §5: entering SMS, one-click login and the partner CDP console requires verify_status yes */
  needsVerified: boolean;
  /** the server configuration variable holding the product's address */
  env: string;
}

export const EXTERNAL_PRODUCT_INFO: Record<ExternalProduct, ExternalProductInfo> = {
  sms: { label: '短信服务', landing: '/toolbox/sms/', needsVerified: true, env: 'EXTERNAL_SMS_URL' },
  oneclicklogin: { label: '一键登录', landing: '/toolbox/oneclicklogin/', needsVerified: true, env: 'EXTERNAL_ONECLICKLOGIN_URL' },
  cdp: { label: '流量营销', landing: '/toolbox/oncdp/', needsVerified: true, env: 'EXTERNAL_CDP_URL' },
  audit: { label: '内容审核', landing: '/toolbox/audit/', needsVerified: false, env: 'EXTERNAL_AUDIT_URL' },
  workorder: { label: '工单', landing: '/work/', needsVerified: false, env: 'EXTERNAL_WORKORDER_URL' },
};

/** A token lives this long and opens one entry, once. */
export const ENTRY_TOKEN_TTL_SECONDS = 120;
/** The query parameter carrying the token on the product's address. */
export const ENTRY_TOKEN_PARAM = 'token';

/** GET /api/external/entry answer: `url` to open in a new tab, or null and the in-console `landing` page. */
export interface ExternalEntry {
  product: ExternalProduct;
  url: string | null;
  landing: string;
  expires_in?: number;
}

/** POST /accounts/app/ answer: who the user is, for the partner. */
export interface RedeemedEntry {
  product: ExternalProduct | 'oauth';
  app_id: string | null;
  user_id: number;
  username: string;
  /** present when a sub-account entered: the sub-account's own id and name */
  child: { child_id: number; child_name: string } | null;
  verify_status: string;
}

/** Partner applications (GET /api/oauth/hash/): an app id is letters, digits, _ and -. */
export const APP_ID_PATTERN = /^[A-Za-z0-9_-]{3,64}$/;

/** Error codes of this section (texts in src/shared/errors.ts). */
export const EXTERNAL_CODES = {
  tokenInvalid: 27601,
  tokenExpired: 27602,
  wrongProduct: 27603,
  unknownApp: 27604,
  badRedirect: 27605,
} as const;

/** Content audit (toolbox.audit): the kinds of service it can be enabled on, labels and review states. */
export const AUDIT_KINDS = ['file', 'cdn', 'fusion'] as const;
export const AUDIT_LABELS: Record<string, string> = { normal: '正常', porn: '涉黄', politics: '涉政', terror: '暴恐', ad: '广告' };
export const AUDIT_MEDIA: Record<string, string> = { image: '图片', video: '视频', text: '文本' };
export const AUDIT_REVIEW_STATES: Record<string, string> = { pending: '待复审', passed: '已通过', blocked: '已屏蔽' };
export const AUDIT_PAGE_SIZE = 20;

export interface AuditService {
  bucket_name: string;
  kind: string;
  enabled: boolean;
  enabled_at: string | null;
}

export interface AuditRecord {
  id: number;
  bucket_name: string;
  url: string;
  media: string;
  label: string;
  confidence: number;
  review_state: string;
  reviewed_at: string | null;
  created_at: string;
}
