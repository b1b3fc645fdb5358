/**
 * POST /api/buckets/rewrite/send/ {bucket_name, request}: the rule tester's "发送真实请求" — the sample
 * request sent through the local edge (config.edge.httpUrl) with one of the service's domains as Host,
 * answered with what the edge did, the evaluator's prediction for the same request (the stored rules, the
 * client address the edge saw, now) and their differences (src/shared/edgerules/live.ts). With the node
 * key (config.edge.nodeKey) the edge adds its trace: the limit rate and each rule's outcome.
 */
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { DB } from '../db';
import type { ServerConfig } from '../config';
import { ApiError, VALIDATION_ERROR } from '../http/errors';
import { ok } from '../http/envelope';
import { bucketForUser } from '../buckets/repo';
import { KINDS, type ServiceKind } from '../../shared/services';
import { evaluate } from '../../shared/edgerules';
import { LIVE_TEXTS, liveDifferences, type LiveAnswer, type LiveEdgeResult } from '../../shared/edgerules/live';
import type { SampleRequest } from '../../shared/edgerules/types';
import { requestSchema } from '../../../schemas/forms/edge_rule/validate';
import { allRules, toApi } from './repo';
import { withinBudget } from './budget';
import { anyNodeOnline } from '../edge/repo';

const fail = (message: string) => new ApiError(VALIDATION_ERROR, 400, [{ path: '', message }]);

function send(url: string, opts: { method: string; path: string; headers: Record<string, string>; body?: string }): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; local: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request({ host: u.hostname, port: Number(u.port || 80), method: opts.method, path: opts.path, headers: opts.headers, agent: false, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size < 65536) chunks.push(c);
        size += c.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), local: req.socket?.localAddress ?? '127.0.0.1' }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    if (opts.body) req.write(opts.body);
    req.end();
  });
}

/** The node's trace header: rate=…;after=…;rules=id:outcome,… */
function trace(v: string | string[] | undefined): Pick<LiveEdgeResult, 'limit_rate' | 'rules'> {
  const text = Array.isArray(v) ? v[0] : v;
  if (!text) return { limit_rate: null, rules: [] };
  const part = (k: string) => new RegExp(`(?:^|;)${k}=([^;]*)`).exec(text)?.[1] ?? '';
  const num = (s: string) => (s === '' ? null : Number(s));
  const rules = part('rules')
    .split(',')
    .filter(Boolean)
    .map((t) => ({ rewrite_id: Number(t.slice(0, t.indexOf(':'))), outcome: t.slice(t.indexOf(':') + 1) }));
  return { limit_rate: { rate: num(part('rate')), after: num(part('after')) }, rules };
}

export function liveRuleTestRoute(app: FastifyInstance, db: DB, config: ServerConfig): void {
  app.post<{ Body: { bucket_name: string; request: SampleRequest } }>(
    '/api/buckets/rewrite/send/',
    {
      config: {
        access: 'user',
        bucket: 'body',
        openapi: {
          summary: '规则测试：发送真实请求',
          description: '把测试请求经本机的边缘节点发出（Host 为该服务的域名；不是该服务域名时用第一个域名），返回边缘节点的实际结果、按同一请求（已保存的规则、边缘节点看到的客户端地址）计算的预测和两者的差异。',
          errors: { 404: '21905 服务不存在或无权访问' },
        },
      },
      schema: {
        body: {
          type: 'object',
          required: ['bucket_name', 'request'],
          additionalProperties: false,
          properties: { bucket_name: { type: 'string', minLength: 1, maxLength: 100 }, request: requestSchema },
          errorMessage: { type: '请求内容须为 JSON 对象', required: { bucket_name: '请填写服务名称', request: '请描述要测试的请求' }, additionalProperties: '包含不支持的配置项' },
        },
      },
    },
    async (req) => {
      const { bucket_name: name, request } = req.body;
      const bucket = await bucketForUser(db, req.user!, name);
      if (!KINDS[bucket.kind as ServiceKind]?.tabs.includes('edgeCalc')) throw new ApiError(21201, 400);
      // the same reading as the service page's edge bar: no node seen lately is no edge here
      if (!config.edge.enabled || !config.edge.httpUrl || !(await anyNodeOnline(db))) throw fail(LIVE_TEXTS.noEdge);
      const domains = (await db.selectFrom('bucket_domains').select('domain').where('bucket_id', '=', bucket.id).orderBy('id').execute()).map((d) => d.domain);
      if (!domains.length) throw fail(LIVE_TEXTS.noDomain);
      const host = request.host && domains.includes(request.host) ? request.host : domains[0];

      let uri = request.uri || '/';
      let query = request.query ?? '';
      const q = uri.indexOf('?');
      if (q >= 0) {
        if (request.query === undefined) query = uri.slice(q + 1);
        uri = uri.slice(0, q);
      }
      if (query.startsWith('?')) query = query.slice(1);
      const path = encodeURI(uri) + (query ? `?${query}` : '');
      const method = (request.method ?? 'GET').toUpperCase();
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(request.headers ?? {})) if (!['host', 'content-length', 'x-edge-trace'].includes(k.toLowerCase())) headers[k] = String(v);
      if (request.cookies && Object.keys(request.cookies).length) headers.Cookie = Object.entries(request.cookies).map(([k, v]) => `${k}=${v}`).join('; ');
      let body = request.body ?? '';
      if (!body && request.post && Object.keys(request.post).length) {
        body = new URLSearchParams(request.post).toString();
        headers['Content-Type'] = 'application/x-www-form-urlencoded';
      }
      const sample = { ...headers, host };
      headers.Host = host;
      if (config.edge.nodeKey) headers['X-Edge-Trace'] = `Bearer ${config.edge.nodeKey}`;
      const time = Math.floor(Date.now() / 1000);
      let res;
      try {
        res = await send(config.edge.httpUrl, { method, path, headers, ...(body ? { body } : {}) });
      } catch (e) {
        throw fail(LIVE_TEXTS.unreachable.replace('{reason}', (e as Error).message));
      }
      const ip = res.local.replace(/^::ffff:/, '');
      const rules = (await allRules(db, bucket.id)).map((r) => toApi(r, bucket.name));
      const predicted = withinBudget(() => evaluate(rules, { method, scheme: 'http', host, uri, query, headers: sample, ...(body ? { body } : {}), ip, time }));
      const flat: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) {
        if (v === undefined || k === 'x-edge-trace') continue;
        // Node reads header values as Latin-1; the edge sends UTF-8
        flat[k] = Buffer.from(Array.isArray(v) ? v.join(', ') : v, 'latin1').toString('utf8');
      }
      const origin = res.headers['x-origin-uri'];
      const edge: LiveEdgeResult = {
        status: res.status,
        location: flat.location ?? null,
        headers: flat,
        origin_uri: typeof origin === 'string' ? origin : null,
        ...trace(res.headers['x-edge-trace']),
        body: res.body.slice(0, 2000),
      };
      const answer: LiveAnswer = { request: { host, uri: path, ip }, predicted, edge, differences: liveDifferences(predicted, edge) };
      return ok(answer);
    },
  );
}
