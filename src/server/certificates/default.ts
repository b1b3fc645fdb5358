/**
 * The default-domain certificate page (spec 002 §2 ssl/manage_default/) and certificate migration:
 *
 *   GET  /api/https/domain/default/manager/   every reachable service's default domain with its HTTPS state
 *   POST /api/https/domain/default/manager/   { bucket_name, https, force_https } (the platform's certificate)
 *   POST /api/https/migrate/certificate       { certificate_id, target_certificate_id }: every domain on one
 *                                             certificate moves to another that covers them all
 *   POST /api/https/migrate/domain            { domains, certificate_id }: these domains move to the certificate
 *
 * The same rules as per-domain HTTPS (spec 002 §4): forcing implies HTTPS on, HTTPS off clears forcing.
 */
import type { FastifyInstance } from 'fastify';
import type { DB } from '../db';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import type { SessionUser } from '../accounts/session';
import { writeLog, writeLogAs } from '../accounts/oplog';
import { assertNotLocked } from '../settings/routes';
import { bucketForUser, childReaches, visibleTo, type BucketRow } from '../buckets/repo';
import { covers, daysLeft } from '../../shared/certificates';
import type {} from './tables';

const flags = {
  https: { type: 'boolean', errorMessage: { type: 'HTTPS 状态只能是开启或关闭' } },
  force_https: { type: 'boolean', errorMessage: { type: '强制 HTTPS 只能是开启或关闭' } },
};
const certId = (message: string) => ({ type: 'integer', minimum: 1, errorMessage: { type: message, minimum: message } });

