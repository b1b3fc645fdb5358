/**
 * The PEM rules of spec 002 §5, as pure functions behind the project keywords (vocabulary.ts) and
 * the console's warnings.
 */
const BEGIN_CERT = /-----BEGIN CERTIFICATE-----/g;
const END_CERT = /-----END CERTIFICATE-----/g;
const PRIVATE_KEY = /-----BEGIN (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----/;
const KEY_BLOCK = /^-----BEGIN (RSA |EC )?PRIVATE KEY-----\s[\s\S]+\s-----END \1?PRIVATE KEY-----$/;

const count = (s: string, re: RegExp) => (s.match(re) ?? []).length;

/** Starts with BEGIN CERTIFICATE and ends with END CERTIFICATE. */
export function isPemCertificate(text: string): boolean {
  const t = text.trim();
  return t.startsWith('-----BEGIN CERTIFICATE-----') && t.endsWith('-----END CERTIFICATE-----');
}

/** As many BEGIN as END lines. */
export function isChainBalanced(text: string): boolean {
  return count(text, BEGIN_CERT) === count(text, END_CERT);
}

/** A chain of fewer than two certificates: the intermediate is probably missing (a warning only). */
export function lacksIntermediate(text: string): boolean {
  return isPemCertificate(text) && isChainBalanced(text) && count(text, BEGIN_CERT) < 2;
}

export function containsPrivateKey(text: string): boolean {
  return PRIVATE_KEY.test(text);
}

/**
 * A plain PEM private key: PKCS#8, RSA or EC (an encrypted key is not plain). Certificate blocks beside it
 * are the separate warning pemNoCertificate, which the customer may confirm (spec 002 §5).
 */
export function isPemPrivateKey(text: string): boolean {
  return KEY_BLOCK.test(text.replace(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g, '').trim());
}

export function containsCertificate(text: string): boolean {
  return /-----BEGIN CERTIFICATE-----/.test(text);
}
