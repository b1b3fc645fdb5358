import type Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import type { SettingMeta, SummaryRule } from './types';

/**
 * The summary label of a value: the first rule whose `when` schema matches (and whose `kinds`, if any,
 * hold the service's kind, and whose placeholders can all be filled), with its label filled (fillLabel).
 * Settings that name `summaryWith` see the other settings' values as "$<id>" properties.
 */
export function summaryOf(ajv: Ajv, meta: SettingMeta, value: unknown, related: Record<string, unknown> = {}, kind?: string): SummaryRule | undefined {
  const subject = value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as object), ...Object.fromEntries(Object.entries(related).map(([k, v]) => [`$${k}`, v])) } : value;
  const tests = testsOf(ajv, meta);
  for (const [i, rule] of meta.summary.entries()) {
    if (rule.kinds && !(kind && (rule.kinds as string[]).includes(kind))) continue;
    if (rule.when && !tests[i]!(subject)) continue;
    // a label with placeholders is answered filled; one that cannot be filled does not apply
    if (!rule.label.includes('{/')) return rule;
    const label = fillLabel(rule.label, subject);
    if (label !== undefined) return { ...rule, label };
  }
  return undefined;
}

/**
 * The placeholders of a summary label: `{/json/pointer}` is the value at that JSON pointer (RFC 6901;
 * `$<id>/…` reaches a `summaryWith` setting), `{/json/pointer#count}` the number of items of the array
 * there. `pointer` is the pointer's tokens, unescaped.
 */
export interface LabelPlaceholder {
  text: string;
  pointer: string[];
  count: boolean;
}

const PLACEHOLDER = /\{(\/[^{}#]*)(#count)?\}/g;

export function placeholdersOf(label: string): LabelPlaceholder[] {
  return [...label.matchAll(PLACEHOLDER)].map((m) => ({ text: m[0], pointer: tokensOf(m[1]!), count: m[2] !== undefined }));
}

function tokensOf(pointer: string): string[] {
  return pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * A label with its placeholders filled from `subject` (the value, with the related settings as
 * "$<id>"): a string as stored, a number in decimal, `#count` an array's length. `undefined` when a
 * placeholder finds nothing it can show (no value there, an empty string, an object, a boolean,
 * `#count` of something not an array).
 */
export function fillLabel(label: string, subject: unknown): string | undefined {
  let unfilled = false;
  const out = label.replace(PLACEHOLDER, (_m, pointer: string, count?: string) => {
    let at: unknown = subject;
    for (const token of tokensOf(pointer)) {
      if (Array.isArray(at)) at = /^(0|[1-9]\d*)$/.test(token) ? at[Number(token)] : undefined;
      else if (at && typeof at === 'object' && Object.hasOwn(at, token)) at = (at as Record<string, unknown>)[token];
      else at = undefined;
    }
    const text = count ? (Array.isArray(at) ? String(at.length) : undefined) : typeof at === 'string' && at !== '' ? at : typeof at === 'number' && Number.isFinite(at) ? String(at) : undefined;
    if (text === undefined) unfilled = true;
    return text ?? '';
  });
  return unfilled ? undefined : out;
}

/** Each rule's compiled `when`, looked up once per declaration and ajv (not per call: the server answers a summary with every settings read). */
const compiled = new WeakMap<Ajv, WeakMap<SettingMeta, (ValidateFunction | null)[]>>();

function testsOf(ajv: Ajv, meta: SettingMeta): (ValidateFunction | null)[] {
  let byMeta = compiled.get(ajv);
  if (!byMeta) compiled.set(ajv, (byMeta = new WeakMap()));
  let tests = byMeta.get(meta);
  if (!tests) {
    tests = meta.summary.map((rule, i) => {
      if (!rule.when) return null;
      const key = `summary:${meta.id}:${i}`;
      return ajv.getSchema(key) ?? (ajv.addSchema(rule.when, key), ajv.getSchema(key)!);
    });
    byMeta.set(meta, tests);
  }
  return tests;
}

/** The help paragraphs for a kind of service. */
export function helpFor(meta: SettingMeta, kind: string): string[] {
  if (!meta.help) return [];
  if (Array.isArray(meta.help)) return meta.help;
  return meta.help[kind] ?? meta.help.default ?? [];
}

/** Fills {name} placeholders from the server's values. */
export function fillVars(text: string, vars: Record<string, string> = {}): string {
  return text.replace(/\{([a-z0-9_]+)\}/g, (m, k: string) => vars[k] ?? m);
}