export function defaultDomainRoutes(app: FastifyInstance, db: DB, defaultSuffix: string): void {
  app.get('/api/https/domain/default/manager/', { config: { access: 'user', needs: ['https'] } }, async (req) => {
    const rows = await visibleTo(db.selectFrom('buckets'), req.user!)
      .leftJoin('default_domain_https as h', 'h.bucket_id', 'buckets.id')
      .select(['buckets.name', 'buckets.kind', 'h.https', 'h.force_https'])
      .orderBy('buckets.id')
      .execute();
    return ok(
      rows.map((r) => ({ bucket_name: r.name, kind: r.kind, domain: `${r.name}.${defaultSuffix}`, https: Boolean(r.https), force_https: Boolean(r.force_https) })),
      { suffix: defaultSuffix },
    );
  });

  app.post<{ Body: { bucket_name: string; https: boolean; force_https: boolean } }>(
    '/api/https/domain/default/manager/',
    {
      config: { access: 'user', needs: ['https'], bucket: 'body' },
      schema: {
        body: {
          type: 'object',
          required: ['bucket_name', 'https', 'force_https'],
          additionalProperties: false,
          properties: { bucket_name: { type: 'string', minLength: 1, errorMessage: { type: '请填写服务名称', minLength: '请填写服务名称' } }, ...flags },
          errorMessage: { required: { bucket_name: '请填写服务名称', https: '请选择是否开启 HTTPS', force_https: '请选择是否强制 HTTPS' }, additionalProperties: '包含不支持的配置项' },
        },
      },
    },
    async (req) => {
      const user = req.user!;
      const bucket = await bucketForUser(db, user, req.body.bucket_name);
      assertNotLocked(user);
      const https = req.body.https || req.body.force_https;
      const state = { https, force_https: https && req.body.force_https };
      const domain = `${bucket.name}.${defaultSuffix}`;
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('default_domain_https')
          .values({ bucket_id: bucket.id, ...state })
          .onConflict((oc) => oc.column('bucket_id').doUpdateSet({ ...state, updated_at: new Date() }))
          .execute();
        await writeLog(trx, req, { action: 'https.default.update', target: domain, detail: state });
      });
      return ok({ bucket_name: bucket.name, domain, ...state });
    },
  );

  async function ownCert(user: SessionUser, id: number) {
    const c = await db.selectFrom('certificates').select(['id', 'domains', 'common_name', 'valid_to']).where('id', '=', id).where('account_id', '=', user.account_id).executeTakeFirst();
    if (!c) throw new ApiError(21709, 404);
    if (daysLeft(c.valid_to) < 0) throw new ApiError(21705, 400);
    return c;
  }

  /** Moves the bindings of these domain rows to the certificate; refuses the whole move if one is not covered. */
  async function move(user: SessionUser, ip: string, rows: { domain_id: number; domain: string }[], target: { id: number; domains: string[] }, action: string, create = false) {
    const uncovered = rows.filter((r) => !covers(target.domains, r.domain)).map((r) => r.domain);
    if (uncovered.length) throw new ApiError(21707, 400, uncovered.map((d) => ({ path: '/certificate_id', message: `证书不包含域名 ${d}` })));
    await db.transaction().execute(async (trx) => {
      // a domain without an HTTPS row yet gets one (HTTPS stays off until turned on)
      if (create) for (const r of rows) await trx.insertInto('domain_https').values({ domain_id: r.domain_id, certificate_id: null }).onConflict((oc) => oc.column('domain_id').doNothing()).execute();
      if (rows.length) {
        await trx.updateTable('domain_https').set({ certificate_id: target.id, updated_at: new Date() }).where('domain_id', 'in', rows.map((r) => r.domain_id)).execute();
      }
      await writeLogAs(trx, user, ip, { action, target: String(target.id), detail: { certificate_id: target.id, domains: rows.map((r) => r.domain) } });
    });
    return ok({ certificate_id: target.id, domains: rows.map((r) => r.domain) });
  }

  app.post<{ Body: { certificate_id: number; target_certificate_id: number } }>(
    '/api/https/migrate/certificate',
    {
      config: { access: 'user', needs: ['https'] },
      schema: {
        body: {
          type: 'object',
          required: ['certificate_id', 'target_certificate_id'],
          additionalProperties: false,
          properties: { certificate_id: certId('请选择原证书'), target_certificate_id: certId('请选择新证书') },
          errorMessage: { required: { certificate_id: '请选择原证书', target_certificate_id: '请选择新证书' }, additionalProperties: '包含不支持的配置项' },
        },
      },
    },
    async (req) => {
      const user = req.user!;
      assertNotLocked(user);
      const from = await db.selectFrom('certificates').select('id').where('id', '=', req.body.certificate_id).where('account_id', '=', user.account_id).executeTakeFirst();
      if (!from) throw new ApiError(21709, 404);
      const target = await ownCert(user, req.body.target_certificate_id);
      const rows = await db
        .selectFrom('domain_https as h')
        .innerJoin('bucket_domains as d', 'd.id', 'h.domain_id')
        .innerJoin('buckets as b', 'b.id', 'd.bucket_id')
        .select(['h.domain_id', 'd.domain', 'b.id as bucket_id', 'b.kind'])
        .where('h.certificate_id', '=', from.id)
        .where('b.owner_id', '=', user.account_id)
        .execute();
      for (const r of rows) if (!(await childReaches(db, user, { id: r.bucket_id, kind: r.kind }))) throw new ApiError(21905, 404);
      return move(user, req.ip, rows, target, 'certificate.migrate');
    },
  );

  app.post<{ Body: { domains: string[]; certificate_id: number } }>(
    '/api/https/migrate/domain',
    {
      config: { access: 'user', needs: ['https'] },
      schema: {
        body: {
          type: 'object',
          required: ['domains', 'certificate_id'],
          additionalProperties: false,
          properties: {
            domains: { type: 'array', minItems: 1, maxItems: 100, items: { type: 'string', minLength: 1, errorMessage: { type: '请填写域名', minLength: '请填写域名' } }, errorMessage: { type: '请选择域名', minItems: '请选择域名', maxItems: '个数超出限制' } },
            certificate_id: certId('请选择证书'),
          },
          errorMessage: { required: { domains: '请选择域名', certificate_id: '请选择证书' }, additionalProperties: '包含不支持的配置项' },
        },
      },
    },
    async (req) => {
      const user = req.user!;
      assertNotLocked(user);
      const target = await ownCert(user, req.body.certificate_id);
      const names = [...new Set(req.body.domains.map((d) => d.toLowerCase()))];
      const found = await db
        .selectFrom('bucket_domains as d')
        .innerJoin('buckets as b', 'b.id', 'd.bucket_id')
        .select(['d.id as domain_id', 'd.domain', 'b.id', 'b.kind', 'b.owner_id'])
        .where('d.domain', 'in', names)
        .execute();
      for (const n of names) {
        const f = found.find((x) => x.domain === n);
        if (!f || f.owner_id !== user.account_id || !(await childReaches(db, user, { id: f.id, kind: f.kind } as Pick<BucketRow, 'id' | 'kind'>))) throw new ApiError(21905, 404);
      }
      const rows = found.map((f) => ({ domain_id: f.domain_id, domain: f.domain }));
      return move(user, req.ip, rows, target, 'domain.migrate', true);
    },
  );
}
