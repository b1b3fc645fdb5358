/**
 * Own certificates and per-domain HTTPS (spec 002: Certificates, §3–§5, §7).
 *
 *   POST   /api/https/certificate/                 upload (the certificate declaration), parsed for real
 *   GET    /api/https/certificate/list/            the account's certificates (cursor paging)
 *   GET    /api/https/certificate/search           certificates covering a domain (?domain=)
 *   GET    /api/https/certificate/?certificate_id  one certificate (view modal)
 *   DELETE /api/https/certificate/?certificate_id  refused while domains use it (21706)
 *   GET    /api/https/certificate/download         the PEM bundle (certificate chain, then key)
 *   GET    /api/https/services/manager             a service's domains with their HTTPS state
 *   POST   /api/https/certificate/manager          bind a certificate, turn HTTPS / force HTTPS on or off
 *   GET | POST | PUT | DELETE /api/https/certificate/manager/   one domain's state, the same change, HTTPS off
 */
import type { FastifyInstance } from 'fastify';
import certificateSchema from '../../../schemas/forms/certificate/schema.json';
import type { Transaction } from 'kysely';
import type { DB } from '../db';
import type { Database } from '../db/schema';
import { writeLogAs } from '../accounts/oplog';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { keysetQuery, pagingProps } from '../http/keyset';
import type { SessionUser } from '../accounts/session';
import { assertNotLocked } from '../settings/routes';
import { bucketForUser } from '../buckets/repo';
import { CERT_STATUS, covers, daysLeft, type CertificateInfo } from '../../shared/certificates';
import { certificateBlocks, parseUpload, privateKeyBlock } from './parse';

interface UploadBody {
  certificate: string;
  private_key: string;
  gm?: boolean;
  enc_crt?: string;
  enc_pkey?: string;
  remark?: string;
}

const idQuery = {
  type: 'object',
  required: ['certificate_id'],
  properties: { certificate_id: { type: 'integer', minimum: 1, errorMessage: { type: '证书编号须为整数', minimum: '证书编号须为整数' } } },
  errorMessage: { required: { certificate_id: '请指定证书' } },
};

type CertRow = {
  id: number;
  common_name: string;
  domains: string[];
  issuer: string;
  serial: string;
  fingerprint: string;
  valid_from: Date | string;
  valid_to: Date | string;
  gm: boolean;
  remark: string | null;
  created_at: Date | string;
};

function info(r: CertRow, bound?: string[]): CertificateInfo {
  return {
    certificate_id: r.id,
    common_name: r.common_name,
    domains: r.domains,
    issuer: r.issuer,
    serial: r.serial,
    fingerprint: r.fingerprint,
    valid_from: new Date(r.valid_from).toISOString(),
    valid_to: new Date(r.valid_to).toISOString(),
    days_left: daysLeft(r.valid_to),
    gm: r.gm,
    remark: r.remark,
    created_at: new Date(r.created_at).toISOString(),
    ...(bound ? { bound } : {}),
  };
}

const CERT_COLUMNS = ['id', 'common_name', 'domains', 'issuer', 'serial', 'fingerprint', 'valid_from', 'valid_to', 'gm', 'remark', 'created_at'] as const;

