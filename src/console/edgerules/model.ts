/**
 * The editor's state and its two conversions: to the rule the API takes (prefixed variables joined
 * with their parameter, rate number and unit joined) and back (split again). Labels come from the
 * form declaration's ui.json, so the console and the declaration name things alike.
 */
import ui from '../../../schemas/forms/edge_rule/ui.json';
import schema from '../../../schemas/forms/edge_rule/schema.json';
import { COUNTRIES, PREFIXED_VARIABLES, splitRate, splitVariable, type Action, type ActionType, type Condition, type EdgeRule, type EdgeRuleInput, type Operator, type RuleStatus, type RuleType } from '../../shared/edgerules';

export type FeatureId = 'add_header' | 'delete_header' | 'redirect' | 'uri_rewrite' | 'limit_rate' | 'access_control' | 'errorpage';

export interface Feature {
  id: FeatureId;
  label: string;
  type: ActionType;
  kind?: 'request' | 'response' | 'redirect' | 'errorpage';
  operate?: 'add' | 'delete';
  codes?: number[];
}

export const FEATURES = (ui.content.actions.items['ui:options'] as { features: Feature[] }).features;
export const VARIABLES = (ui.content.conditions.items.lvalue.value['ui:options'] as { variables: { value: string; label: string; param?: string }[] }).variables;

const labels = <T extends string>(values: readonly T[], names: readonly string[]) => Object.fromEntries(values.map((v, i) => [v, names[i]])) as Record<T, string>;
export const OPERATOR_LABELS = labels(schema.properties.content.properties.conditions.items.properties.operator.enum as Operator[], ui.content.conditions.items.operator['ui:enumNames']);
export const STATUS_LABELS = labels(schema.properties.status.enum as RuleStatus[], ui.status['ui:enumNames']);
export const TYPE_LABELS = labels(schema.properties.type.enum as RuleType[], ui.type['ui:enumNames']);
export const CASE_LABELS = { true: ui.content.conditions.items.case_sensitive['ui:enumNames'][0], false: ui.content.conditions.items.case_sensitive['ui:enumNames'][1] };
export const KIND_LABELS = labels(['request', 'response', 'redirect', 'errorpage'] as const, ui.content.actions.items.kind['ui:enumNames']);
export const METHOD_OPTIONS = ['GET', 'HEAD', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'PATCH'];
export const SCHEME_OPTIONS = ['http', 'https'];
export const RATE_UNITS = ['KB', 'MB'] as const;
export type RateUnit = (typeof RATE_UNITS)[number];

/** Variables limited to equal / not equal with a dropdown of values (spec 002 §5). */
export const CHOICE_VARIABLES = ['http_method', 'http_scheme', 'country_code'];

export interface ConditionForm {
  key: number;
  /** A plain variable or a prefix ("http_header_"). */
  variable: string;
  param: string;
  operator: Operator;
  caseSensitive: boolean;
  value: string;
}

export interface ActionForm {
  feature: FeatureId;
  kind: 'request' | 'response';
  name: string;
  value: string;
  cover: boolean;
  code: number;
  capture: string;
  target: string;
  newuri: string;
  rate: string;
  rateUnit: RateUnit;
  after: string;
  afterUnit: RateUnit;
}

export interface RuleForm {
  describe: string;
  type: RuleType;
  priority: number | null;
  break: boolean;
  status: RuleStatus;
  ip: string;
  conditions: ConditionForm[];
  action: ActionForm;
  pattern: string;
  rule: string;
}

let keys = 0;
export const nextKey = () => ++keys;

export function featureOf(id: FeatureId): Feature {
  return FEATURES.find((f) => f.id === id)!;
}

/** The default value of a condition's match value for a variable (spec 002 §5). */
export function defaultValue(variable: string): string {
  if (variable === 'http_method') return 'GET';
  if (variable === 'http_scheme') return 'http';
  if (variable === 'country_code') return 'CN';
  return '';
}

export function newCondition(variable = 'http_uri'): ConditionForm {
  return { key: nextKey(), variable, param: '', operator: 'equal', caseSensitive: true, value: defaultValue(variable) };
}

/** Choosing another variable: its default value, equal, case-sensitive, no parameter. */
export function changeVariable(c: ConditionForm, variable: string): ConditionForm {
  return { ...c, variable, param: '', operator: 'equal', caseSensitive: true, value: defaultValue(variable) };
}

export function newAction(feature: FeatureId = 'add_header'): ActionForm {
  const f = featureOf(feature);
  return {
    feature,
    kind: f.kind === 'request' ? 'request' : 'response',
    name: '',
    value: '',
    cover: false,
    code: f.codes?.[0] ?? 0,
    capture: '',
    target: '',
    newuri: '',
    rate: '',
    rateUnit: 'KB',
    after: '',
    afterUnit: 'KB',
  };
}

/**
 * Choosing another feature (spec 002 §4): header name and value cleared, type/kind/operate set,
 * the status codes of the feature offered with the first chosen, rate units back to KB.
 */
export function changeFeature(a: ActionForm, feature: FeatureId): ActionForm {
  const f = featureOf(feature);
  return { ...a, feature, kind: f.kind === 'request' ? 'request' : 'response', name: '', value: '', cover: false, code: f.codes?.[0] ?? 0, rateUnit: 'KB', afterUnit: 'KB' };
}

export function newForm(priority: number, ip: string): RuleForm {
  return { describe: '', type: 'general', priority, break: false, status: 'DEBUG', ip, conditions: [newCondition()], action: newAction(), pattern: '', rule: '' };
}

