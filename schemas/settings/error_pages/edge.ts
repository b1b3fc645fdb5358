import type { EdgeCompiler } from '../../edge';

interface ErrorPages { options: { code: number[]; url: string }[]; status?: 'enable' | 'disable' }

/** The HTTP status of one of the edge's own refusal codes (40310002 → 403): its first three digits. */
export const refusalStatus = (code: number) => Math.floor(code / 100000);

/**
 * 自定义错误页面 on the edge: the data is each listed code's page (`pages`, code → URL, the first rule
 * naming a code wins); edge.lua answers the runtime's two hooks with it:
 *
 * - `origin_error` (the fetch server, an answer of the origin): the page of its status (404, 500 …), else
 *   the answer passes as the origin sent it;
 * - `refusal` (the edge's own answers: anti-leech, edge rules, a paused service, `req:refuse`): the page of
 *   the kind of refusal (40310002 …, EDGE_REFUSALS in src/shared/edge.ts) when a rule lists it, else the
 *   page of its plain status (403) when a rule lists that, else nginx's plain page. A paused service
 *   (服务已关闭 40310006) gets the page of 40310006 only: a plain 403 rule does not hide the provider's page.
 *
 * The page is a path of the same service, fetched from its origin like any other (and cached, its query
 * part of the key being the page URL's own); the client gets the original status with the page's body.
 * The page's own fetch is not refused again and its failures pass as the origin answers them.
 */
const edge: EdgeCompiler = (v: ErrorPages) => {
  const options = v.options ?? [];
  if (v.status === 'disable' || !options.length) return null;
  const pages: Record<string, string> = {};
  for (const o of options) for (const c of o.code) if (!(String(c) in pages)) pages[String(c)] = o.url;
  return { data: { pages } };
};

export default edge;
