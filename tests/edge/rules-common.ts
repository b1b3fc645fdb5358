/**
 * What the Lua runtime and the evaluator decided, in one comparable shape (tests/edge/rules-lua.test.ts,
 * tests/edge/rules-diff.test.ts).
 */
import type { EdgeRuleRow } from '../../src/shared/edge';
import type { EdgeOutcome, HeaderChange, RunnableRule, SampleRequest } from '../../src/shared/edgerules';
import { luaString } from '../../src/edge/rules/lua';

export function rowOf(r: RunnableRule, i: number): EdgeRuleRow {
  return {
    id: r.rewrite_id ?? i + 1,
    type: r.type,
    priority: r.priority,
    break: r.break,
    status: r.status,
    ip: r.ip ?? null,
    content: r.content ?? null,
    pattern: r.type === 'custom' ? (r.pattern ?? '') : null,
    rule: r.type === 'custom' ? (r.rule ?? '') : null,
  };
}

/** The decisions both sides make. */
export interface Decision {
  status: number | null;
  location: string | null;
  body: string | null;
  error_page: string | null;
  uri: string;
  rewritten: boolean;
  method: string;
  request_body: string | null;
  deleted_args: string[];
  request_headers: { action: string; name: string; value?: string; cover: boolean; applied: boolean }[];
  response_headers: { action: string; name: string; value?: string; cover: boolean; applied: boolean }[];
  limit_rate: { after: number | null; rate: number | null };
  /** Each rule's outcome in priority order: matched, break, redirect, exit, error_page, off, … */
  trace: string[];
}

const header = (h: HeaderChange | Record<string, any>) => ({ action: h.action, name: h.name, ...(h.action === 'add' ? { value: h.value ?? '' } : {}), cover: Boolean(h.cover), applied: Boolean(h.applied) });

export function fromOutcome(o: EdgeOutcome): Decision {
  return {
    status: o.status,
    location: o.location,
    body: o.body,
    error_page: o.error_page,
    uri: o.uri,
    rewritten: o.rewritten,
    method: o.method,
    request_body: o.request_body,
    deleted_args: o.deleted_args,
    request_headers: o.request_headers.map(header),
    response_headers: o.response_headers.map(header),
    limit_rate: o.limit_rate,
    trace: o.trace.map((t) => {
      if (t.outcome !== 'matched') return t.outcome;
      return o.matched.find((m) => m.rewrite_id === t.rewrite_id && m.priority === t.priority)?.ended ?? 'matched';
    }),
  };
}

/** The runtime's state (src/edge/lua/edgerules.lua run()) as JSON. */
export function fromLua(st: Record<string, any>): Decision {
  const list = (v: unknown) => (Array.isArray(v) ? v : []);
  return {
    status: st.status ?? null,
    location: st.location ?? null,
    body: st.body ?? null,
    error_page: st.error_page ?? null,
    uri: st.query ? `${st.path}?${st.query}` : st.path,
    rewritten: Boolean(st.rewritten),
    method: st.method,
    request_body: st.request_body ?? null,
    deleted_args: list(st.deleted_args),
    request_headers: list(st.req_headers).map(header),
    response_headers: list(st.rsp_headers).map(header),
    limit_rate: { after: st.after ?? null, rate: st.rate ?? null },
    trace: list(st.trace).map((t: string) => t.slice(t.indexOf(':') + 1)),
  };
}

/** A sample request as the runtime's build() takes it (what parseRequest() reads). */
export function rawRequest(r: SampleRequest): Record<string, unknown> {
  let uri = r.uri || '/';
  let query = r.query ?? '';
  const q = uri.indexOf('?');
  if (q >= 0) {
    if (r.query === undefined) query = uri.slice(q + 1);
    uri = uri.slice(0, q);
  }
  if (query.startsWith('?')) query = query.slice(1);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers ?? {})) headers[k.toLowerCase()] = String(v);
  return {
    method: r.method ?? 'GET',
    scheme: r.scheme ?? 'http',
    host: r.host ?? headers.host ?? '',
    uri,
    query,
    headers,
    body: r.body ?? '',
    ip: r.ip ?? '',
    country: r.country ?? '',
    time: r.time,
  };
}

/** A Lua table constructor for plain JSON-like data. */
export function luaValue(v: unknown): string {
  if (v === undefined || v === null) return 'nil';
  if (typeof v === 'string') return luaString(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `{ ${v.map(luaValue).join(', ')} }`;
  return `{ ${Object.entries(v as Record<string, unknown>)
    .filter(([, x]) => x !== undefined)
    .map(([k, x]) => `[${luaString(k)}] = ${luaValue(x)}`)
    .join(', ')} }`;
}

/** Values of random characters compared by length; $_TIME within a second. */
export function loosen(d: Decision, opts: { random?: boolean }): Decision {
  if (!opts.random) return d;
  return { ...d, response_headers: d.response_headers.map((h) => ({ ...h, value: h.value === undefined ? undefined : /^\d+$/.test(h.value) ? '<整数>' : `<${h.value.length} 个字符>` })) };
}
