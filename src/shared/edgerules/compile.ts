/**
 * General (form) rules written in the rule language, so that one evaluator serves both modes.
 *
 *   conditions            → $WHEN(c1, c2, …)          (no conditions: no $WHEN, the rule always applies)
 *   equal / not_equal     → $EQ(V, 'x') / $NOT($EQ(V, 'x')); case-insensitive: $EQ($LOWER(V), 'x lowered')
 *   match / not_match     → $MATCH(V, 're') / $NOT(…); case-insensitive: $MATCH(V, '(?i)re')
 *   header add / delete   → $ADD_REQ_HEADER / $ADD_RSP_HEADER(name, value, 1 when cover) / $DEL_…_HEADER(name)
 *   redirect              → pattern = capture, $REDIRECT(target, code)
 *   error page            → $ERROR_PAGE(code, target)
 *   URI rewrite           → pattern = capture, the new URI as the rewrite target
 *   limit rate            → $LIMIT_RATE_AFTER(n, k|m) $LIMIT_RATE(n, k|m)
 *   access control        → $EXIT(code)
 *
 * Match values, header names and values are literal (single-quoted). Redirect targets and new URIs are
 * templates: `$1`…`$9` (groups of the capture) and `$_NAME` variables are kept, every other character
 * is literal.
 */
import type { Action, Condition, EdgeRuleInput } from './types';
import { PREFIXED_VARIABLES } from './types';

/** A single-quoted string of the language holding exactly `s`. */
export function quote(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Literal text of the language for a template: captures and variables kept, the rest escaped. */
export function template(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '$') {
      const m = /^\$(\d|_[A-Za-z0-9_-]+)/.exec(s.slice(i));
      if (m) {
        out += m[0];
        i += m[0].length - 1;
        continue;
      }
      out += '\\$';
      continue;
    }
    out += /[\s\\'(),]/.test(c) ? `\\${c}` : c;
  }
  return out;
}

/** "http_header_user-agent" → { base: "http_header_", param: "user-agent" }. */
export function splitVariable(value: string): { base: string; param: string } {
  const prefix = PREFIXED_VARIABLES.find((p) => value.startsWith(p));
  return prefix ? { base: prefix, param: value.slice(prefix.length) } : { base: value, param: '' };
}

/** The variable of the language a condition reads. */
export function variableOf(value: string): string {
  const { base, param } = splitVariable(value);
  switch (base) {
    case 'http_uri':
      return '$_URI';
    case 'http_method':
      return '$_METHOD';
    case 'http_scheme':
      return '$_SCHEME';
    case 'country_code':
      return '$_GEOIP_COUNTRY_CODE';
    case 'remote_ip':
      return '$_IP';
    case 'http_header_':
      return `$_HEADER_${param.toLowerCase()}`;
    case 'http_args_':
      return `$_GET_${param}`;
    case 'http_post_':
      return `$_POST_${param}`;
    case 'http_cookie_':
      return `$_COOKIE_${param}`;
    default:
      return `$_${base}`;
  }
}

export function compileCondition(c: Condition): string {
  const v = variableOf(c.lvalue.value);
  const value = c.rvalue.value;
  let test: string;
  if (c.operator === 'match' || c.operator === 'not_match') {
    test = `$MATCH(${v}, ${quote(c.case_sensitive ? value : `(?i)${value}`)})`;
  } else {
    test = c.case_sensitive ? `$EQ(${v}, ${quote(value)})` : `$EQ($LOWER(${v}), ${quote(value.toLowerCase())})`;
  }
  return c.operator === 'not_equal' || c.operator === 'not_match' ? `$NOT(${test})` : test;
}

/** "100KB" → ["100", "k"]. */
export function splitRate(v: string): [string, 'k' | 'm'] {
  const m = /^(\d+)\s*(KB|MB)$/i.exec(v.trim());
  return m ? [String(Number(m[1])), m[2].toUpperCase() === 'MB' ? 'm' : 'k'] : [v, 'k'];
}

export function compileAction(a: Action): { pattern: string; text: string } {
  switch (a.type) {
    case 'header': {
      const side = a.kind === 'request' ? 'REQ' : 'RSP';
      if (a.operate === 'delete') return { pattern: '', text: `$DEL_${side}_HEADER(${quote(a.name ?? '')})` };
      return { pattern: '', text: `$ADD_${side}_HEADER(${quote(a.name ?? '')}, ${quote(a.value ?? '')}${a.cover ? ', 1' : ''})` };
    }
    case 'movement':
      if (a.kind === 'errorpage') return { pattern: '', text: `$ERROR_PAGE(${a.code ?? 404}, ${template(a.target ?? '')})` };
      return { pattern: a.capture ?? '', text: `$REDIRECT(${template(a.target ?? '')}, ${a.code ?? 302})` };
    case 'uri_rewrite':
      return { pattern: a.capture ?? '', text: template(a.newuri ?? '') };
    case 'limit_rate': {
      const [rate, unit] = splitRate(a.rate ?? '');
      let text = '';
      if (a.after) {
        const [after, afterUnit] = splitRate(a.after);
        text += `$LIMIT_RATE_AFTER(${after}, ${afterUnit})`;
      }
      return { pattern: '', text: `${text}$LIMIT_RATE(${rate}, ${unit})` };
    }
    case 'access_control':
      return { pattern: '', text: `$EXIT(${a.code ?? 403})` };
    default:
      return { pattern: '', text: '' };
  }
}

/** The pattern and program of a general rule. */
export function compileGeneral(content: NonNullable<EdgeRuleInput['content']>): { pattern: string; rule: string } {
  const conditions = content.conditions ?? [];
  const when = conditions.length ? `$WHEN(${conditions.map(compileCondition).join(', ')})` : '';
  let pattern = '';
  let body = '';
  for (const a of content.actions ?? []) {
    const c = compileAction(a);
    if (c.pattern) pattern = c.pattern;
    body += c.text;
  }
  return { pattern, rule: when + body };
}

/** The pattern and program of any rule: a custom rule's own, or the general rule compiled. */
export function programOf(rule: Pick<EdgeRuleInput, 'type' | 'content' | 'pattern' | 'rule'>): { pattern: string; rule: string } {
  if (rule.type === 'custom') return { pattern: rule.pattern ?? '', rule: rule.rule ?? '' };
  return compileGeneral(rule.content ?? { conditions: [], actions: [] });
}
