/**
 * The rule tester's "发送真实请求" (POST /api/buckets/rewrite/send/, docs/edge-rules.md "On the edge"): the
 * sample request sent through the local edge, what the edge did, and where that differs from the
 * evaluator's prediction for the same request. Shared by the server (which compares) and the console
 * (which shows); pure TypeScript.
 */
import type { EdgeOutcome, RuleOutcomeKind } from './types';

export const LIVE_TEXTS = {
  button: '发送真实请求',
  title: '边缘节点的实际结果',
  agree: '边缘节点的结果与预测一致',
  disagree: '边缘节点的结果与预测不一致：',
  storedOnly: '真实请求只执行已保存的规则；正在编辑的规则保存后才会生效。',
  from: '真实请求由控制台服务器发出，客户端 IP 为 {ip}，预测按同一请求计算。',
  noEdge: '本环境未启用边缘节点，无法发送真实请求',
  noDomain: '该服务没有域名，无法发送真实请求',
  unreachable: '边缘节点没有响应：{reason}',
  status: '状态码：预测 {predicted}，实际 {actual}',
  location: 'Location：预测 {predicted}，实际 {actual}',
  uri: '回源 URI：预测 {predicted}，实际 {actual}',
  header: '响应头 {name}：预测 {predicted}，实际 {actual}',
  rate: '限速：预测 {predicted}，实际 {actual}',
  rule: '规则 {id}：预测 {predicted}，实际 {actual}',
  none: '（无）',
} as const;

/** What the edge did with the request. */
export interface LiveEdgeResult {
  status: number;
  location: string | null;
  /** Response headers as the client received them (names in lower case). */
  headers: Record<string, string>;
  /** The URI and query that reached the origin (the demo origin's X-Origin-Uri), when it was reached. */
  origin_uri: string | null;
  /** From the node's trace; null when the node does not say. */
  limit_rate: { after: number | null; rate: number | null } | null;
  /** Each rule's outcome on the edge, by id: matched, break, redirect, exit, error_page, or a RuleOutcomeKind. */
  rules: { rewrite_id: number; outcome: string }[];
  /** The first characters of the body. */
  body: string;
}

export interface LiveAnswer {
  /** The request as sent: host, URI, the client address the edge saw. */
  request: { host: string; uri: string; ip: string };
  predicted: EdgeOutcome;
  edge: LiveEdgeResult;
  /** Chinese, one line per difference; empty when they agree. */
  differences: string[];
}

/** A rule's outcome in Chinese, as both columns and the differences say it. */
export const LIVE_OUTCOMES: Record<string, string> = {
  matched: '命中',
  break: '命中，不再执行后面的规则',
  redirect: '命中，重定向',
  exit: '命中，直接响应',
  error_page: '命中，返回错误页面',
  off: '已关闭',
  debug_ip: '调试 IP 不符',
  no_match: 'URI 提取未匹配',
  condition_false: '条件不满足',
  error: '执行出错',
  invalid: '规则无效',
  not_reached: '未执行（规则集已结束）',
};

export const outcomeText = (o: string | undefined) => (o === undefined ? LIVE_TEXTS.none : (LIVE_OUTCOMES[o] ?? o));

const fill = (t: string, v: Record<string, string | number | null>) => t.replace(/\{(\w+)\}/g, (_m, k: string) => (v[k] === null || v[k] === undefined || v[k] === '' ? LIVE_TEXTS.none : String(v[k])));

/** A rule's outcome as the edge reports it: matched rules say how they ended. */
export function predictedOutcome(o: EdgeOutcome, id: number): string | undefined {
  const t = o.trace.find((x) => x.rewrite_id === id);
  if (!t) return undefined;
  if (t.outcome !== 'matched') return t.outcome as RuleOutcomeKind;
  return o.matched.find((m) => m.rewrite_id === id)?.ended ?? 'matched';
}

/** Where the edge's result differs from the prediction. */
export function liveDifferences(o: EdgeOutcome, e: LiveEdgeResult): string[] {
  const out: string[] = [];
  if (o.status !== null && o.status !== e.status) out.push(fill(LIVE_TEXTS.status, { predicted: o.status, actual: e.status }));
  if ((o.location ?? null) !== e.location) out.push(fill(LIVE_TEXTS.location, { predicted: o.location, actual: e.location }));
  if (o.status === null && e.origin_uri !== null && e.origin_uri !== o.uri) out.push(fill(LIVE_TEXTS.uri, { predicted: o.uri, actual: e.origin_uri }));
  // the response headers the rules changed, as the client should see them
  const last = new Map<string, { action: string; value?: string; cover?: boolean }>();
  for (const h of o.response_headers) if (h.applied) last.set(h.name.toLowerCase(), h);
  for (const [name, h] of last) {
    const actual = e.headers[name] ?? null;
    const ok = h.action === 'delete' ? actual === null : h.cover ? actual === h.value : actual !== null && actual.split(', ').includes(h.value ?? '');
    if (!ok) out.push(fill(LIVE_TEXTS.header, { name, predicted: h.action === 'delete' ? null : (h.value ?? ''), actual }));
  }
  if (e.limit_rate && (e.limit_rate.rate !== o.limit_rate.rate || e.limit_rate.after !== o.limit_rate.after)) {
    const text = (l: { after: number | null; rate: number | null }) => (l.rate === null ? null : `${l.rate} B/s${l.after ? `（${l.after} B 之后）` : ''}`);
    out.push(fill(LIVE_TEXTS.rate, { predicted: text(o.limit_rate), actual: text(e.limit_rate) }));
  }
  for (const r of e.rules) {
    const p = predictedOutcome(o, r.rewrite_id);
    if (p !== undefined && p !== r.outcome) out.push(fill(LIVE_TEXTS.rule, { id: r.rewrite_id, predicted: outcomeText(p), actual: outcomeText(r.outcome) }));
  }
  return out;
}
