import type Ajv from 'ajv';
import type { SettingMeta, SummaryRule } from './types';

/** The summary label of a stored value: the first rule whose `when` schema matches. */
export function summaryOf(ajv: Ajv, meta: SettingMeta, value: unknown): SummaryRule | undefined {
  for (const rule of meta.summary) {
    if (!rule.when) return rule;
    const key = `summary:${meta.id}:${meta.summary.indexOf(rule)}`;
    const validate = ajv.getSchema(key) ?? (ajv.addSchema(rule.when, key), ajv.getSchema(key)!);
    if (validate(value)) return rule;
  }
  return undefined;
}
