/**
 * The certificate authority of paid orders sits behind CaProvider (docs/certificates.md). The embedded
 * default is a sandbox: it gives DNS TXT domain-control records, moves an order applying → verifying →
 * issued one step per job run (runOrderJobs), refuses domains starting with "reject." (so a failure and
 * a reapply can be walked), and issues certificates signed by a local test CA generated at first use
 * (table sandbox_ca) with @peculiar/x509 on node's WebCrypto.
 */
import { randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db';
import type { DcvRecord } from './tables';
import { parseUpload } from './parse';
import { notify } from '../messages/notify';
import { tickOnce } from '../jobs/once';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

export interface CaOrder {
  id: number;
  brand: string;
  level: string;
  years: number;
  domains: string[];
  apply_id: string | null;
  status: string;
}

export type CaProgress =
  | { state: 'verifying' }
  | { state: 'issued'; certificate: string; private_key: string }
  | { state: 'failed'; error: string }
  | { state: 'waiting' };

export interface CaProvider {
  readonly name: string;
  /** Sends the order to the CA; the records the user must publish. */
  apply(db: DB, order: CaOrder): Promise<{ apply_id: string; dcv: DcvRecord[] }>;
  /** Where the order stands at the CA now. */
  progress(db: DB, order: CaOrder): Promise<CaProgress>;
  cancel(db: DB, order: CaOrder): Promise<void>;
}

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

async function exportKey(key: CryptoKey): Promise<string> {
  return x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', key as webcrypto.CryptoKey), 'PRIVATE KEY');
}

/** The sandbox's test CA: made once, then read from the table. */
export async function sandboxCa(db: DB): Promise<{ certificate: string; private_key: string }> {
  const row = await db.selectFrom('sandbox_ca').select(['certificate', 'private_key']).where('id', '=', 1).executeTakeFirst();
  if (row) return row;
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as unknown as CryptoKeyPair;
  const now = Date.now();
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomBytes(8).toString('hex'),
    name: 'CN=Sandbox Test CA (not trusted), O=Sandbox CA',
    notBefore: new Date(now - 86_400_000),
    notAfter: new Date(now + 20 * 365 * 86_400_000),
    signingAlgorithm: ALG,
    keys,
    extensions: [new x509.BasicConstraintsExtension(true, 0, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true)],
  });
  const made = { id: 1, certificate: ca.toString('pem'), private_key: await exportKey(keys.privateKey) };
  await db.insertInto('sandbox_ca').values(made).onConflict((oc) => oc.column('id').doNothing()).execute();
  return (await db.selectFrom('sandbox_ca').select(['certificate', 'private_key']).where('id', '=', 1).executeTakeFirstOrThrow());
}

/** A leaf for the domains signed by the sandbox CA; the PEM chain (leaf, CA) and its key. */
export async function sandboxIssue(db: DB, domains: string[], days: number): Promise<{ certificate: string; private_key: string }> {
  const ca = await sandboxCa(db);
  const caCert = new x509.X509Certificate(ca.certificate);
  const caKey = await webcrypto.subtle.importKey('pkcs8', x509.PemConverter.decodeFirst(ca.private_key), ALG, false, ['sign']);
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as unknown as CryptoKeyPair;
  const now = Date.now();
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: `01${randomBytes(9).toString('hex')}`,
    subject: `CN=${domains[0]}`,
    issuer: caCert.subject,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + days * 86_400_000),
    signingAlgorithm: ALG,
    publicKey: keys.publicKey,
    signingKey: caKey as unknown as CryptoKey,
    extensions: [
      new x509.SubjectAlternativeNameExtension(domains.map((value) => ({ type: 'dns' as const, value }))),
      new x509.BasicConstraintsExtension(false),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    ],
  });
  return { certificate: `${leaf.toString('pem')}\n${ca.certificate}`.trim(), private_key: (await exportKey(keys.privateKey)).trim() };
}

