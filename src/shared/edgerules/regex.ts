/**
 * PCRE-style patterns on JavaScript regular expressions: leading inline flags such as `(?i)` or
 * `(?is)` become RegExp flags and `(?P<name>…)` becomes `(?<name>…)`; everything else is read as a
 * JavaScript pattern. Compiled patterns are cached, since rules repeat the same few.
 */
const cache = new Map<string, RegExp | null>();
const MAX_CACHE = 2000;

/** The RegExp of a pattern, or null when it does not compile. */
export function pcre(pattern: string, ignoreCase = false): RegExp | null {
  const key = ignoreCase ? `i\u0000${pattern}` : pattern;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let source = pattern;
  let flags = ignoreCase ? 'i' : '';
  const m = /^\(\?([imsx]+)\)/.exec(source);
  if (m) {
    source = source.slice(m[0].length);
    for (const f of m[1]) if (f !== 'x' && !flags.includes(f)) flags += f;
  }
  source = source.replace(/\(\?P</g, '(?<');
  let re: RegExp | null;
  try {
    re = new RegExp(source, flags);
  } catch {
    re = null;
  }
  if (cache.size >= MAX_CACHE) cache.clear();
  cache.set(key, re);
  return re;
}

/** Number of capture groups of a pattern, or null when it does not compile. */
export function groupCount(pattern: string): number | null {
  const re = pcre(pattern);
  if (!re) return null;
  return new RegExp(`${re.source}|`, re.flags).exec('')!.length - 1;
}
