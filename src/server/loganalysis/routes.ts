/**
 * Log analysis (spec 002 "Other tools": /log/log_analy/ and /log/log_analy/{name}/, permission log)
 * from the access logs a log pipeline sends (one row a request in access_logs).
 *
 *   POST /api/analysis/ingest/              Bearer token of POST /api/flow/ingest/token; { records }
 *   GET  /api/analysis/                     ?bucket_name&date&domain&top    top URLs, referers, client addresses, status codes of a CST day
 *   GET  /api/analysis/archives/            ?bucket_name&date&domain        the day's hourly archives
 *   GET  /api/analysis/archives/download/   ?bucket_name&domain&hour        one hour as a gzip file (combined log format)
 *
 * The ingestion shares the statistics' token (stats_ingest_tokens, docs/statistics.md "Ingestion").
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { DB } from '../db';
import { ApiError } from '../http/errors';
import { ok } from '../http/envelope';
import { dataBucketForUser } from '../buckets/repo';
import { dayOf, dayStart, DAY_S } from '../../shared/stats/time';
import { parseTime } from '../../shared/stats/params';
import { ACCESS_LOG_DAYS, ACCESS_LOG_INGEST_MAX, ANALYSIS_TOP_DEFAULT, ANALYSIS_TOP_MAX, type AnalysisResult, type AnalysisRow, type LogArchive } from '../../shared/monitor';
import '../monitor/tables';
import { BIGINT_MAX } from '../../shared/limits';

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const TZ = 8 * 3600;

const ingestBody = {
  type: 'object',
  required: ['records'],
  additionalProperties: false,
  properties: {
    records: {
      type: 'array',
      minItems: 1,
      maxItems: ACCESS_LOG_INGEST_MAX,
      items: {
        type: 'object',
        required: ['domain', 'time', 'ip', 'url', 'status'],
        additionalProperties: false,
        properties: {
          domain: { type: 'string', minLength: 1, maxLength: 255 },
          time: { type: ['string', 'integer'], description: 'YYYY-MM-DD HH:mm:ss（UTC+8）或秒级时间戳' },
          ip: { type: 'string', minLength: 2, maxLength: 45, pattern: '^[0-9a-fA-F:.]+$' },
          method: { type: 'string', maxLength: 16, default: 'GET' },
          url: { type: 'string', minLength: 1, maxLength: 2048, pattern: '^/' },
          status: { type: 'integer', minimum: 100, maximum: 599 },
          bytes: { type: 'integer', minimum: 0, maximum: BIGINT_MAX, default: 0 },
          referer: { type: 'string', maxLength: 2048, default: '' },
          ua: { type: 'string', maxLength: 1024, default: '' },
        },
      },
      errorMessage: { minItems: '请至少上报一条记录', maxItems: `每次最多上报 ${ACCESS_LOG_INGEST_MAX} 条记录` },
    },
  },
  errorMessage: { required: { records: '请填写 records' } },
};

interface LogRecord {
  domain: string;
  time: string | number;
  ip: string;
  method: string;
  url: string;
  status: number;
  bytes: number;
  referer: string;
  ua: string;
}

const dayProp = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', errorMessage: { pattern: '日期格式为 YYYY-MM-DD' } };
const bucketProp = { type: 'string', minLength: 1, errorMessage: { minLength: '请选择服务' } };
const domainProp = { type: 'string', maxLength: 255 };

/** The CST day of the query (today when absent); 21000 outside the kept days. */
function dayRange(date?: string): { day: string; start: number; end: number } {
  const now = Math.floor(Date.now() / 1000);
  const day = date ?? dayOf(now);
  const start = dayStart(day);
  if (start === null || start > now || start < now - (ACCESS_LOG_DAYS + 1) * DAY_S) {
    throw new ApiError(21000, 400, [{ path: '/date', message: `只能查询最近 ${ACCESS_LOG_DAYS} 天的日志` }]);
  }
  return { day, start, end: start + DAY_S };
}