export const sandboxProvider: CaProvider = {
  name: 'sandbox',
  async apply(_db, order) {
    const apply_id = `SBX${order.id}${randomBytes(4).toString('hex').toUpperCase()}`;
    const dcv = order.domains.map((d) => {
      const host = d.startsWith('*.') ? d.slice(2) : d;
      return { domain: d, method: 'DNS' as const, type: 'TXT' as const, host: `_dnsauth.${host}`, value: randomBytes(16).toString('hex') };
    });
    return { apply_id, dcv };
  },
  async progress(db, order) {
    if (order.status === 'applying') {
      const bad = order.domains.find((d) => d.startsWith('reject.'));
      return bad ? { state: 'failed', error: `域名 ${bad} 验证失败：未找到 DNS 验证记录` } : { state: 'verifying' };
    }
    if (order.status === 'verifying') return { state: 'issued', ...(await sandboxIssue(db, order.domains, 365)) };
    return { state: 'waiting' };
  },
  async cancel() {},
};

let provider: CaProvider = sandboxProvider;
export const caProvider = (): CaProvider => provider;
/** A deployment with a real CA sets its provider here at start-up. */
export function setCaProvider(p: CaProvider): void {
  provider = p;
}

/**
 * Moves every order at the CA one step: applying → verifying → issued (the certificate stored as a row
 * of certificates and the account told), or failed with the CA's reason. Returns how many moved.
 */
export async function runOrderJobs(db: DB, log?: FastifyBaseLogger): Promise<number> {
  const rows = await db
    .selectFrom('certificate_orders')
    .select(['id', 'account_id', 'brand', 'level', 'years', 'domains', 'apply_id', 'status', 'ca_message'])
    .where('status', 'in', ['applying', 'verifying'])
    .orderBy('id')
    .limit(50)
    .execute();
  let n = 0;
  for (const o of rows) {
    let p: CaProgress;
    try {
      p = await caProvider().progress(db, o);
    } catch (e) {
      log?.warn({ order_id: o.id, err: String(e) }, 'CA progress failed');
      continue;
    }
    if (p.state === 'waiting') continue;
    const set = { updated_at: new Date() };
    if (p.state === 'verifying') {
      const r = await db.updateTable('certificate_orders').set({ ...set, status: 'verifying' }).where('id', '=', o.id).where('status', '=', o.status).executeTakeFirst();
      n += Number(r.numUpdatedRows);
    } else if (p.state === 'failed') {
      const r = await db.updateTable('certificate_orders').set({ ...set, status: 'failed', error: p.error }).where('id', '=', o.id).where('status', '=', o.status).executeTakeFirst();
      n += Number(r.numUpdatedRows);
    } else {
      const parsed = parseUpload(p.certificate, p.private_key);
      if (parsed.status !== 0) {
        log?.warn({ order_id: o.id, status: parsed.status }, 'CA returned an unusable certificate');
        continue;
      }
      await db.transaction().execute(async (trx) => {
        const claimed = await trx.updateTable('certificate_orders').set({ ...set, status: 'issued', error: null }).where('id', '=', o.id).where('status', '=', o.status).executeTakeFirst();
        if (!Number(claimed.numUpdatedRows)) return;
        const cert = await trx
          .insertInto('certificates')
          .values({ account_id: o.account_id, ...parsed.info, domains: JSON.stringify(parsed.info.domains), certificate: p.certificate, private_key: p.private_key, remark: `付费证书（订单 ${o.id}）` })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx.updateTable('certificate_orders').set({ certificate_id: cert.id }).where('id', '=', o.id).execute();
        n++;
      });
      await notify(db, o.account_id, {
        category: 'certificate',
        title: '证书已签发',
        body: `您的证书订单 ${o.id}（${o.domains.join('，')}）已签发，可在 SSL 证书中部署到 CDN。`,
        link: `/toolbox/certificateDetail/?order_id=${o.id}`,
      }).catch((e) => log?.warn({ err: String(e) }, 'notify failed'));
    }
  }
  return n;
}

export function scheduleOrderWorker(db: DB, log: FastifyBaseLogger, everyMs = 3000): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    tickOnce(db, 'certificateOrders', () => runOrderJobs(db, log)) // one server at a time (../jobs/once.ts)
      .catch((e) => log.error(e, 'certificate order worker failed'))
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
