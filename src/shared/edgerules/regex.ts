/**
 * PCRE-style patterns on JavaScript regular expressions: leading inline flags such as `(?i)` or
 * `(?is)` become RegExp flags and `(?P<name>…)` becomes `(?<name>…)`; everything else is read as a
 * JavaScript pattern. Compiled patterns are cached, since rules repeat the same few.
 */
const cache = new Map<string, RegExp | null>();
const MAX_CACHE = 2000;

/** The RegExp of a pattern, or null when it does not compile — here or in the edge's PCRE. */
export function pcre(pattern: string, ignoreCase = false): RegExp | null {
  const key = ignoreCase ? `i\u0000${pattern}` : pattern;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  if (pcreRefuses(pattern)) {
    if (cache.size >= MAX_CACHE) cache.clear();
    cache.set(key, null);
    return null;
  }
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

/*
 * What JavaScript accepts and the edge's PCRE2 (nginx's ngx.re) refuses, so that a rule is refused when it
 * is checked or saved rather than failing on the edge (docs/edge-rules.md "On the edge"):
 *  - the escapes \u \U \l \L (anywhere), \o without {…}, \c at the end, \k without a defined <name>,
 *    \g without a group reference;
 *  - a back reference \1…\7 beyond the groups;
 *  - `[]` and `[^]`: in PCRE a `]` right after `[` or `[^` is literal, so the class does not end there;
 *  - a group name other than letters, digits and _ (not starting with a digit);
 *  - a lookbehind whose length is not fixed (a quantifier other than {n}, alternatives of different
 *    lengths inside a nested group, a back reference).
 * tests/edge/rules-lua.test.ts checks a corpus of patterns against the real ngx.re.
 */
export function pcreRefuses(pattern: string): boolean {
  const names = new Set<string>();
  for (const m of pattern.matchAll(/\(\?P?<([^>=!]*)>/g)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(m[1])) return true;
    names.add(m[1]);
  }
  let groups = 0;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '[') {
      const end = classEnd(pattern, i);
      if (end < 0) return true;
      i = end;
      continue;
    }
    if (ch === '(' && (pattern[i + 1] !== '?' || /^\(\?P?<[A-Za-z_]/.test(pattern.slice(i)))) groups++;
  }
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '[') {
      const end = classEnd(pattern, i);
      for (let j = i + 1; j < end; j++) {
        if (pattern[j] === '\\') {
          if ('uUlL'.includes(pattern[j + 1] ?? '')) return true;
          j++;
        }
      }
      i = end;
      continue;
    }
    if (ch === '\\') {
      const e = pattern[i + 1] ?? '';
      const rest = pattern.slice(i + 2);
      if ('uUlL'.includes(e) && e !== '') return true;
      if (e === 'c' && rest === '') return true;
      if (e === 'o' && !rest.startsWith('{')) return true;
      if (e === 'k') {
        const m = /^(?:<([^>]*)>|'([^']*)'|\{([^}]*)\})/.exec(rest);
        if (!m || !names.has(m[1] ?? m[2] ?? m[3])) return true;
      }
      if (e === 'g' && !/^(?:[+-]?\d|\{|<|')/.test(rest)) return true;
      const gn = e === 'g' ? /^\{?(\d+)/.exec(rest) : null;
      if (gn && Number(gn[1]) > groups) return true;
      if (/[1-7]/.test(e) && !/^\d/.test(rest) && Number(e) > groups) return true;
      i++;
      continue;
    }
    if (ch === '(' && pattern[i + 1] === '?' && pattern[i + 2] === '<' && (pattern[i + 3] === '=' || pattern[i + 3] === '!')) {
      const end = groupEnd(pattern, i);
      if (end < 0) return false; // unbalanced: JavaScript refuses it already
      const body = pattern.slice(i + 4, end);
      // top-level alternatives may differ in length; each must be fixed
      if (splitAlternatives(body).some((alt) => fixedLength(alt) === null)) return true;
    }
  }
  return false;
}

/** Index of the `]` closing the class that starts at `start` (PCRE rules), or -1. */
function classEnd(p: string, start: number): number {
  let j = start + 1;
  if (p[j] === '^') j++;
  if (p[j] === ']') j++;
  for (; j < p.length; j++) {
    if (p[j] === '\\') {
      j++;
      continue;
    }
    if (p[j] === '[' && p[j + 1] === ':') {
      const close = p.indexOf(':]', j + 2);
      if (close > 0) {
        j = close + 1;
        continue;
      }
    }
    if (p[j] === ']') return j;
  }
  return -1;
}

/** Index of the `)` closing the group that starts at `start`, or -1. */
function groupEnd(p: string, start: number): number {
  let depth = 0;
  for (let j = start; j < p.length; j++) {
    const ch = p[j];
    if (ch === '\\') {
      j++;
      continue;
    }
    if (ch === '[') {
      const end = classEnd(p, j);
      if (end < 0) return -1;
      j = end;
      continue;
    }
    if (ch === '(') depth++;
    if (ch === ')' && --depth === 0) return j;
  }
  return -1;
}

/** Top-level alternatives of a group's body. */
function splitAlternatives(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let j = 0; j < body.length; j++) {
    const ch = body[j];
    if (ch === '\\') {
      j++;
      continue;
    }
    if (ch === '[') {
      const end = classEnd(body, j);
      if (end < 0) break;
      j = end;
      continue;
    }
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === '|' && depth === 0) {
      out.push(body.slice(from, j));
      from = j + 1;
    }
  }
  out.push(body.slice(from));
  return out;
}

