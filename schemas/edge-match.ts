/**
 * How the cache settings' rules (缓存规则 cache_rules, 浏览器缓存 browser_cache) match a request on the
 * edge: one regular expression per rule, tried against the request's path (`$uri`, decoded, without the
 * query) in the rules' order, the first that matches wins (docs/edge.md "Compression, error pages and
 * cache").
 *
 * - suffix `jpg,png`: the path ends in `.jpg` or `.png`, in any case;
 * - directory `/static/`: the path starts with `/static/` (a missing final `/` is added);
 * - path `/index.html`: the whole path; `*` matches any characters (`/img/*.png`, `/*` for every file).
 */
export type MatchType = 'suffix' | 'directory' | 'path';

const escapeRe = (s: string) => s.replace(/[.^$*+?()[\]{}|\\]/g, '\\$&');

/** The regular expression (PCRE) of one rule, and whether it ignores case. */
export function ruleRegex(type: MatchType, value: string): { re: string; caseless: boolean } {
  if (type === 'suffix') {
    const exts = value
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean)
      .map(escapeRe);
    return { re: `\\.(${exts.join('|')})$`, caseless: true };
  }
  if (type === 'directory') {
    const dir = value.endsWith('/') ? value : `${value}/`;
    return { re: `^${escapeRe(dir)}`, caseless: false };
  }
  return { re: `^${value.split('*').map(escapeRe).join('.*')}$`, caseless: false };
}

/** A string in nginx double quotes, where `\\` and `\"` are the only escapes a regex needs. */
export function nginxQuoted(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A Lua long-bracket string literal that `text` cannot close. */
export function luaString(text: string): string {
  let eq = '';
  while (text.includes(`]${eq}]`) || text.endsWith(`]${eq}`)) eq += '=';
  return `[${eq}[${text}]${eq}]`;
}
