/**
 * Masking, one helper each for the whole console and server (spec 000 §9): an account id, a card or a
 * document number shows its first 4 and last 4 characters; a phone number hides its digits 4 to 7.
 */

/** 6222021234567890123 → 6222***********0123; 8 characters or fewer are shown as they are. */
export function maskMiddle(s: string | null | undefined): string | null {
  if (!s) return null;
  if (s.length <= 8) return s;
  return s.slice(0, 4) + '*'.repeat(s.length - 8) + s.slice(-4);
}

/** 13812345678 → 138****5678. */
export function maskMobile(mobile: string | null | undefined): string | null {
  if (!mobile) return null;
  if (mobile.length < 8) return mobile.replace(/.(?=.{2})/g, '*');
  return mobile.slice(0, 3) + '****' + mobile.slice(7);
}

/** An Alipay account or a bank card: a mainland mobile hides digits 4–7, anything else keeps its first and last 4. */
export function maskAccount(value: string | null | undefined): string | null {
  if (!value) return null;
  return /^1\d{10}$/.test(value) ? maskMobile(value) : maskMiddle(value);
}

/** A person's name on a masked page: only its last character shown (张三丰 → **丰). */
export function maskName(name: string | null | undefined): string | null {
  if (!name) return null;
  return '*'.repeat(Math.max(1, name.length - 1)) + name.slice(-1);
}
