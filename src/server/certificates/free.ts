/**
 * Free certificates (spec 002 §3, §7; docs/certificates.md):
 *
 *   GET  /.well-known/acme-challenge/:token          HTTP-01 answers (public; the CDN passes this path to us)
 *   POST /api/https/letsencrypt                       apply (the certificate_free declaration)
 *   POST /api/https/trustasia                         apply, one domain
 *   POST /api/https/trustasia/validate                the same checks without applying (nothing stored)
 *   POST /api/https/racent/certificate/free/predcv    pre-domain-check: an application waiting for /apply
 *   POST /api/https/racent/certificate/free/apply     { apply_id } → the application goes to the CA
 *   GET  /api/https/apply/certificate_list/           the account's applications (cursor paging)
 *   GET  /api/https/apply?apply_id=                   one application
 *
 * An application waits in `pending` until the ACME worker (./acme.ts) issues it; at most
 * FREE_CERT_LIMIT applications that did not fail per account; each one beyond takes a unit of a
 * free-certificate extension package (sslpack), else 24601 (docs/certificates.md "Beyond 20").
 */
import type { FastifyInstance } from 'fastify';
import freeSchema from '../../../schemas/forms/certificate_free/schema.json';
import type { DB } from '../db';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { keysetQuery, pagingProps } from '../http/keyset';
import type { SessionUser } from '../accounts/session';
import { writeLogAs } from '../accounts/oplog';
import { assertNotLocked } from '../settings/routes';
import { APPLY_STATUS, FREE_AGENTS, FREE_CERT_LIMIT, SSLPACK_LINK, type ApplyStatus, type CertificateApplication, type FreeAgent } from '../../shared/certificates';
import type {} from './tables';
import { consumePackages } from '../billing/resources/consume';
import { remainByKind } from '../billing/resources/remain';

interface FreeBody {
  agent: FreeAgent;
  domains: string[];
}

const applyIdQuery = {
  type: 'object',
  required: ['apply_id'],
  properties: { apply_id: { type: 'integer', minimum: 1, errorMessage: { type: '申请编号须为整数', minimum: '申请编号须为整数' } } },
  errorMessage: { required: { apply_id: '请指定申请编号' } },
};

type AppRow = {
  id: number;
  agent: string;
  domains: string[];
  status: string;
  certificate_id: number | null;
  error: string | null;
  auto_renew: boolean;
  created_at: Date | string;
  issued_at: Date | string | null;
  valid_to?: Date | string | null;
};

export const ACME_CHALLENGE_PATH = '/.well-known/acme-challenge/';

function view(r: AppRow): CertificateApplication {
  const status = r.status as ApplyStatus;
  return {
    apply_id: r.id,
    agent: r.agent as FreeAgent,
    domains: r.domains,
    status,
    status_text: APPLY_STATUS[status] ?? r.status,
    certificate_id: r.certificate_id,
    error: r.error,
    auto_renew: r.auto_renew,
    created_at: new Date(r.created_at).toISOString(),
    issued_at: r.issued_at ? new Date(r.issued_at).toISOString() : null,
    valid_to: r.valid_to ? new Date(r.valid_to).toISOString() : null,
    dcv_path: ACME_CHALLENGE_PATH,
  };
}

const COLUMNS = ['a.id', 'a.agent', 'a.domains', 'a.status', 'a.certificate_id', 'a.error', 'a.auto_renew', 'a.created_at', 'a.issued_at', 'c.valid_to'] as const;

