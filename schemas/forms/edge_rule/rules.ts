/**
 * What the edge-rule form needs besides its schema, run by the server before storing and by the
 * console before sending:
 *
 *  - ruleErrors(value, { count }): the checks JSON Schema cannot say — the priority's maximum (the
 *    number of rules plus one, message from schema.json), the program of a custom rule (it must
 *    parse; its URI extraction pattern must compile), a general rule's compiled program (a target
 *    may name an unknown variable), and the length limits 23002 (the program, custom or compiled,
 *    ≤ 4096 characters) and 23003 (the rule as stored, in JSON, ≤ 5120). Called only when the
 *    schema accepts the value.
 *  - normalizeRule(value): what is stored — ON and OFF drop ip, each mode keeps only its own fields,
 *    every condition after the first carries combination 'and', an action keeps only the fields of
 *    its feature.
 *
 * The forbidden header lists are in schema.json (`not` with a case-insensitive pattern, for request
 * and response headers alike: issue 19 item 20); tests/unit/edgerules-form.test.ts checks them
 * against src/shared/edgerules/catalogue.ts. An empty `after` (限速策略) is read as omitted.
 */
import { EDGE_RULE_TEXTS, errorText, fillText, type FieldError } from '../../../src/shared/errors';
import { CONTROL_CHARACTER } from '../../../src/shared/edgerules/check';
import { checkProgram, EDGE_LIMITS, formatSyntaxError, pcre, programOf } from '../../../src/shared/edgerules';
import type { Action, Condition, EdgeRuleInput } from '../../../src/shared/edgerules/types';
import schema from './schema.json';

/** What the rules see besides the value: how many rules the service has (an edited rule counts). */
export interface EdgeRuleContext {
  count?: number;
}

/** The highest priority a rule may take: the number of rules plus one (spec 002 §5). */
export function priorityMax(count: number): number {
  return count + 1;
}

/** "优先级最大为 N", the template of schema.json. */
export function priorityMessage(max: number): string {
  return fillText(schema.properties.priority.errorMessage.maximum, { max });
}

/** Where a general rule's program error belongs: the field whose template produced it. */
function actionField(a: Action | undefined): string {
  if (a?.type === 'uri_rewrite') return '/content/actions/0/newuri';
  if (a?.type === 'movement') return '/content/actions/0/target';
  return '/content/actions/0';
}

/** A match condition whose value the edge's regular expressions refuse (src/shared/edgerules/regex.ts). */
function conditionField(conditions: Condition[] | undefined): string | undefined {
  const i = (conditions ?? []).findIndex((c) => (c.operator === 'match' || c.operator === 'not_match') && !pcre(c.case_sensitive ? c.rvalue.value : `(?i)${c.rvalue.value}`));
  return i < 0 ? undefined : `/content/conditions/${i}/rvalue/value`;
}

/**
 * Every string of the rule but the program (checked piece by piece by checkProgram) that holds a control
 * character, at its field (issue 34 item 14: a redirect target with CR/LF saved and the edge answered 500).
 */
function controlErrors(value: EdgeRuleInput): FieldError[] {
  const out: FieldError[] = [];
  const walk = (v: unknown, path: string) => {
    if (typeof v === 'string') {
      if (CONTROL_CHARACTER.test(v)) out.push({ path, message: EDGE_RULE_TEXTS.controlChar });
    } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}/${i}`));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) if (!(path === '' && k === 'rule')) walk(x, `${path}/${k}`);
  };
  walk(value, '');
  return out;
}

export function ruleErrors(value: EdgeRuleInput, context: EdgeRuleContext = {}): FieldError[] {
  const errors: FieldError[] = [];
  if (context.count !== undefined && value.priority > priorityMax(context.count)) {
    errors.push({ path: '/priority', message: priorityMessage(priorityMax(context.count)) });
  }
  // a value with a control character: said at its field, not again as the compiled program's error
  const control = controlErrors(value);
  if (control.length) return [...errors, ...control];
  const { pattern, rule } = programOf(value);
  const custom = value.type === 'custom';
  const check = checkProgram(rule, pattern);
  if (!check.ok) {
    // a program that does not parse is the check's failure (23007, 元数据校验未通过)
    if (custom) errors.push({ path: check.part === 'pattern' ? '/pattern' : '/rule', message: check.part === 'pattern' ? check.error.reason : formatSyntaxError(check.error), code: 23007 });
    else errors.push({ path: conditionField(value.content?.conditions) ?? actionField(value.content?.actions?.[0]), message: check.error.reason });
  }
  if (rule.length > EDGE_LIMITS.program) errors.push({ path: custom ? '/rule' : '/content', message: errorText(23002), code: 23002 });
  if (JSON.stringify(normalizeRule(value)).length > EDGE_LIMITS.total) errors.push({ path: '', message: errorText(23003), code: 23003 });
  return errors;
}

function cleanCondition(c: Condition, i: number): Condition {
  return {
    lvalue: { type: 'variable', value: c.lvalue.value, ...(c.lvalue.link ? { link: c.lvalue.link } : {}) },
    rvalue: { type: 'literal', value: c.rvalue.value },
    operator: c.operator,
    case_sensitive: c.case_sensitive,
    ...(i > 0 ? { combination: 'and' as const } : {}),
  };
}

/** The fields of an action's feature, and nothing else. */
export function cleanAction(a: Action): Action {
  switch (a.type) {
    case 'header':
      return a.operate === 'delete'
        ? { type: 'header', kind: a.kind, operate: 'delete', name: a.name }
        : { type: 'header', kind: a.kind, operate: 'add', name: a.name, value: a.value, cover: Boolean(a.cover) };
    case 'movement':
      return a.kind === 'errorpage'
        ? { type: 'movement', kind: 'errorpage', code: a.code, target: a.target }
        : { type: 'movement', kind: 'redirect', code: a.code, ...(a.capture ? { capture: a.capture } : {}), target: a.target };
    case 'uri_rewrite':
      return { type: 'uri_rewrite', ...(a.capture ? { capture: a.capture } : {}), newuri: a.newuri };
    case 'limit_rate':
      return { type: 'limit_rate', rate: a.rate, ...(a.after ? { after: a.after } : {}) };
    case 'access_control':
      return { type: 'access_control', code: a.code };
    default:
      return a;
  }
}

export function normalizeRule<T extends EdgeRuleInput>(value: T): EdgeRuleInput {
  const out: EdgeRuleInput = {
    describe: value.describe.trim(),
    type: value.type,
    priority: value.priority,
    break: value.break,
    status: value.status,
  };
  // spec 002 §4: on save, ON and OFF drop ip
  if (value.status === 'DEBUG' && value.ip) out.ip = value.ip.trim();
  if (value.type === 'custom') {
    out.pattern = value.pattern ?? '';
    out.rule = value.rule ?? '';
  } else {
    out.content = {
      conditions: (value.content?.conditions ?? []).map(cleanCondition),
      actions: (value.content?.actions ?? []).map(cleanAction),
    };
  }
  return out;
}

const rules = { ruleErrors, normalizeRule, priorityMax, priorityMessage };
export default rules;