function toAction(a: ActionForm): Action {
  const f = featureOf(a.feature);
  switch (f.type) {
    case 'header':
      return f.operate === 'delete' ? { type: 'header', kind: a.kind, operate: 'delete', name: a.name } : { type: 'header', kind: a.kind, operate: 'add', name: a.name, value: a.value, cover: a.cover };
    case 'movement':
      return f.kind === 'errorpage' ? { type: 'movement', kind: 'errorpage', code: a.code, target: a.target } : { type: 'movement', kind: 'redirect', code: a.code, ...(a.capture ? { capture: a.capture } : {}), target: a.target };
    case 'uri_rewrite':
      return { type: 'uri_rewrite', ...(a.capture ? { capture: a.capture } : {}), newuri: a.newuri };
    case 'limit_rate':
      return { type: 'limit_rate', rate: a.rate.trim() ? `${a.rate.trim()}${a.rateUnit}` : '', ...(a.after.trim() ? { after: `${a.after.trim()}${a.afterUnit}` } : {}) };
    default:
      return { type: 'access_control', code: a.code };
  }
}

/** The rule the API takes. */
export function toRule(form: RuleForm): EdgeRuleInput {
  const base = {
    describe: form.describe,
    type: form.type,
    priority: form.priority ?? (undefined as unknown as number),
    break: form.break,
    status: form.status,
    ...(form.status === 'DEBUG' ? { ip: form.ip } : {}),
  };
  if (form.type === 'custom') return { ...base, pattern: form.pattern, rule: form.rule };
  const conditions: Condition[] = form.conditions.map((c, i) => ({
    lvalue: { type: 'variable', value: (PREFIXED_VARIABLES as readonly string[]).includes(c.variable) ? c.variable + c.param : c.variable },
    rvalue: { type: 'literal', value: c.value },
    operator: c.operator,
    case_sensitive: c.caseSensitive,
    ...(i > 0 ? { combination: 'and' as const } : {}),
  }));
  return { ...base, content: { conditions, actions: [toAction(form.action)] } };
}

function featureIdOf(a: Action): FeatureId {
  if (a.type === 'header') return a.operate === 'delete' ? 'delete_header' : 'add_header';
  if (a.type === 'movement') return a.kind === 'errorpage' ? 'errorpage' : 'redirect';
  return a.type as FeatureId;
}

function rateOf(v: string | undefined): [string, RateUnit] {
  if (!v) return ['', 'KB'];
  const [n, u] = splitRate(v);
  return [n, u === 'm' ? 'MB' : 'KB'];
}

/** The editor's state of a stored rule (prefixed variables split again). */
export function fromRule(rule: EdgeRule | EdgeRuleInput, ip: string): RuleForm {
  const a = rule.content?.actions?.[0];
  let action = newAction(a ? featureIdOf(a) : 'add_header');
  if (a) {
    const [rate, rateUnit] = rateOf(a.rate);
    const [after, afterUnit] = rateOf(a.after);
    action = {
      ...action,
      kind: a.kind === 'request' ? 'request' : 'response',
      name: a.name ?? '',
      value: a.value ?? '',
      cover: Boolean(a.cover),
      code: a.code ?? action.code,
      capture: a.capture ?? '',
      target: a.target ?? '',
      newuri: a.newuri ?? '',
      rate,
      rateUnit,
      after,
      afterUnit,
    };
  }
  return {
    describe: rule.describe,
    type: rule.type,
    priority: rule.priority,
    break: rule.break,
    status: rule.status,
    ip: rule.ip || ip,
    conditions: (rule.content?.conditions ?? []).map((c) => {
      const { base, param } = splitVariable(c.lvalue.value);
      return { key: nextKey(), variable: base, param, operator: c.operator, caseSensitive: c.case_sensitive, value: c.rvalue.value };
    }),
    action,
    pattern: rule.pattern ?? '',
    rule: rule.rule ?? '',
  };
}

// ---------------------------------------------------------------------------------------------
// readable text of a general rule (the list's detail)

export function variableLabel(value: string): string {
  const { base, param } = splitVariable(value);
  const v = VARIABLES.find((x) => x.value === base);
  return v ? (param ? `${v.label} ${param}` : v.label) : value;
}

export function describeCondition(c: Condition): string {
  const op = OPERATOR_LABELS[c.operator] ?? c.operator;
  const value = c.lvalue.value === 'country_code' ? `${COUNTRIES[c.rvalue.value] ?? c.rvalue.value}（${c.rvalue.value}）` : `“${c.rvalue.value}”`;
  const cs = CHOICE_VARIABLES.includes(c.lvalue.value) ? '' : `（${c.case_sensitive ? CASE_LABELS.true : CASE_LABELS.false}）`;
  return `${variableLabel(c.lvalue.value)} ${op} ${value}${cs}`;
}

export function describeAction(a: Action): string {
  switch (a.type) {
    case 'header': {
      const side = a.kind === 'request' ? '请求头' : '响应头';
      return a.operate === 'delete' ? `删除${side} ${a.name}` : `添加${side} ${a.name}: ${a.value}${a.cover ? '（覆盖同名 Header）' : ''}`;
    }
    case 'movement':
      return a.kind === 'errorpage' ? `以 ${a.code} 返回错误页面 ${a.target}` : `${a.code} 重定向到 ${a.target}${a.capture ? `（URI 字符串提取 ${a.capture}）` : ''}`;
    case 'uri_rewrite':
      return `URI 改写为 ${a.newuri}${a.capture ? `（URI 字符串提取 ${a.capture}）` : ''}`;
    case 'limit_rate':
      return `限速 ${a.rate}/s${a.after ? `，先不限速传输 ${a.after}` : ''}`;
    case 'access_control':
      return `拒绝访问，返回 ${a.code}`;
    default:
      return '';
  }
}

/** "1.5 MB" for a number of bytes. */
export function bytesText(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KB`;
  return `${n} B`;
}
