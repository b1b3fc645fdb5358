/**
 * Free certificates over real ACME (RFC 8555) with acme-client: one account key per directory,
 * an order per application, HTTP-01 answered by this server under /.well-known/acme-challenge/
 * (table acme_challenges), finalize with a fresh key and CSR, download, store as a certificate row.
 * Renewal re-runs the order for an issued application and replaces the certificate row in place, so
 * the domains bound to it keep HTTPS. docs/certificates.md describes the set-up (pebble included).
 */
import fs from 'node:fs';
import https from 'node:https';
import tls from 'node:tls';
import * as acme from 'acme-client';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db';
import { returnToPackage } from '../billing/resources/consume';
import type { ServerConfig } from '../config';
import { parseUpload } from './parse';
import { notify } from '../messages/notify';
import type {} from './tables';
import { tickOnce } from '../jobs/once';

export type AcmeConfig = ServerConfig['acme'];

let trustedCaFile: string | undefined;

/** Trust the configured CA file (pebble's minica, a private CA) for the directory's HTTPS, besides the system roots. */
function trust(config: AcmeConfig) {
  if (!config.caFile || trustedCaFile === config.caFile) return;
  const ca = [...tls.rootCertificates, fs.readFileSync(config.caFile, 'utf8')];
  acme.axios.defaults.httpsAgent = new https.Agent({ ca });
  trustedCaFile = config.caFile;
}

async function client(db: DB, config: AcmeConfig): Promise<acme.Client> {
  trust(config);
  const directoryUrl = config.directoryUrl;
  let row = await db.selectFrom('acme_accounts').selectAll().where('directory_url', '=', directoryUrl).executeTakeFirst();
  if (!row) {
    const key = (await acme.crypto.createPrivateEcdsaKey()).toString();
    await db.insertInto('acme_accounts').values({ directory_url: directoryUrl, account_key: key, account_url: null }).onConflict((oc) => oc.column('directory_url').doNothing()).execute();
    row = await db.selectFrom('acme_accounts').selectAll().where('directory_url', '=', directoryUrl).executeTakeFirstOrThrow();
  }
  const c = new acme.Client({ directoryUrl, accountKey: row.account_key, ...(row.account_url ? { accountUrl: row.account_url } : {}) });
  if (!row.account_url) {
    await c.createAccount({ termsOfServiceAgreed: true, ...(config.email ? { contact: [`mailto:${config.email}`] } : {}) });
    await db.updateTable('acme_accounts').set({ account_url: c.getAccountUrl() }).where('directory_url', '=', directoryUrl).execute();
  }
  return c;
}

/** Obtains a certificate for the domains; returns the PEM chain and the new private key. */
export async function obtainCertificate(db: DB, config: AcmeConfig, domains: string[]): Promise<{ certificate: string; privateKey: string }> {
  const c = await client(db, config);
  const [key, csr] = await acme.crypto.createCsr({ commonName: domains[0]!, altNames: domains }, await acme.crypto.createPrivateEcdsaKey());
  const tokens: string[] = [];
  try {
    const certificate = await c.auto({
      csr,
      termsOfServiceAgreed: true,
      challengePriority: ['http-01'],
      // the CA validates through the CDN; acme-client's own pre-check would ask port 80 of this host
      skipChallengeVerification: true,
      challengeCreateFn: async (_authz, challenge, keyAuthorization) => {
        tokens.push(challenge.token);
        await db
          .insertInto('acme_challenges')
          .values({ token: challenge.token, key_authorization: keyAuthorization })
          .onConflict((oc) => oc.column('token').doUpdateSet({ key_authorization: keyAuthorization }))
          .execute();
      },
      challengeRemoveFn: async (_authz, challenge) => {
        await db.deleteFrom('acme_challenges').where('token', '=', challenge.token).execute();
      },
    });
    return { certificate: certificate.trim(), privateKey: key.toString().trim() };
  } finally {
    if (tokens.length) await db.deleteFrom('acme_challenges').where('token', 'in', tokens).execute();
  }
}