/** The length every match of a sequence has, or null when it varies. */
function fixedLength(seq: string): number | null {
  let total = 0;
  let j = 0;
  while (j < seq.length) {
    const ch = seq[j];
    let len: number | null = 1;
    let next = j + 1;
    if (ch === '\\') {
      const e = seq[j + 1] ?? '';
      if (/\d/.test(e)) return null; // a back reference
      len = 'bBAzZGK'.includes(e) ? 0 : 1;
      next = j + 2;
      if ((e === 'x' || e === 'p' || e === 'P') && seq[next] === '{') next = seq.indexOf('}', next) + 1 || seq.length;
      else if (e === 'x') while (next < j + 4 && /[0-9a-fA-F]/.test(seq[next] ?? '')) next++;
    } else if (ch === '[') {
      const end = classEnd(seq, j);
      if (end < 0) return null;
      next = end + 1;
    } else if (ch === '^' || ch === '$') {
      len = 0;
    } else if (ch === '(') {
      const end = groupEnd(seq, j);
      if (end < 0) return null;
      let inner = seq.slice(j + 1, end);
      if (/^\?[=!]|^\?<[=!]/.test(inner)) len = 0; // a nested assertion
      else {
        inner = inner.replace(/^\?(?::|P?<[A-Za-z_][A-Za-z0-9_]*>|[imsx-]+:)/, '');
        const lens = splitAlternatives(inner).map(fixedLength);
        if (lens.some((l) => l === null) || new Set(lens).size > 1) return null;
        len = lens[0];
      }
      next = end + 1;
    } else if (ch === '*' || ch === '+' || ch === '?') {
      return null;
    } else {
      // one character (a surrogate pair is one)
      const cp = seq.codePointAt(j)!;
      next = j + (cp > 0xffff ? 2 : 1);
    }
    // a quantifier after the atom
    const q = seq.slice(next);
    const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(q);
    if (m) {
      if (m[2] !== undefined && m[3] !== m[1]) return null;
      len = len === null ? null : len * Number(m[1]);
      next += m[0].length;
    } else if (/^[*+?]/.test(q)) {
      return null;
    }
    if (len === null) return null;
    total += len;
    j = next;
  }
  return total;
}
