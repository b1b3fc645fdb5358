/**
 * Content audit in the console (toolbox.audit; docs/external-products.md "Content audit"): enable it per
 * service, list the audit engine's records with their review state, review them; and the audit-content
 * check the sub-account form depends on (spec 000 §6, §7 "Audit-content check by user_id; returns exists").
 *
 *   GET  /api/audit/exists?user_id          (main accounts) → { exists }: the account of that user has content audit on a service
 *   GET  /api/audit/services                (cloud_audit)   → { services }
 *   POST /api/audit/services                (main accounts) { bucket_name, enabled }
 *   GET  /api/audit/records ?bucket_name&review_state&since&max (cloud_audit) → { records, pager }
 *   POST /api/audit/records/review          (cloud_audit)   { id, review_state: passed|blocked }
 *
 * Records are written by the audit engine (a real deployment's external service writes audit_records);
 * the demo seed adds a few. Refusals: 21905 a service out of reach; 27663 a kind without audit;
 * 27661 a record not the account's; 27662 a record already reviewed.
 */
import type { FastifyInstance } from 'fastify';
import type { DB } from '../db';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { keysetQuery } from '../http/keyset';
import { bucketForUser } from '../buckets/repo';
import { writeLog } from '../accounts/oplog';
import { AUDIT_KINDS, AUDIT_PAGE_SIZE, AUDIT_REVIEW_STATES, type AuditRecord, type AuditService } from '../../shared/external';
import type {} from './tables';

const iso = (d: unknown) => (d ? new Date(d as string).toISOString() : null);

/** The account of `userId` (itself or its parent) has content audit enabled on at least one service. */
export async function auditExists(db: DB, accountId: number): Promise<boolean> {
  return Boolean(await db.selectFrom('audit_services').select('bucket_id').where('account_id', '=', accountId).executeTakeFirst());
}

export function auditRoutes(app: FastifyInstance, db: DB): void {
  const audit = { access: 'user' as const, needs: ['cloud_audit' as const] };

  app.get<{ Querystring: { user_id: number } }>(
    '/api/audit/exists',
    { config: { access: 'parent' }, schema: { querystring: { type: 'object', required: ['user_id'], properties: { user_id: { type: 'integer', minimum: 1 } } } } },
    async (req) => {
      const u = await db.selectFrom('users').select(['id', 'parent_id']).where('id', '=', req.query.user_id).executeTakeFirst();
      const accountId = u ? (u.parent_id ?? u.id) : null;
      // only the account itself and its sub-accounts are answered; anything else does not exist
      const exists = accountId === req.user!.account_id ? await auditExists(db, accountId) : false;
      return ok({ exists });
    },
  );

  app.get('/api/audit/services', { config: audit }, async (req) => {
    const rows = await db
      .selectFrom('buckets as b')
      .leftJoin('audit_services as a', 'a.bucket_id', 'b.id')
      .select(['b.name', 'b.kind', 'a.enabled_at'])
      .where('b.owner_id', '=', req.user!.account_id)
      .where('b.kind', 'in', [...AUDIT_KINDS])
      .orderBy('b.id')
      .limit(500)
      .execute();
    const services: AuditService[] = rows.map((r) => ({ bucket_name: r.name, kind: r.kind, enabled: r.enabled_at !== null, enabled_at: iso(r.enabled_at) }));
    return ok({ services });
  });

  app.post<{ Body: { bucket_name: string; enabled: boolean } }>(
    '/api/audit/services',
    {
      config: { access: 'parent', bucket: 'body' },
      schema: { body: { type: 'object', required: ['bucket_name', 'enabled'], additionalProperties: false, properties: { bucket_name: { type: 'string', minLength: 1, maxLength: 100 }, enabled: { type: 'boolean' } } } },
    },
    async (req) => {
      const b = await bucketForUser(db, req.user!, req.body.bucket_name);
      if (!(AUDIT_KINDS as readonly string[]).includes(b.kind)) throw new ApiError(27663, 400);
      await db.transaction().execute(async (trx) => {
        if (req.body.enabled) await trx.insertInto('audit_services').values({ bucket_id: b.id, account_id: req.user!.account_id }).onConflict((oc) => oc.column('bucket_id').doNothing()).execute();
        else await trx.deleteFrom('audit_services').where('bucket_id', '=', b.id).execute();
        await writeLog(trx, req, { action: req.body.enabled ? 'audit.enable' : 'audit.disable', target: b.name });
      });
      return ok({ bucket_name: b.name, enabled: req.body.enabled });
    },
  );

  app.get<{ Querystring: { bucket_name?: string; review_state?: string; limit?: number; since?: number; max?: number } }>(
    '/api/audit/records',
    {
      config: audit,
      schema: {
        querystring: {
          type: 'object',
          properties: {
            bucket_name: { type: 'string', maxLength: 100 },
            review_state: { type: 'string', enum: Object.keys(AUDIT_REVIEW_STATES) },
            limit: { type: 'integer', minimum: 1, maximum: 100 },
            since: { type: 'integer', minimum: 0 },
            max: { type: 'integer', minimum: 0 },
          },
        },
      },
    },
    async (req) => {
      const q = req.query;
      const accountId = req.user!.account_id;
      let s = db
        .selectFrom('audit_records as r')
        .innerJoin('buckets as b', 'b.id', 'r.bucket_id')
        .select(['r.id', 'b.name as bucket_name', 'r.url', 'r.media', 'r.label', 'r.confidence', 'r.review_state', 'r.reviewed_at', 'r.created_at'])
        .where('r.account_id', '=', accountId);
      if (q.bucket_name) s = s.where('b.name', '=', q.bucket_name);
      if (q.review_state) s = s.where('r.review_state', '=', q.review_state);
      const { items, pager } = await keysetQuery(s, 'r.id', { limit: q.limit ?? AUDIT_PAGE_SIZE, since: q.since, max: q.max, order: 'desc' });
      const records: AuditRecord[] = items.map((r) => ({ ...r, reviewed_at: iso(r.reviewed_at), created_at: iso(r.created_at)! }));
      return ok({ records, pager });
    },
  );

  app.post<{ Body: { id: number; review_state: 'passed' | 'blocked' } }>(
    '/api/audit/records/review',
    {
      config: audit,
      schema: { body: { type: 'object', required: ['id', 'review_state'], additionalProperties: false, properties: { id: { type: 'integer', minimum: 1 }, review_state: { type: 'string', enum: ['passed', 'blocked'] } } } },
    },
    async (req) => {
      const r = await db.selectFrom('audit_records').select(['id', 'review_state']).where('id', '=', req.body.id).where('account_id', '=', req.user!.account_id).executeTakeFirst();
      if (!r) throw new ApiError(27661, 404);
      const done = await db
        .updateTable('audit_records')
        .set({ review_state: req.body.review_state, reviewed_by: req.user!.id, reviewed_at: new Date() })
        .where('id', '=', r.id)
        .where('review_state', '=', 'pending')
        .returning('id')
        .executeTakeFirst();
      if (!done) throw new ApiError(27662, 409);
      return ok({ id: r.id, review_state: req.body.review_state });
    },
  );
}
