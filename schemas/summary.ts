import type Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import type { SettingMeta, SummaryRule } from './types';

/**
 * The summary label of a value: the first rule whose `when` schema matches (and whose `kinds`, if any,
 * hold the service's kind). Settings that name `summaryWith` see the other settings' values as "$<id>"
 * properties.
 */
export function summaryOf(ajv: Ajv, meta: SettingMeta, value: unknown, related: Record<string, unknown> = {}, kind?: string): SummaryRule | undefined {
  const subject = value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as object), ...Object.fromEntries(Object.entries(related).map(([k, v]) => [`$${k}`, v])) } : value;
  const tests = testsOf(ajv, meta);
  for (const [i, rule] of meta.summary.entries()) {
    if (rule.kinds && !(kind && (rule.kinds as string[]).includes(kind))) continue;
    if (!rule.when) return rule;
    if (tests[i]!(subject)) return rule;
  }
  return undefined;
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