export function freeCertificateRoutes(app: FastifyInstance, db: DB): void {
  app.get<{ Params: { token: string } }>(`${ACME_CHALLENGE_PATH}:token`, { config: { access: 'public', crossSite: 'allow' } }, async (req, reply) => {
    const row = await db.selectFrom('acme_challenges').select('key_authorization').where('token', '=', req.params.token).executeTakeFirst();
    if (!row) return reply.status(404).type('text/plain; charset=utf-8').send('not found');
    return reply.type('text/plain; charset=utf-8').send(row.key_authorization);
  });

  async function one(user: SessionUser, id: number): Promise<AppRow> {
    const row = await db
      .selectFrom('certificate_applications as a')
      .leftJoin('certificates as c', 'c.id', 'a.certificate_id')
      .select(COLUMNS)
      .where('a.id', '=', id)
      .where('a.account_id', '=', user.account_id)
      .executeTakeFirst();
    if (!row) throw new ApiError(23605, 404);
    return row as AppRow;
  }

  /** The checks an application must pass before it is stored (apply and /api/https/trustasia/validate). */
  async function check(user: SessionUser, agent: FreeAgent, domains: string[]): Promise<string[]> {
    assertNotLocked(user);
    const names = domains.map((d) => d.toLowerCase());
    if (names.length > FREE_AGENTS[agent].maxDomains) throw new ApiError(23607, 400, [{ path: '/domains', message: '该免费证书每次只能申请一个域名' }]);
    if (names.some((d) => d.startsWith('*.'))) throw new ApiError(23603, 400);
    // HTTP-01 is answered by this platform: the domains must be the account's service domains
    const own = await db
      .selectFrom('bucket_domains as d')
      .innerJoin('buckets as b', 'b.id', 'd.bucket_id')
      .select('d.domain')
      .where('d.domain', 'in', names)
      .where('b.owner_id', '=', user.account_id)
      .execute();
    const missing = names.filter((n) => !own.some((o) => o.domain === n));
    if (missing.length) throw new ApiError(23602, 400, missing.map((m) => ({ path: `/domains/${names.indexOf(m)}`, message: `${m} 不是您服务中的域名` })));
    return names;
  }

  /** The account's applications that count (not failed), and whether one of `names` is still being applied for. */
  async function existingOf(q: Pick<DB, 'selectFrom'>, accountId: number, names: string[]) {
    const existing = await q.selectFrom('certificate_applications').select(['domains', 'status']).where('account_id', '=', accountId).where('status', '!=', 'failed').execute();
    const busy = existing.filter((e) => e.status !== 'issued').flatMap((e) => e.domains);
    if (names.some((n) => busy.includes(n))) throw new ApiError(23604, 409);
    return existing;
  }

  /** Checks shared by every agent; returns the application row created with the given status. */
  async function apply(user: SessionUser, ip: string, agent: FreeAgent, domains: string[], status: ApplyStatus) {
    const names = await check(user, agent, domains);
    return db.transaction().execute(async (trx) => {
      const existing = await existingOf(trx, user.account_id, names);
      // beyond the free ones, each application takes one unit of a free-certificate extension package
      let packId: number | null = null;
      if (existing.length >= FREE_CERT_LIMIT) {
        const t = await consumePackages(trx, user.account_id, 'sslpack', 1);
        if (!t.covered) throw new ApiError(24601, 409, undefined, { link: SSLPACK_LINK });
        packId = t.taken[0]!.id;
      }
      const row = await trx
        .insertInto('certificate_applications')
        .values({ account_id: user.account_id, agent, domains: JSON.stringify(names), status, pack_id: packId })
        .returning('id')
        .executeTakeFirstOrThrow();
      await writeLogAs(trx, user, ip, { action: 'certificate.free.apply', target: names[0]!, detail: { apply_id: row.id, agent, domains: names, status, ...(packId ? { pack_id: packId } : {}) } });
      return row.id;
    });
  }

  const freeRoute = (url: string, agent: FreeAgent, status: ApplyStatus) =>
    app.post<{ Body: FreeBody }>(url, { config: { access: 'user', needs: ['https'] }, schema: { body: freeSchema } }, async (req) => {
      const id = await apply(req.user!, req.ip, agent, req.body.domains, status);
      return ok(view(await one(req.user!, id)));
    });
  freeRoute('/api/https/letsencrypt', 'letsencrypt', 'pending');
  freeRoute('/api/https/trustasia', 'trustasia', 'pending');
  freeRoute('/api/https/racent/certificate/free/predcv', 'racent', 'dcv');

  /**
   * spec 002 §7 /api/https/trustasia/validate: the checks of a TrustAsia application without storing
   * one — the same refusals as POST /api/https/trustasia; the answer says whether it would take a unit
   * of a free-certificate extension package and whether one is left.
   */
  app.post<{ Body: { domains: string[] } }>(
    '/api/https/trustasia/validate',
    {
      config: { access: 'user', needs: ['https'] },
      schema: {
        body: {
          type: 'object',
          required: ['domains'],
          additionalProperties: false,
          properties: { domains: freeSchema.properties.domains },
          errorMessage: { required: { domains: freeSchema.errorMessage.required.domains }, additionalProperties: freeSchema.errorMessage.additionalProperties },
        },
      },
    },
    async (req) => {
      const user = req.user!;
      const names = await check(user, 'trustasia', req.body.domains);
      const existing = await existingOf(db, user.account_id, names);
      const usesPack = existing.length >= FREE_CERT_LIMIT;
      const packRemain = (await remainByKind(db, user.account_id)).sslpack ?? 0;
      if (usesPack && packRemain < 1) throw new ApiError(24601, 409, undefined, { link: SSLPACK_LINK });
      return ok({ domains: names, free_used: existing.length, free_limit: FREE_CERT_LIMIT, uses_pack: usesPack, pack_remain: packRemain });
    },
  );

  app.post<{ Body: { apply_id: number } }>(
    '/api/https/racent/certificate/free/apply',
    { config: { access: 'user', needs: ['https'] }, schema: { body: { ...applyIdQuery, additionalProperties: false } } },
    async (req) => {
      const user = req.user!;
      assertNotLocked(user);
      const row = await one(user, req.body.apply_id);
      if (row.status !== 'dcv') throw new ApiError(23606, 409);
      await db.updateTable('certificate_applications').set({ status: 'pending', updated_at: new Date() }).where('id', '=', row.id).where('status', '=', 'dcv').execute();
      return ok(view(await one(user, row.id)));
    },
  );

  app.get<{ Querystring: { limit: number; since?: number; max?: number } }>(
    '/api/https/apply/certificate_list/',
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
      const base = db.selectFrom('certificate_applications as a').leftJoin('certificates as c', 'c.id', 'a.certificate_id').select(COLUMNS).where('a.account_id', '=', user.account_id);
      const { items, pager } = await keysetQuery(base, 'a.id', { limit, since, max, order: 'desc' });
      const used = await db.selectFrom('certificate_applications').select((eb) => eb.fn.countAll<string>().as('n')).where('account_id', '=', user.account_id).where('status', '!=', 'failed').executeTakeFirstOrThrow();
      const packRemain = (await remainByKind(db, user.account_id)).sslpack ?? 0;
      return ok(items.map(view), { pager, free_used: Number(used.n), free_limit: FREE_CERT_LIMIT, pack_remain: packRemain });
    },
  );

  app.get<{ Querystring: { apply_id: number } }>('/api/https/apply', { config: { access: 'user', needs: ['https'] }, schema: { querystring: applyIdQuery } }, async (req) =>
    ok(view(await one(req.user!, req.query.apply_id))),
  );
}
