/**
 * Facts of the account's own pages (spec 000 §2.4, §2.6, §2.7, §5, §9) that the console and the server
 * both read: photo limits, operator texts and paging, generated secrets, the webmail of an address.
 */

/** Identity photos (spec 000 §5, §9): these types only, by content, and at most 5 MB. */
export const PHOTO_MAX_BYTES = 5_242_880;
export const PHOTO_EXTENSIONS = ['jpeg', 'png', 'jpg', 'bmp', 'gif'] as const;
export const PHOTO_ACCEPT = '.jpg,.jpeg,.bmp,.gif,.png,image/jpeg,image/png,image/bmp,image/gif';
export const PHOTO_TYPE_TEXT = '仅支持 .jpg .jpeg .bmp .gif .png 格式';
export const PHOTO_SIZE_TEXT = '照片大小不超过5M';

/** The profile picture (spec 000 §9: "a separate avatar-type image limit of 30 KB"): the photos' types, at most 30 KB. */
export const AVATAR_MAX_BYTES = 30 * 1024;
export const AVATAR_SIZE_TEXT = '头像大小不超过 30 KB';

/** The image type of a file by its first bytes: jpeg, png, gif or bmp; null for anything else. */
/* checked by the console before sending and by the server on receipt */
export function imageTypeOf(bytes: Uint8Array): string | null {
  const b = bytes;
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a) return 'image/png';
  if (b.length >= 6 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38 && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61) return 'image/gif';
  if (b.length >= 26 && b[0] === 0x42 && b[1] === 0x4d) return 'image/bmp';
  return null;
}

/** The photo fields of each kind of verification. */
export const VERIFY_PHOTOS = {
  personal: [
    { field: 'front', label: '身份证人像面' },
    { field: 'back', label: '身份证国徽面' },
  ],
  company: [{ field: 'license', label: '营业执照' }],
} as const;
export type VerifyKind = keyof typeof VERIFY_PHOTOS;

export const VERIFY_STATES = { none: '未认证', pending: '审核中', approved: '已认证', rejected: '未通过' } as const;
export type VerifyState = keyof typeof VERIFY_STATES;

export interface VerificationInfo {
  status: VerifyState;
  kind: VerifyKind | null;
  name: string | null;
  /** masked: first 4 and last 4 shown */
  id_number: string | null;
  reason: string | null;
  created_at: string | null;
}

/** Operators (spec 000 §2.6, §4, §5, §8, §9). */
export const OPERATOR_SERVICE_PAGE_SIZE = 5;
export const GENERATED_SECRET_LENGTH = 32;
export const OPERATOR_TEXTS = {
  created: '创建成功!',
  updated: '修改成功!',
  deleted: '删除成功!',
  enabled: '启用成功!',
  disabled: '禁用成功!',
  bound: '授权成功!',
  deprived: '取消授权成功!',
  effect: '配置将在 5 分钟内生效',
  empty: '还没有操作员，点击“添加操作员”创建第一个',
} as const;

export interface OperatorInfo {
  operator_id: number;
  operator_name: string;
  realname: string;
  status: 'enabled' | 'disabled';
  operator_auth: { read: boolean; write: boolean; delete: boolean };
  ak: string;
  buckets: number;
  created_at: string;
}

export interface OperatorBucket {
  id: number;
  bucket_id: number;
  bucket_name: string;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 32 random letters and digits (spec 000 §5 "password and access key may be generated"). */
export function randomSecret(length = GENERATED_SECRET_LENGTH): string {
  const bytes = new Uint8Array(length * 2);
  globalThis.crypto.getRandomValues(bytes);
  let out = '';
  for (const b of bytes) {
    if (b >= 248) continue; // 248 = 4 × 62: no bias
    out += ALNUM[b % 62];
    if (out.length === length) break;
  }
  while (out.length < length) out += randomSecret(length - out.length);
  return out;
}

/** Login verification (spec 000 §2.7). */
export const TWO_STEP_TEXTS = {
  title: '登录验证',
  on: '开启',
  off: '未开启',
  description: '开启后，下次登录控制台时除账号密码外，还需输入发送到注册手机的短信验证码。',
  confirmOn: '确定开启登录验证吗？开启后登录需输入短信验证码。',
  confirmOff: '确定关闭登录验证吗？关闭后登录只需账号和密码。',
  needContacts: '请先完成手机号和邮箱的验证，再开启登录验证。',
} as const;

/** The webmail where a person reads the activation e-mail (maiLoginUrl of /register/success/). */
const WEBMAIL: Record<string, string> = {
  'qq.com': 'https://mail.qq.com',
  'foxmail.com': 'https://mail.qq.com',
  '163.com': 'https://mail.163.com',
  '126.com': 'https://mail.126.com',
  'yeah.net': 'https://www.yeah.net',
  'sina.com': 'https://mail.sina.com.cn',
  'sohu.com': 'https://mail.sohu.com',
  'aliyun.com': 'https://mail.aliyun.com',
  'gmail.com': 'https://mail.google.com',
  'outlook.com': 'https://outlook.live.com',
  'hotmail.com': 'https://outlook.live.com',
};

export function mailLoginUrl(email: string): string {
  const domain = email.split('@')[1]?.toLowerCase() ?? '';
  return WEBMAIL[domain] ?? `https://mail.${domain}`;
}

/** Account id or document number masking (spec 000 §9): first 4 and last 4 shown — the one helper of src/shared/mask.ts. */
export { maskMiddle } from './mask';

/** Registration (spec 000 §2.1): how long an activation link and a code are valid. */
export const ACTIVATION_TTL_HOURS = 24;
export const CONTACT_CODE_TTL_SECONDS = 600;
export const CAPTCHA_TTL_SECONDS = 300;

/**
 * Sign-in limits (spec 000 §8 "login too frequent"; docs/security.md). Failed passwords are counted per
 * account and per client address in a window; past either limit a sign-in needs the image captcha
 * (21107 with captcha_required) instead of locking the owner out, and each password checked past it costs a solved captcha.
 */
export const SIGNIN_MAX_FAILURES = 10;
export const SIGNIN_IP_MAX_FAILURES = 20;
export const SIGNIN_WINDOW_MINUTES = 15;
/** GET /accounts/register_check/ answers at most this many checks per client address in the window. */
export const REGISTER_CHECK_MAX_PER_IP = 100;
export const REGISTER_CHECK_WINDOW_MINUTES = 15;
