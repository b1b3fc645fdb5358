import type { EdgeCompiler } from '../../edge';
import { luaString } from '../../edge-match';

interface QueryString { mode: 'keep_all' | 'ignore_all' | 'keep_some' | 'ignore_some'; params: string[] }

/**
 * The query part of a URL's cache key (the key is `$host$uri?$edge_key_args`): what the edge computes
 * in Lua, written once more here so that a purge computes the same key for a URL (docs/edge.md).
 * `args` is the query as the client sent it, without `?`. A cache rule with 忽略 URL 参数 that matches
 * the path makes it empty whatever this says.
 *
 * - keep_all: the query as sent; ignore_all: empty;
 * - keep_some / ignore_some: the `name[=value]` parts of the query (split on `&`) whose name, percent-
 *   decoded, is (or is not) listed, as sent and in their order, joined by `&`.
 */
export function keyArgs(v: QueryString, args: string): string {
  if (v.mode === 'keep_all') return args;
  if (v.mode === 'ignore_all' || !args) return '';
  const listed = new Set(v.params);
  const keep = v.mode === 'keep_some';
  return args
    .split('&')
    .filter((part) => part !== '')
    .filter((part) => {
      const name = part.split('=')[0];
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        /* kept as sent, as ngx.unescape_uri does */
      }
      return listed.has(decoded) === keep;
    })
    .join('&');
}

/**
 * URL 参数缓存 on the edge: sets `$edge_key_args` (the query part of the cache key) at the server level,
 * after the default (`$args`). The request that reaches the origin keeps its whole query.
 */
const edge: EdgeCompiler = (v: QueryString) => {
  if (v.mode === 'keep_all') return null;
  const keep = v.mode === 'keep_some';
  // (no params with keep_some/ignore_some is refused by the schema; it would keep none / all of them)
  if (v.mode === 'ignore_all' || (keep && !v.params.length)) return { server: ['set $edge_key_args "";'] };
  if (!v.params.length) return null;
  const test = v.params.map((p) => `name == ${luaString(p)}`).join(' or ');
  return {
    server: [
      'set_by_lua_block $edge_key_args {',
      '  local args = ngx.var.args',
      '  if not args or args == "" then return "" end',
      '  local out, n = {}, 0',
      '  for part in string.gmatch(args, "[^&]+") do',
      '    local name = ngx.unescape_uri(string.match(part, "^[^=]*"))',
      `    if ${keep ? '' : 'not '}(${test}) then n = n + 1; out[n] = part end`,
      '  end',
      '  return table.concat(out, "&", 1, n)',
      '}',
    ],
  };
};

export default edge;
