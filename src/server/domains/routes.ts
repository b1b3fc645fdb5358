/**
 * The domains tab (docs/service-tabs.md): the domain list of the account or of one service, adding and
 * removing domains, and the CNAME each domain must point to with whether it does.
 *
 *   GET    /api/account/domains/?bucket_name&domain&limit&since&max&check  → DomainEntry[], pager, total, default_domain
 *   POST   /api/account/domains/        {bucket_name, domain}                → DomainEntry
 *   DELETE /api/account/domains/        {bucket_name, domain}                → null
 *   GET    /api/account/domains/cname/?bucket_name&domain                    → DomainEntry (after a fresh lookup)
 *
 * A domain belongs to one service across all accounts (bucket_domains.domain is unique: 21215, unless the
 * asking account proves the domain with a DNS TXT record and the holder cannot: ./ownership.ts); a
 * service holds at most 10 (21240). Only an account whose main account has completed real-name verification
 * binds a domain (22005, 403; ../accounts/realname.ts). The default domain <bucket>.<suffix> is listed only for the exempt
 * accounts and buckets of the configuration; for the others every domain under the suffix is hidden.
 */
import type { FastifyInstance } from 'fastify';
import type { DB } from '../db';
import type { ServerConfig } from '../config';
import type { SessionUser } from '../accounts/session';
import { ok } from '../http/envelope';
import { ApiError } from '../http/errors';
import { keysetQuery, pagingProps } from '../http/keyset';
import { bucketForUser, visibleTo, type BucketRow } from '../buckets/repo';
import { cnameFor } from '../buckets/create';
import { assertNotLocked } from '../settings/routes';
import addDomainSchema from '../../../schemas/forms/add_domain/schema.json';
import {
  DOMAIN_MAX_LENGTH, DOMAIN_PAGE_SIZE, DOMAIN_TEXTS, DOMAINS_PER_SERVICE, normalizeDomain, underDefaultSuffix,
  type CnameStatus, type DomainEntry,
} from '../../shared/domains';
import { checkCname, dnsResolver, type CnameResolver } from './resolver';
import { mayTakeOver, ownershipRecord } from './ownership';
import { domainConfigFromEnv } from './config';
import { fusionRoutes } from './fusion';
import { writeLog } from '../accounts/oplog';
import { assertRealName } from '../accounts/realname';
import type { SettingRegistry } from '../../../schemas/registry';
import './tables';

interface ListQuery { bucket_name?: string; domain?: string; limit: number; since?: number; max?: number; check: boolean }
interface DomainBody { bucket_name: string; domain: string }

const bucketNameProp = { type: 'string', minLength: 1, maxLength: 100, errorMessage: { type: '请填写服务名称', minLength: '请填写服务名称', maxLength: '服务名称过长' } };
/** The add form's declaration (schemas/forms/add_domain) plus the service: one schema for both sides. */
const bodySchema = {
  ...addDomainSchema,
  required: ['bucket_name', ...addDomainSchema.required],
  properties: { bucket_name: bucketNameProp, ...addDomainSchema.properties },
  errorMessage: { ...addDomainSchema.errorMessage, type: '请求内容须为 JSON 对象', required: { bucket_name: '请填写服务名称', ...addDomainSchema.errorMessage.required } },
};

interface Row { id: number; domain: string; cname: string; bucket_name: string; created_at: Date | string; status: string | null; resolved: string | null; checked_at: Date | string | null }

function entryOf(r: Row): DomainEntry {
  return {
    id: r.id,
    domain: r.domain,
    cname: r.cname,
    bucket_name: r.bucket_name,
    is_default: false,
    created_at: new Date(r.created_at).toISOString(),
    check: r.status ? { status: r.status as CnameStatus, resolved: JSON.parse(r.resolved ?? '[]'), checked_at: new Date(r.checked_at!).toISOString() } : null,
  };
}