const pad = (n: number) => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** [10/Jan/2026:12:00:00 +0800] */
function clf(at: Date): string {
  const d = new Date(at.getTime() + TZ * 1000);
  return `${pad(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0800`;
}
const quote = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"') || '-'}"`;

export function logAnalysisRoutes(app: FastifyInstance, db: DB): void {
  // log download is data: the service must be in the sub-account's data scope (authorized_service), not granted to it
  const log = { access: 'user' as const, needs: ['log' as const], bucket: 'query' as const, bucketScope: 'data' as const };

  app.post<{ Body: { records: LogRecord[] } }>(
    '/api/analysis/ingest/',
    {
      config: {
        access: 'public',
        openapi: { summary: '上报访问日志（日志管道调用，Authorization: Bearer 统计上报令牌）', errors: { 401: '21110 令牌缺失或无效', 404: '21905 域名不属于该账号', 400: '21000 时间不正确' } },
      },
      schema: { body: ingestBody },
    },
    async (req) => {
      const m = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''));
      const tok = m ? await db.selectFrom('stats_ingest_tokens').select(['id', 'account_id']).where('token_hash', '=', hash(m[1])).executeTakeFirst() : undefined;
      if (!tok) throw new ApiError(21110, 401);
      const records = req.body.records;
      const names = [...new Set(records.map((r) => r.domain.toLowerCase()))];
      const domains = await db
        .selectFrom('bucket_domains as d')
        .innerJoin('buckets as b', 'b.id', 'd.bucket_id')
        .select(['d.id', 'd.domain', 'b.id as bucket_id'])
        .where('b.owner_id', '=', tok.account_id)
        .where('d.domain', 'in', names)
        .execute();
      if (domains.length !== names.length) throw new ApiError(21905, 404);
      const byName = new Map(domains.map((d) => [d.domain, d]));
      const now = Math.floor(Date.now() / 1000);
      const rows = records.map((r, i) => {
        const t = parseTime(r.time);
        if (t === null || t > now + 300 || t < now - ACCESS_LOG_DAYS * DAY_S) throw new ApiError(21000, 400, [{ path: `/records/${i}/time`, message: `时间须在最近 ${ACCESS_LOG_DAYS} 天内，且不晚于当前时刻` }]);
        const d = byName.get(r.domain.toLowerCase())!;
        return { account_id: tok.account_id, bucket_id: d.bucket_id, domain_id: d.id, domain: d.domain, at: new Date(t * 1000), ip: r.ip, method: (r.method || 'GET').toUpperCase(), url: r.url, status: r.status, bytes: r.bytes ?? 0, referer: r.referer ?? '', ua: r.ua ?? '' };
      });
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += 1000) await trx.insertInto('access_logs').values(rows.slice(i, i + 1000)).execute();
      });
      return ok({ stored: rows.length });
    },
  );

  app.get<{ Querystring: { bucket_name: string; date?: string; domain?: string; top: number } }>(
    '/api/analysis/',
    {
      config: log,
      schema: {
        querystring: {
          type: 'object',
          required: ['bucket_name'],
          properties: {
            bucket_name: bucketProp,
            date: dayProp,
            domain: domainProp,
            top: { type: 'integer', minimum: 1, maximum: ANALYSIS_TOP_MAX, default: ANALYSIS_TOP_DEFAULT, errorMessage: { type: 'top 须为整数', minimum: `top 为 1 - ${ANALYSIS_TOP_MAX}`, maximum: `top 为 1 - ${ANALYSIS_TOP_MAX}` } },
          },
          errorMessage: { required: { bucket_name: '请选择服务' } },
        },
      },
    },
    async (req) => {
      const bucket = await dataBucketForUser(db, req.user!, req.query.bucket_name);
      const { day, start, end } = dayRange(req.query.date);
      const base = () => {
        let q = db.selectFrom('access_logs').where('bucket_id', '=', bucket.id).where('at', '>=', new Date(start * 1000)).where('at', '<', new Date(end * 1000));
        if (req.query.domain) q = q.where('domain', '=', req.query.domain);
        return q;
      };
      const top = async (col: 'url' | 'referer' | 'ip' | 'status', limit: number | null, skipEmpty = false) => {
        let q = base().select([sql<string>`${sql.ref(col)}::text`.as('key'), sql<number>`count(*)::int`.as('count'), sql<number>`coalesce(sum(bytes), 0)::bigint`.as('bytes')]).groupBy(col);
        if (skipEmpty) q = q.where('referer', '<>', '');
        q = col === 'status' ? q.orderBy(col) : q.orderBy(sql`count(*)`, 'desc').orderBy(col);
        if (limit) q = q.limit(limit);
        return (await q.execute()).map<AnalysisRow>((r) => ({ key: r.key, count: Number(r.count), bytes: Number(r.bytes) }));
      };
      const totals = await base().select([sql<number>`count(*)::int`.as('n'), sql<number>`coalesce(sum(bytes), 0)::bigint`.as('b')]).executeTakeFirstOrThrow();
      const n = req.query.top;
      const data: AnalysisResult = {
        date: day,
        total: Number(totals.n),
        bytes: Number(totals.b),
        urls: await top('url', n),
        referers: await top('referer', n, true),
        ips: await top('ip', n),
        status: await top('status', null),
      };
      return ok(data);
    },
  );

  app.get<{ Querystring: { bucket_name: string; date?: string; domain?: string } }>(
    '/api/analysis/archives/',
    {
      config: log,
      schema: { querystring: { type: 'object', required: ['bucket_name'], properties: { bucket_name: bucketProp, date: dayProp, domain: domainProp }, errorMessage: { required: { bucket_name: '请选择服务' } } } },
    },
    async (req) => {
      const bucket = await dataBucketForUser(db, req.user!, req.query.bucket_name);
      const { start, end } = dayRange(req.query.date);
      let q = db
        .selectFrom('access_logs')
        .select(['domain', sql<number>`floor(extract(epoch from at) / 3600)::int`.as('h'), sql<number>`count(*)::int`.as('n')])
        .where('bucket_id', '=', bucket.id)
        .where('at', '>=', new Date(start * 1000))
        .where('at', '<', new Date(end * 1000));
      if (req.query.domain) q = q.where('domain', '=', req.query.domain);
      const rows = await q.groupBy(['domain', sql`floor(extract(epoch from at) / 3600)`]).orderBy('domain').orderBy(sql`floor(extract(epoch from at) / 3600)`).execute();
      const data: LogArchive[] = rows.map((r) => {
        const hourStart = Number(r.h) * 3600;
        const d = new Date((hourStart + TZ) * 1000).toISOString();
        const hour = `${d.slice(0, 10)} ${d.slice(11, 13)}:00`;
        return {
          domain: r.domain,
          hour,
          records: Number(r.n),
          url: `/api/analysis/archives/download/?bucket_name=${encodeURIComponent(bucket.name)}&domain=${encodeURIComponent(r.domain)}&hour=${encodeURIComponent(hour)}`,
        };
      });
      return ok(data);
    },
  );

  app.get<{ Querystring: { bucket_name: string; domain: string; hour: string } }>(
    '/api/analysis/archives/download/',
    {
      config: log,
      schema: {
        querystring: {
          type: 'object',
          required: ['bucket_name', 'domain', 'hour'],
          properties: { bucket_name: bucketProp, domain: { ...domainProp, minLength: 1 }, hour: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:00$', errorMessage: { pattern: '小时格式为 YYYY-MM-DD HH:00' } } },
          errorMessage: { required: { bucket_name: '请选择服务', domain: '请选择域名', hour: '请选择小时' } },
        },
      },
    },
    async (req, reply) => {
      const bucket = await dataBucketForUser(db, req.user!, req.query.bucket_name);
      const start = parseTime(req.query.hour);
      if (start === null) throw new ApiError(21000, 400, [{ path: '/hour', message: '小时格式为 YYYY-MM-DD HH:00' }]);
      const rows = await db
        .selectFrom('access_logs')
        .select(['at', 'ip', 'method', 'url', 'status', 'bytes', 'referer', 'ua', 'domain'])
        .where('bucket_id', '=', bucket.id)
        .where('domain', '=', req.query.domain)
        .where('at', '>=', new Date(start * 1000))
        .where('at', '<', new Date((start + 3600) * 1000))
        .orderBy('at')
        .orderBy('id')
        .execute();
      const text = rows.map((r) => `${r.ip} - - [${clf(new Date(r.at))}] "${r.method} ${r.url} HTTP/1.1" ${r.status} ${Number(r.bytes)} ${quote(r.referer)} ${quote(r.ua)} "${r.domain}"\n`).join('');
      const file = `${req.query.domain}_${req.query.hour.replace(/[- :]/g, '').slice(0, 10)}.log.gz`;
      return reply.type('application/gzip').header('content-disposition', `attachment; filename="${file}"`).send(gzipSync(Buffer.from(text)));
    },
  );
}