/** Stores a certificate: a new row, or the application's row replaced in place on renewal. */
async function store(db: DB, app: { id: number; account_id: number; certificate_id: number | null; agent: string }, pem: { certificate: string; privateKey: string }) {
  const parsed = parseUpload(pem.certificate, pem.privateKey);
  if (parsed.status !== 0) throw new Error(`CA returned an unusable certificate (status ${parsed.status})`);
  const values = { ...parsed.info, domains: JSON.stringify(parsed.info.domains), certificate: pem.certificate, private_key: pem.privateKey };
  if (app.certificate_id) {
    const updated = await db.updateTable('certificates').set(values).where('id', '=', app.certificate_id).where('account_id', '=', app.account_id).returning('id').executeTakeFirst();
    if (updated) return updated.id;
  }
  const row = await db
    .insertInto('certificates')
    .values({ account_id: app.account_id, ...values, remark: `免费证书（申请编号 ${app.id}）` })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Runs every application waiting for the CA (status pending) and renews issued ones whose
 * certificate ends within renewDays. Each application is claimed first (pending → processing), so
 * two runners never issue the same one. Returns how many were handled.
 */
export async function runAcmeJobs(db: DB, config: AcmeConfig, log?: FastifyBaseLogger, now = new Date()): Promise<number> {
  if (!config.directoryUrl) return 0;
  const renewBefore = new Date(now.getTime() + config.renewDays * 86_400_000);
  // a failed renewal is tried again an hour later, not on every run
  const retryAfter = new Date(now.getTime() - 3_600_000);
  // an application left processing by a stopped server goes back to the queue
  await db.updateTable('certificate_applications').set({ status: 'pending' }).where('status', '=', 'processing').where('updated_at', '<', new Date(now.getTime() - 600_000)).execute();
  const due = await db
    .selectFrom('certificate_applications as a')
    .leftJoin('certificates as c', 'c.id', 'a.certificate_id')
    .select(['a.id', 'a.status'])
    .where((eb) => eb.or([eb('a.status', '=', 'pending'), eb.and([eb('a.status', '=', 'issued'), eb('a.auto_renew', '=', true), eb('c.valid_to', '<', renewBefore), eb('a.updated_at', '<', retryAfter)])]))
    .orderBy('a.id')
    .limit(20)
    .execute();
  let n = 0;
  for (const d of due) {
    const claimed = await db
      .updateTable('certificate_applications')
      .set({ status: 'processing', updated_at: new Date(), attempts: (eb) => eb('attempts', '+', 1) })
      .where('id', '=', d.id)
      .where('status', '=', d.status)
      .returning(['id', 'account_id', 'agent', 'domains', 'certificate_id'])
      .executeTakeFirst();
    if (!claimed) continue;
    n++;
    try {
      const pem = await obtainCertificate(db, config, claimed.domains);
      const certificateId = await store(db, claimed, pem);
      await db.updateTable('certificate_applications').set({ status: 'issued', certificate_id: certificateId, error: null, issued_at: new Date(), updated_at: new Date() }).where('id', '=', claimed.id).execute();
      log?.info({ apply_id: claimed.id, domains: claimed.domains, renewal: d.status === 'issued' }, 'free certificate issued');
      const renewal = d.status === 'issued';
      await notify(db, claimed.account_id, {
        category: 'certificate',
        title: renewal ? '免费证书已续期' : '免费证书已签发',
        body: `${claimed.domains.join('，')} 的免费证书${renewal ? '已自动续期，使用该证书的域名无需操作' : '已签发，可在 SSL 证书中为域名开启 HTTPS'}。`,
        link: '/toolbox/ssl/',
      }).catch((e) => log?.warn({ err: String(e) }, 'notify failed'));
    } catch (e) {
      const message = String((e as Error).message ?? e).slice(0, 500);
      log?.warn({ apply_id: claimed.id, err: message }, 'free certificate failed');
      // a failed renewal keeps the (still valid) certificate issued and tries again on the next run
      const failed = await db
        .updateTable('certificate_applications')
        .set({ status: d.status === 'issued' ? 'issued' : 'failed', error: message, updated_at: new Date() })
        .where('id', '=', claimed.id)
        .returning(['status', 'pack_id'])
        .executeTakeFirst();
      // a failed application no longer counts: the extension-package unit it took goes back
      if (failed?.status === 'failed' && failed.pack_id) {
        await returnToPackage(db, failed.pack_id, 1);
        await db.updateTable('certificate_applications').set({ pack_id: null }).where('id', '=', claimed.id).execute();
      }
    }
  }
  return n;
}

/** The background job: every few seconds, issue what waits and renew what is near its end. */
export function scheduleAcmeWorker(db: DB, config: AcmeConfig, log: FastifyBaseLogger, everyMs = 10_000): () => void {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    tickOnce(db, 'certificatesAcme', () => runAcmeJobs(db, config, log)) // one server at a time (../jobs/once.ts)
      .catch((e) => log.error(e, 'acme worker failed'))
      .finally(() => (running = false));
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
