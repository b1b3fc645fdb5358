/**
 * GET /api/dashboard/ — what the main page of a main account shows besides the balance and the
 * service counts (which have their own calls): the account's traffic and bandwidth of the last 24
 * hours (hourly points; bandwidth is the highest 5-minute value in the hour), certificates and resource
 * packages that expire within 30 days, unread messages and the provider's tech-blog entries (when a feed
 * is configured).
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { DB } from '../db';
import type { ServerConfig } from '../config';
import { ok } from '../http/envelope';
import { blogReader } from './blog';
import { HOUR_S, SLOT_S } from '../../shared/stats/time';
import { bandwidthOf } from '../../shared/stats/units';
import { DASHBOARD_CERT_DAYS, DASHBOARD_MESSAGES } from '../../shared/dashboard';
import { RESOURCE_KIND_LABELS, type ResourceKind } from '../../shared/billing/resources';

export function dashboardRoutes(app: FastifyInstance, db: DB, config: ServerConfig): void {
  const blog = blogReader(config.techBlogFeed);
  app.get('/api/dashboard/', { config: { access: 'parent', openapi: { summary: '概览：最近 24 小时流量与带宽、即将过期的证书、未读消息、技术博客' } } }, async (req) => {
    const accountId = req.user!.account_id;
    const now = Math.floor(Date.now() / 1000);
    const end = Math.floor(now / HOUR_S) * HOUR_S + HOUR_S; // the current hour is the last point
    const start = end - 24 * HOUR_S;
    const [slots, certs, packages, unread, latest, entries] = await Promise.all([
      sql<{ t: number; bytes: number }>`
        select extract(epoch from t.slot)::bigint as t, sum(t.bytes)::bigint as bytes
        from traffic_5m t
        where t.domain_id in (select d.id from bucket_domains d join buckets b on b.id = d.bucket_id where b.owner_id = ${accountId})
          and t.slot >= to_timestamp(${start}) and t.slot < to_timestamp(${end})
        group by t.slot`.execute(db),
      db
        .selectFrom('certificates')
        .select(['id', 'common_name', 'valid_to'])
        .where('account_id', '=', accountId)
        .where('valid_to', '<', new Date((now + DASHBOARD_CERT_DAYS * 86400) * 1000))
        .where('valid_to', '>', new Date((now - 7 * 86400) * 1000))
        .orderBy('valid_to')
        .limit(10)
        .execute(),
      db
        .selectFrom('resource_packages')
        .select(['id', 'kind', 'spec', 'remain', 'unit', 'expires_at'])
        .where('account_id', '=', accountId)
        .where('expires_at', '>', new Date(now * 1000))
        .where('expires_at', '<', new Date((now + DASHBOARD_CERT_DAYS * 86400) * 1000))
        .where('remain', '>', 0 as never)
        .orderBy('expires_at')
        .limit(10)
        .execute(),
      db.selectFrom('messages').select(sql<number>`count(*)::int`.as('n')).where('account_id', '=', accountId).where('read_at', 'is', null).executeTakeFirstOrThrow(),
      db.selectFrom('messages').select(['id', 'title', 'created_at']).where('account_id', '=', accountId).where('read_at', 'is', null).orderBy('id', 'desc').limit(DASHBOARD_MESSAGES).execute(),
      blog(),
    ]);
    const times = Array.from({ length: 24 }, (_, i) => start + i * HOUR_S);
    const traffic = times.map(() => 0);
    const bandwidth = times.map(() => 0);
    for (const r of slots.rows) {
      const i = Math.floor((Number(r.t) - start) / HOUR_S);
      traffic[i] += Number(r.bytes);
      bandwidth[i] = Math.max(bandwidth[i], bandwidthOf(Number(r.bytes), SLOT_S));
    }
    return ok({
      traffic: { times, traffic, bandwidth },
      certificates: certs.map((c) => ({ id: c.id, common_name: c.common_name, valid_to: Math.floor(new Date(c.valid_to).getTime() / 1000), days_left: Math.floor((new Date(c.valid_to).getTime() / 1000 - now) / 86400) })),
      packages: packages.map((p) => ({ id: p.id, kind: p.kind, label: RESOURCE_KIND_LABELS[p.kind as ResourceKind] ?? p.kind, spec: p.spec, remain: Number(p.remain), unit: p.unit, expires_at: Math.floor(new Date(p.expires_at).getTime() / 1000), days_left: Math.floor((new Date(p.expires_at).getTime() / 1000 - now) / 86400) })),
      messages: { unread: Number(unread.n), latest: latest.map((m) => ({ id: m.id, title: m.title, created_at: Math.floor(new Date(m.created_at).getTime() / 1000) })) },
      blog: entries,
    });
  });
}
