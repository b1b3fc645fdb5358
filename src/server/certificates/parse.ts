/**
 * Parses an uploaded certificate and key for real, with node's X509Certificate and crypto:
 * the leaf is the first block of the chain; the key must be plain (no passphrase) and match it.
 */
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { CERT_STATUS } from '../../shared/certificates';

export interface ParsedCertificate {
  common_name: string;
  domains: string[];
  issuer: string;
  serial: string;
  fingerprint: string;
  valid_from: Date;
  valid_to: Date;
}

export type ParseResult =
  | { status: typeof CERT_STATUS.OK; info: ParsedCertificate }
  | { status: Exclude<(typeof CERT_STATUS)[keyof typeof CERT_STATUS], 0>; code: number; info?: ParsedCertificate };

// a complete block: a stray BEGIN line before it (an unbalanced chain, confirmed) is not part of it
const BLOCK = /-----BEGIN CERTIFICATE-----(?:(?!-----BEGIN )[\s\S])+?-----END CERTIFICATE-----/g;

function field(dn: string, key: string): string | undefined {
  return dn.split('\n').find((l) => l.startsWith(`${key}=`))?.slice(key.length + 1);
}

export function describe(cert: X509Certificate): ParsedCertificate {
  const san = (cert.subjectAltName ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.startsWith('DNS:'))
    .map((s) => s.slice(4).toLowerCase());
  const cn = field(cert.subject, 'CN') ?? san[0] ?? '';
  return {
    common_name: cn,
    domains: san.length ? [...new Set(san)] : cn ? [cn.toLowerCase()] : [],
    issuer: field(cert.issuer, 'O') ?? field(cert.issuer, 'CN') ?? cert.issuer,
    serial: cert.serialNumber,
    fingerprint: cert.fingerprint256,
    valid_from: new Date(cert.validFrom),
    valid_to: new Date(cert.validTo),
  };
}

const KEY_PEM = /-----BEGIN ((?:RSA |EC |ENCRYPTED )?PRIVATE KEY)-----[\s\S]+?-----END \1-----/;

/**
 * What is kept of a confirmed upload (spec 002 §5: an unbalanced chain, a private key in the certificate
 * field or a certificate in the key field are warnings the customer may confirm): the complete
 * certificate blocks in their order, and the private key block alone.
 */
export function certificateBlocks(certificatePem: string): string {
  return (certificatePem.match(BLOCK) ?? []).join('\n');
}
export function privateKeyBlock(privateKeyPem: string): string {
  return KEY_PEM.exec(privateKeyPem)?.[0] ?? privateKeyPem.trim();
}

export function parseUpload(certificatePem: string, privateKeyPem: string, now = new Date()): ParseResult {
  privateKeyPem = privateKeyBlock(privateKeyPem);
  const blocks = certificatePem.match(BLOCK) ?? [];
  let leaf: X509Certificate;
  try {
    if (!blocks.length) throw new Error('no certificate');
    leaf = new X509Certificate(blocks[0]!);
    for (const b of blocks.slice(1)) new X509Certificate(b);
  } catch {
    return { status: CERT_STATUS.PARSE_FAILED, code: 21701 };
  }
  const info = describe(leaf);
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: privateKeyPem, format: 'pem' });
  } catch (e) {
    const code = /passphrase|encrypted/i.test(String((e as Error).message) + ((e as { code?: string }).code ?? '')) || /ENCRYPTED/.test(privateKeyPem) ? 21703 : 21710;
    return { status: CERT_STATUS.PARSE_FAILED, code, info };
  }
  if (!leaf.checkPrivateKey(key)) return { status: CERT_STATUS.KEY_MISMATCH, code: 21702, info };
  if (info.valid_to.getTime() < now.getTime()) return { status: CERT_STATUS.EXPIRED, code: 21705, info };
  return { status: CERT_STATUS.OK, info };
}
