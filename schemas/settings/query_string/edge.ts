import type { EdgeCompiler } from '../../edge';

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
 * URL 参数缓存 on the edge: data for edge.lua, which sets the query part of the request's cache key
 * (keyArgs above, the same rule in Lua). The request that reaches the origin keeps its whole query.
 */
const edge: EdgeCompiler = (v: QueryString) => {
  if (v.mode === 'keep_all') return null;
  return { data: { mode: v.mode, params: v.params } };
};

export default edge;
