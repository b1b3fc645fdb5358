/**
 * The backup credentials at rest: AES-256-GCM with a server key (node:crypto). The key is
 * BACKUP_SECRET_KEY (32 bytes as 64 hex characters or base64); without it a fixed development key
 * is derived and a warning logged once — set the variable in production (docs/operations-tools.md).
 * A stored value is base64 of iv (12 bytes) ‖ tag (16 bytes) ‖ ciphertext.
 */
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';

let cached: Buffer | null = null;

export function backupKey(env: NodeJS.ProcessEnv = process.env): Buffer {
  if (cached) return cached;
  const raw = (env.BACKUP_SECRET_KEY ?? '').trim();
  let key: Buffer | null = null;
  if (/^[0-9a-f]{64}$/i.test(raw)) key = Buffer.from(raw, 'hex');
  else if (raw) {
    const b = Buffer.from(raw, 'base64');
    if (b.length === 32) key = b;
  }
  if (!key) {
    if (raw) throw new Error('BACKUP_SECRET_KEY 须为 32 字节（64 个十六进制字符或 base64）');
    if (process.env.NODE_ENV === 'production') console.warn('未设置 BACKUP_SECRET_KEY，备份凭证使用开发密钥加密');
    key = scryptSync('cdn-console development backup key', 'third_backup', 32);
  }
  cached = key;
  return key;
}

export function encryptSecret(plain: string, key = backupKey()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

export function decryptSecret(stored: string, key = backupKey()): string {
  const buf = Buffer.from(stored, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, buf.subarray(0, 12));
  decipher.setAuthTag(buf.subarray(12, 28));
  return Buffer.concat([decipher.update(buf.subarray(28)), decipher.final()]).toString('utf8');
}