export function certificateRoutes(app: FastifyInstance, db: DB): void {
  async function own(user: SessionUser, id: number) {
    const row = await db.selectFrom('certificates').selectAll().where('id', '=', id).where('account_id', '=', user.account_id).executeTakeFirst();
    if (!row) throw new ApiError(21709, 404);
    return row;
  }

  async function boundDomains(ids: number[]) {
    const map = new Map<number, string[]>();
    if (!ids.length) return map;
    const rows = await db
      .selectFrom('domain_https as h')
      .innerJoin('bucket_domains as d', 'd.id', 'h.domain_id')
      .select(['h.certificate_id', 'd.domain'])
      .where('h.certificate_id', 'in', ids)
      .execute();
    for (const r of rows) map.set(r.certificate_id!, [...(map.get(r.certificate_id!) ?? []), r.domain]);
    return map;
  }

  /** A certificate's log row, in the transaction of its change. */
  function log(trx: Transaction<Database>, user: SessionUser, ip: string, action: string, target: string, detail: unknown) {
    return writeLogAs(trx, user, ip, { action, target, detail });
  }

  app.post<{ Body: UploadBody }>('/api/https/certificate/', { config: { access: 'user', needs: ['https'] }, schema: { body: certificateSchema } }, async (req) => {
    const user = req.user!;
    const b = req.body;
    const parsed = parseUpload(b.certificate, b.private_key);
    if (parsed.status !== CERT_STATUS.OK) throw new ApiError(parsed.code, 400, undefined, { status: parsed.status });
    if (b.gm) {
      const enc = parseUpload(b.enc_crt!, b.enc_pkey!);
      if (enc.status !== CERT_STATUS.OK) throw new ApiError(enc.code, 400, [{ path: '/enc_crt', message: '加密证书或加密私钥不正确' }], { status: enc.status });
    }
    const existing = await db
      .selectFrom('certificates')
      .select('id')
      .where('account_id', '=', user.account_id)
      .where('fingerprint', '=', parsed.info.fingerprint)
      .executeTakeFirst();
    if (existing) throw new ApiError(21704, 409, undefined, { status: CERT_STATUS.EXISTS, certificate_id: existing.id });
    const row = await db.transaction().execute(async (trx) => {
      const created = await trx
        .insertInto('certificates')
        .values({
          account_id: user.account_id,
          ...parsed.info,
          domains: JSON.stringify(parsed.info.domains),
          // only the certificate blocks and the key block (a confirmed warning may have mixed them)
          certificate: certificateBlocks(b.certificate),
          private_key: privateKeyBlock(b.private_key),
          enc_crt: b.gm ? certificateBlocks(b.enc_crt!) : null,
          enc_pkey: b.gm ? privateKeyBlock(b.enc_pkey!) : null,
          gm: Boolean(b.gm),
          remark: b.remark || null,
        })
        .returning(CERT_COLUMNS)
        .executeTakeFirstOrThrow();
      await log(trx, user, req.ip, 'certificate.upload', created.common_name, { certificate_id: created.id, domains: parsed.info.domains });
      return created;
    });
    return ok({ status: CERT_STATUS.OK, ...info(row as CertRow, []) });
  });

  app.get<{ Querystring: { limit: number; since?: number; max?: number } }>(
    '/api/https/certificate/list/',
    {
      config: { access: 'user', needs: ['https'] },
      schema: {
        querystring: {
          type: 'object',
          properties: pagingProps(10),
        },
      },
    },
    async (req) => {
      const { limit, since, max } = req.query;
      const user = req.user!;
      const { items: page, pager } = await keysetQuery(db.selectFrom('certificates').select(CERT_COLUMNS).where('account_id', '=', user.account_id), 'id', { limit, since, max, order: 'desc' });
      const bound = await boundDomains(page.map((r) => r.id));
      return ok(page.map((r) => info(r, bound.get(r.id) ?? [])), { pager });
    },
  );

  app.get<{ Querystring: { domain: string } }>(
    '/api/https/certificate/search',
    {
      config: { access: 'user', needs: ['https'] },
      schema: {
        querystring: {
          type: 'object',
          required: ['domain'],
          properties: { domain: { type: 'string', minLength: 1, maxLength: 253, errorMessage: { minLength: '请填写域名', maxLength: '域名过长' } } },
          errorMessage: { required: { domain: '请填写域名' } },
        },
      },
    },
    async (req) => {
      const rows = (await db.selectFrom('certificates').select(CERT_COLUMNS).where('account_id', '=', req.user!.account_id).orderBy('valid_to', 'desc').execute()) as CertRow[];
      return ok(rows.filter((r) => covers(r.domains, req.query.domain)).map((r) => info(r)));
    },
  );

  app.get<{ Querystring: { certificate_id: number } }>('/api/https/certificate/', { config: { access: 'user', needs: ['https'] }, schema: { querystring: idQuery } }, async (req) => {
    const row = await own(req.user!, req.query.certificate_id);
    const bound = await boundDomains([row.id]);
    return ok(info(row as CertRow, bound.get(row.id) ?? []));
  });

  app.delete<{ Querystring: { certificate_id: number } }>('/api/https/certificate/', { config: { access: 'user', needs: ['https'] }, schema: { querystring: idQuery } }, async (req) => {
    const user = req.user!;
    assertNotLocked(user);
    const row = await own(user, req.query.certificate_id);
    const bound = (await boundDomains([row.id])).get(row.id) ?? [];
    if (bound.length) throw new ApiError(21706, 409, undefined, { bound });
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('certificates').where('id', '=', row.id).execute();
      await log(trx, user, req.ip, 'certificate.delete', row.common_name, { certificate_id: row.id });
    });
    return ok();
  });

  app.get<{ Querystring: { certificate_id: number } }>(
    '/api/https/certificate/download',
    { config: { access: 'user', needs: ['https'] }, schema: { querystring: idQuery } },
    async (req, reply) => {
      const user = req.user!;
      // a sub-account may be forbidden to download certificates (spec 000 §6 forbidden_down_ssl)
      if (user.parent_id !== null && user.permissions.includes('forbidden_down_ssl')) throw new ApiError(21111, 403);
      const row = await own(user, req.query.certificate_id);
      const name = row.common_name.replace(/^\*\./, '_.').replace(/[^a-z0-9._-]/gi, '_');
      const body = [row.certificate, row.private_key, ...(row.gm ? [row.enc_crt, row.enc_pkey] : [])].join('\n') + '\n';
      await db.transaction().execute((trx) => log(trx, user, req.ip, 'certificate.download', row.common_name, { certificate_id: row.id }));
      return reply
        .type('application/x-pem-file; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}.pem"`)
        .send(body);
    },
  );

  app.get<{ Querystring: { bucket_name: string } }>(
    '/api/https/services/manager',
    {
      config: { access: 'user', needs: ['https'], bucket: 'query' },
      schema: {
        querystring: {
          type: 'object',
          required: ['bucket_name'],
          properties: { bucket_name: { type: 'string', minLength: 1, errorMessage: { minLength: '请填写服务名称' } } },
          errorMessage: { required: { bucket_name: '请填写服务名称' } },
        },
      },
    },
    async (req) => {
      const bucket = await bucketForUser(db, req.user!, req.query.bucket_name);
      const rows = await db
        .selectFrom('bucket_domains as d')
        .leftJoin('domain_https as h', 'h.domain_id', 'd.id')
        .leftJoin('certificates as c', 'c.id', 'h.certificate_id')
        .select(['d.domain', 'd.cname', 'h.https', 'h.force_https', 'h.certificate_id', 'c.common_name', 'c.valid_to', 'c.gm'])
        .where('d.bucket_id', '=', bucket.id)
        .orderBy('d.id')
        .execute();
      return ok(
        rows.map((r) => ({
          domain: r.domain,
          cname: r.cname,
          https: Boolean(r.https),
          force_https: Boolean(r.force_https),
          certificate_id: r.certificate_id ?? null,
          certificate: r.certificate_id ? { common_name: r.common_name, valid_to: new Date(r.valid_to!).toISOString(), days_left: daysLeft(r.valid_to!), gm: Boolean(r.gm) } : null,
        })),
      );
    },
  );

  const managerBody = {
    type: 'object',
    required: ['domain', 'https', 'force_https'],
    additionalProperties: false,
    properties: {
      domain: { type: 'string', minLength: 1, errorMessage: { type: '请填写域名', minLength: '请填写域名' } },
      certificate_id: { type: ['integer', 'null'], minimum: 1, errorMessage: { type: '请选择证书', minimum: '请选择证书' } },
      https: { type: 'boolean', errorMessage: { type: 'HTTPS 状态只能是开启或关闭' } },
      force_https: { type: 'boolean', errorMessage: { type: '强制 HTTPS 只能是开启或关闭' } },
    },
    errorMessage: {
      required: { domain: '请填写域名', https: '请选择是否开启 HTTPS', force_https: '请选择是否强制 HTTPS' },
      additionalProperties: '包含不支持的配置项',
    },
  };
  const domainQuery = {
    type: 'object',
    required: ['domain'],
    properties: { domain: managerBody.properties.domain },
    errorMessage: { required: { domain: '请填写域名' } },
  };
  type ManagerBody = { domain: string; certificate_id?: number | null; https: boolean; force_https: boolean };

  /** A domain of a service the user reaches (21905 otherwise, the same for a domain of another account). */
  async function reachableDomain(user: SessionUser, domain: string) {
    const d = await db
      .selectFrom('bucket_domains as d')
      .innerJoin('buckets as b', 'b.id', 'd.bucket_id')
      .select(['d.id', 'd.domain', 'b.name as bucket_name'])
      .where('d.domain', '=', domain.toLowerCase())
      .executeTakeFirst();
    if (!d) throw new ApiError(21905, 404);
    await bucketForUser(db, user, d.bucket_name);
    return d;
  }

  async function manage(user: SessionUser, ip: string, body: ManagerBody) {
    const d = await reachableDomain(user, body.domain);
    assertNotLocked(user);
    // spec 002 §4: forcing implies HTTPS on; HTTPS off clears forcing
    const force = body.force_https && (body.https || body.force_https);
    const https = body.https || body.force_https;
    const state = { https, force_https: https ? force : false, certificate_id: body.certificate_id ?? null };
    if (state.https) {
      if (!state.certificate_id) throw new ApiError(21708, 400, [{ path: '/certificate_id', message: '开启 HTTPS 前请先选择证书' }]);
      const cert = await own(user, state.certificate_id);
      if (!covers(cert.domains, d.domain)) throw new ApiError(21707, 400, [{ path: '/certificate_id', message: '证书不包含该域名，请选择包含该域名的证书' }]);
    } else if (state.certificate_id) {
      await own(user, state.certificate_id);
    }
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('domain_https')
        .values({ domain_id: d.id, ...state })
        .onConflict((oc) => oc.column('domain_id').doUpdateSet({ ...state, updated_at: new Date() }))
        .execute();
      await log(trx, user, ip, 'https.update', d.domain, state);
    });
    return ok({ domain: d.domain, ...state });
  }

  app.post<{ Body: ManagerBody }>('/api/https/certificate/manager', { config: { access: 'user', needs: ['https'] }, schema: { body: managerBody } }, async (req) =>
    manage(req.user!, req.ip, req.body),
  );

  /*
   * spec 002 §7 "any method on /api/https/certificate/manager/": with the trailing slash, GET reads one
   * domain's HTTPS state (?domain=), POST and PUT change it as above, DELETE (?domain=) turns HTTPS and
   * forcing off and unbinds the certificate.
   */
  app.get<{ Querystring: { domain: string } }>('/api/https/certificate/manager/', { config: { access: 'user', needs: ['https'] }, schema: { querystring: domainQuery } }, async (req) => {
    const d = await reachableDomain(req.user!, req.query.domain);
    const h = await db.selectFrom('domain_https').select(['https', 'force_https', 'certificate_id']).where('domain_id', '=', d.id).executeTakeFirst();
    return ok({ domain: d.domain, https: Boolean(h?.https), force_https: Boolean(h?.force_https), certificate_id: h?.certificate_id ?? null });
  });
  for (const method of ['POST', 'PUT'] as const) {
    app.route<{ Body: ManagerBody }>({
      method,
      url: '/api/https/certificate/manager/',
      config: { access: 'user', needs: ['https'] },
      schema: { body: managerBody },
      handler: async (req) => manage(req.user!, req.ip, req.body),
    });
  }
  app.delete<{ Querystring: { domain: string } }>('/api/https/certificate/manager/', { config: { access: 'user', needs: ['https'] }, schema: { querystring: domainQuery } }, async (req) =>
    manage(req.user!, req.ip, { domain: req.query.domain, https: false, force_https: false, certificate_id: null }),
  );
}