/** Also registers the fusion CDN variants (./fusion.ts), so the application registers the section with one line. */
export function domainRoutes(app: FastifyInstance, db: DB, config: ServerConfig, registry: SettingRegistry): void {
  fusionRoutes(app, db, registry);
  const conf = config.domains ?? domainConfigFromEnv({});
  const resolver: CnameResolver = conf.resolver ?? dnsResolver(conf.dnsTimeoutMs);
  const suffix = conf.defaultSuffix;
  const underSuffix = (d: string) => underDefaultSuffix(d, suffix);
  /** Whether the default domain is shown: the account's or the bucket's name is on the exempt list. */
  const exempt = async (user: SessionUser, bucketName?: string) => {
    if (bucketName && conf.exempt.includes(bucketName)) return true;
    const owner = await db.selectFrom('users').select('username').where('id', '=', user.account_id).executeTakeFirst();
    return Boolean(owner && conf.exempt.includes(owner.username));
  };

  const rows = () =>
    db
      .selectFrom('bucket_domains as d')
      .innerJoin('buckets', 'buckets.id', 'd.bucket_id')
      .leftJoin('domain_checks as c', 'c.domain_id', 'd.id')
      .select(['d.id as id', 'd.domain as domain', 'd.cname as cname', 'buckets.name as bucket_name', 'd.created_at as created_at', 'c.status as status', 'c.resolved as resolved', 'c.checked_at as checked_at']);

  async function recheck(entry: DomainEntry): Promise<DomainEntry> {
    const result = await checkCname(resolver, entry.domain, entry.cname);
    const now = new Date();
    if (!entry.is_default) {
      await db
        .insertInto('domain_checks')
        .values({ domain_id: entry.id, status: result.status, resolved: JSON.stringify(result.resolved), checked_at: now })
        .onConflict((oc) => oc.column('domain_id').doUpdateSet({ status: result.status, resolved: JSON.stringify(result.resolved), checked_at: now }))
        .execute();
    }
    return { ...entry, check: { ...result, checked_at: now.toISOString() } };
  }

  app.get<{ Querystring: ListQuery }>(
    '/api/account/domains/',
    {
      config: { access: 'user', bucket: 'query' },
      schema: {
        querystring: {
          type: 'object',
          properties: {
            bucket_name: bucketNameProp,
            domain: { type: 'string', maxLength: DOMAIN_MAX_LENGTH, errorMessage: { maxLength: '域名不能超过 253 个字符' } },
            ...pagingProps(DOMAIN_PAGE_SIZE),
            check: { type: 'boolean', default: false, errorMessage: { type: '参数 check 须为 true 或 false' } },
          },
        },
      },
    },
    async (req) => {
      const user = req.user!;
      const q = req.query;
      const bucket = q.bucket_name ? await bucketForUser(db, user, q.bucket_name) : null;
      const showDefault = await exempt(user, bucket?.name);
      const like = q.domain ? `%${normalizeDomain(q.domain).replace(/[\\%_]/g, (c) => '\\' + c)}%` : '';
      let base = visibleTo(rows() as any, user) as ReturnType<typeof rows>;
      if (bucket) base = base.where('d.bucket_id', '=', bucket.id);
      if (like) base = base.where('d.domain', 'ilike', like);
      if (!showDefault) base = base.where('d.domain', 'not like', `%.${suffix}`).where('d.domain', '!=', suffix);
      const { items, pager } = await keysetQuery(base, 'd.id', { limit: q.limit, since: q.since, max: q.max });
      let entries = items.map(entryOf);
      if (q.check) entries = await Promise.all(entries.map(recheck));
      const extra: Record<string, unknown> = { pager };
      if (bucket) {
        const total = await db.selectFrom('bucket_domains').select(db.fn.countAll<number>().as('n')).where('bucket_id', '=', bucket.id).executeTakeFirstOrThrow();
        extra.total = Number(total.n);
        extra.limit = DOMAINS_PER_SERVICE;
        extra.default_domain = showDefault ? `${bucket.name}.${suffix}` : null;
      }
      return ok(entries, extra);
    },
  );

  app.post<{ Body: DomainBody }>('/api/account/domains/', { config: { access: 'user', bucket: 'body' }, schema: { body: bodySchema } }, async (req) => {
    const user = req.user!;
    const domain = normalizeDomain(req.body.domain);
    if (underDefaultSuffix(domain, suffix)) throw new ApiError(20001, 400, [{ path: '/domain', message: DOMAIN_TEXTS.defaultSuffix }]);
    const bucket = await bucketForUser(db, user, req.body.bucket_name);
    assertNotLocked(user);
    // binding needs the main account's real-name verification (22005), before anything about the domain is told
    await assertRealName(db, user, [{ path: '/domain', message: DOMAIN_TEXTS.realname }]);
    // held by another account: its owner may take it over with a DNS TXT proof (./ownership.ts), read
    // before the transaction so no lock waits on DNS
    const holder = await db.selectFrom('bucket_domains as d').innerJoin('buckets as b', 'b.id', 'd.bucket_id').select(['d.bucket_id', 'b.owner_id', 'b.name']).where('d.domain', '=', domain).executeTakeFirst();
    const otherAccount = holder && holder.owner_id !== user.account_id;
    const takeover = otherAccount && (await mayTakeOver(db, resolver, domain, user.account_id, holder.owner_id)) ? holder : null;
    // (made before the transaction too: on PGlite a query outside it would wait for it forever)
    const proof = otherAccount && !takeover ? await ownershipRecord(db, user.account_id, domain) : null;
    const refusal = () =>
      proof
        ? new ApiError(21215, 409, [{ path: '/domain', message: `域名 ${domain} 已被其他账号绑定。如您是该域名的所有者，请在 DNS 中添加 TXT 记录 ${proof.name}，值为 ${proof.value}，生效后再次添加即可转入本服务` }], { verify: proof })
        : new ApiError(21215, 409, [{ path: '/domain', message: `域名 ${domain} 已被其他服务绑定` }]);
    const row = await db.transaction().execute(async (trx) => {
      // one writer per service at a time, so two adds cannot both pass the limit
      await trx.selectFrom('buckets').select('id').where('id', '=', bucket.id).forUpdate().executeTakeFirst();
      const taken = await trx.selectFrom('bucket_domains').select(['bucket_id']).where('domain', '=', domain).executeTakeFirst();
      if (taken?.bucket_id === bucket.id) throw new ApiError(21245, 409, [{ path: '/domain', message: `域名 ${domain} 已绑定到此服务` }]);
      if (taken && takeover?.bucket_id !== taken.bucket_id) throw refusal();
      if (taken) {
        // proven: the other account's binding goes, this one is made below (docs/security.md "Domain ownership")
        await trx.deleteFrom('bucket_domains').where('domain', '=', domain).where('bucket_id', '=', taken.bucket_id).execute();
        await writeLog(trx, req, { action: 'domain.takeover', target: bucket.name, detail: { domain, from_bucket: takeover!.name } });
      }
      const count = await trx.selectFrom('bucket_domains').select(trx.fn.countAll<number>().as('n')).where('bucket_id', '=', bucket.id).executeTakeFirstOrThrow();
      if (Number(count.n) >= DOMAINS_PER_SERVICE) throw new ApiError(21240, 400);
      const inserted = await trx.insertInto('bucket_domains').values({ bucket_id: bucket.id, domain, cname: cnameFor(bucket.name) }).returningAll().executeTakeFirstOrThrow();
      await writeLog(trx, req, { action: 'domain.add', target: bucket.name, detail: { domain } });
      return inserted;
    }).catch((e) => {
      // the unique index decides a race between two services
      if ((e as { code?: string }).code === '23505') throw new ApiError(21215, 409, [{ path: '/domain', message: `域名 ${domain} 已被其他服务绑定` }]);
      throw e;
    });
    return ok(entryOf({ ...row, bucket_name: bucket.name, status: null, resolved: null, checked_at: null }));
  });

  app.delete<{ Body: DomainBody }>('/api/account/domains/', { config: { access: 'user', bucket: 'body' }, schema: { body: bodySchema } }, async (req) => {
    const user = req.user!;
    const domain = normalizeDomain(req.body.domain);
    const bucket = await bucketForUser(db, user, req.body.bucket_name);
    assertNotLocked(user);
    await db.transaction().execute(async (trx) => {
      const gone = await trx.deleteFrom('bucket_domains').where('bucket_id', '=', bucket.id).where('domain', '=', domain).executeTakeFirst();
      if (Number(gone.numDeletedRows) === 0) throw new ApiError(21241, 404);
      await writeLog(trx, req, { action: 'domain.remove', target: bucket.name, detail: { domain } });
    });
    return ok(null);
  });

  app.get<{ Querystring: DomainBody }>(
    '/api/account/domains/cname/',
    {
      config: { access: 'user', bucket: 'query' },
      schema: { querystring: { ...bodySchema, additionalProperties: true, errorMessage: { required: bodySchema.errorMessage.required } } },
    },
    async (req) => {
      const user = req.user!;
      const bucket: BucketRow = await bucketForUser(db, user, req.query.bucket_name);
      const domain = normalizeDomain(req.query.domain);
      if (domain === `${bucket.name}.${suffix}` && (await exempt(user, bucket.name))) {
        return ok(await recheck({ id: 0, domain, cname: cnameFor(bucket.name), bucket_name: bucket.name, is_default: true, created_at: new Date(bucket.created_at).toISOString(), check: null }));
      }
      const row = (await rows().where('d.bucket_id', '=', bucket.id).where('d.domain', '=', domain).executeTakeFirst()) as Row | undefined;
      if (!row || (underSuffix(domain) && !(await exempt(user, bucket.name)))) throw new ApiError(21241, 404);
      return ok(await recheck(entryOf(row)));
    },
  );
}
