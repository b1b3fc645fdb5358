import type { EdgeCompiler } from '../../edge';
import { luaString } from '../../edge-match';
import { EDGE_REFUSALS } from '../../../src/shared/edge';

interface ErrorPages { options: { code: number[]; url: string }[]; status?: 'enable' | 'disable' }

/** The HTTP status of one of the edge's own refusal codes (40310002 → 403): its first three digits. */
export const refusalStatus = (code: number) => Math.floor(code / 100000);

/** The page's own fetch: not refused again, and its failures passed as the origin answers them. */
const pageAccess = ['allow all;', 'access_by_lua_block { return }', 'proxy_intercept_errors off;'];
/** Lua: the request becomes the page's URL (`url`), and so does its cache key. */
const toPage = [
  '  local path, query = string.match(url, "^([^?]*)%??(.*)$")',
  '  ngx.var.edge_key_args = query',
  '  ngx.req.set_uri_args(query)',
  '  ngx.req.set_uri(ngx.unescape_uri(path))',
];

/**
 * 自定义错误页面 on the edge. Every code a rule names is sent to one named location that picks the page:
 *
 * - an answer of the origin (proxied, `$upstream_status` set) with a listed status (404, 500 …): the page
 *   of that status;
 * - an answer of the edge itself (no origin involved: anti-leech, edge rules…): the page of the kind of
 *   refusal when the refusing setting named it in `$edge_refusal` (40310002 …, EDGE_REFUSALS in
 *   src/shared/edge.ts) and a rule lists that code, else the page of the plain status (403) if listed;
 * - nothing applies: the edge's own answer stays nginx's plain page; an origin's answer is fetched again
 *   as it was (only when a refusal code shares its status, e.g. 40310002 and an origin 403).
 *
 * A service paused by its bandwidth cap answers 403 with the provider's page (服务已关闭), or with the page
 * of 40310006 when a rule lists it (only that code: a plain 403 rule does not hide the provider's page).
 *
 * The page is fetched from the service's origin like any other path (and cached); the client gets the
 * original status with the page's body. The page's own fetch is not refused again (access checks are
 * off in that location) and its failures are passed as the origin answers them.
 */
const edge: EdgeCompiler = (v: ErrorPages, ctx) => {
  const options = v.options ?? [];
  if (v.status === 'disable' || !options.length) return null;
  const closedOnly = options.every((o) => o.code.every((c) => c === EDGE_REFUSALS.closed));
  const page = new Map<number, string>();
  for (const o of options) for (const c of o.code) if (!page.has(c)) page.set(c, o.url);
  const plain = [...page.keys()].filter((c) => c < 1000);
  // (40310006 is only answered while the service is paused, by `closed` below)
  const refusals = [...page.keys()].filter((c) => c >= 1000 && c !== EDGE_REFUSALS.closed);
  const statuses = [...new Set([...plain, ...refusals.map(refusalStatus)])].sort();
  const name = `@${ctx.prefix}_error_page`;
  const closedUrl = page.get(EDGE_REFUSALS.closed);
  const pick = [...page.entries()].filter(([c]) => c !== EDGE_REFUSALS.closed).map(([c, url], i) => `${i ? 'elseif' : 'if'} code == ${c} then url = ${luaString(url)}`);
  return {
    // intercepting the origin's errors is set for the server, so that the page's own location can turn it off
    server: closedOnly ? [] : [`error_page ${statuses.join(' ')} ${name};`, ...(plain.length ? ['proxy_intercept_errors on;'] : [])],
    locations: closedOnly ? [] : [
      {
        match: name,
        directives: [
          ...pageAccess,
          'rewrite_by_lua_block {',
          '  local status = tonumber(ngx.var.status)',
          '  local own = (ngx.var.upstream_status or "") == ""',
          '  local code = status',
          ...(refusals.length
            ? ['  if own then', '    local r = tonumber(ngx.var.edge_refusal)', `    if r and (${refusals.map((c) => `r == ${c}`).join(' or ')}) then code = r end`, '  end']
            : []),
          '  local url',
          ...pick.map((l) => `  ${l}`),
          '  end',
          '  if not url then',
          '    if own then return ngx.exit(status) end',
          '    return',
          '  end',
          ...toPage,
          '}',
        ],
      },
    ],
    // a paused service (服务已关闭) gets the provider's page unless 40310006 has a page of its own
    ...(closedUrl
      ? {
          closed: {
            server: [`error_page 403 @${ctx.prefix}_closed_page;`],
            locations: [
              {
                match: `@${ctx.prefix}_closed_page`,
                directives: [...pageAccess, 'rewrite_by_lua_block {', `  local url = ${luaString(closedUrl)}`, ...toPage, '}'],
              },
            ],
          },
        }
      : {}),
  };
};

export default edge;
