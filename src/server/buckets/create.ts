/**
 * Creating a service: PUT /api/buckets/ with the create_service declaration
 * (schemas/forms/create_service). Refused for key customers (file and CDN kinds), for overseas
 * below the balance threshold, for a taken name (21213) or a domain bound elsewhere (21215), and with
 * domains for an account whose main account has not completed real-name verification (22005; without
 * domains the service is created, its domains added once verified).
 */
import type { FastifyInstance } from 'fastify';
import createServiceSchema from '../../../schemas/forms/create_service/schema.json';
import type { DB } from '../db';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { usageOf } from '../accounts/users';
import { writeLog } from '../accounts/oplog';
import { assertRealName } from '../accounts/realname';
import { DOMAIN_TEXTS } from '../../shared/domains';
import { creationRefusal, type ServiceKind } from '../../shared/services';
import { bucketInfo, domainsOf, type BucketRow } from './repo';
import { assertMayUse } from '../http/access';
import { CREATE_PERMISSION, type Need } from '../../shared/permissions';

const CREATE_PERMISSIONS: Need[] = [...new Set(Object.values(CREATE_PERMISSION))];

interface CreateBody {
  bucket_name: string;
  kind: ServiceKind;
  remark?: string;
  domains: string[];
}

/** The CNAME a new service's domains point to. */
export function cnameFor(bucketName: string): string {
  return `${bucketName}.cdn-cname.example.net`;
}

export function createBucketRoutes(app: FastifyInstance, db: DB): void {
  app.put<{ Body: CreateBody }>('/api/buckets/', { config: { access: 'user', needs: CREATE_PERMISSIONS }, schema: { body: createServiceSchema } }, async (req) => {
    const user = req.user!;
    const body = req.body;
    // a sub-account creates only the kinds it may create (spec 000 §6: create_cdn, create_file, …)
    assertMayUse(user, [CREATE_PERMISSION[body.kind]]);
    const usage = await usageOf(db, user.account_id);
    const refusal = creationRefusal(body.kind, { ...user, money: usage.money });
    if (refusal) throw new ApiError(refusal, 403);
    if (body.domains.length) await assertRealName(db, user, [{ path: '/domains', message: DOMAIN_TEXTS.realname }]);
    const row = await db.transaction().execute(async (trx) => {
      if (await trx.selectFrom('buckets').select('id').where('name', '=', body.bucket_name).executeTakeFirst()) throw new ApiError(21213, 409);
      if (body.domains.length) {
        const taken = await trx.selectFrom('bucket_domains').select('domain').where('domain', 'in', body.domains).executeTakeFirst();
        if (taken) throw new ApiError(21215, 409, [{ path: `/domains/${body.domains.indexOf(taken.domain)}`, message: `域名 ${taken.domain} 已被其他服务绑定` }]);
      }
      const b = (await trx
        .insertInto('buckets')
        .values({ name: body.bucket_name, owner_id: user.account_id, kind: body.kind, remark: body.remark || null })
        .returningAll()
        .executeTakeFirstOrThrow()) as BucketRow;
      for (const domain of body.domains) {
        await trx.insertInto('bucket_domains').values({ bucket_id: b.id, domain, cname: cnameFor(b.name) }).execute();
      }
      await writeLog(trx, req, { action: 'bucket.create', target: b.name, detail: { kind: b.kind, domains: body.domains } });
      return b;
    });
    const domains = await domainsOf(db, [row.id]);
    return ok(bucketInfo(row, domains.get(row.id) ?? []));
  });
}
