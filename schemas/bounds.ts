/**
 * Every integer and number a route accepts is bounded (issue 21 item 1): `boundNumbers` returns a copy
 * of a JSON Schema in which each `integer` / `number` subschema without a maximum (or minimum) gets the
 * PostgreSQL `integer` column's bound (src/shared/limits.ts) and the Chinese `OUT_OF_RANGE_MESSAGE` for
 * it (a single `errorMessage` string of the field covers it instead). A field kept in another column
 * (`bigint`, `numeric`) names its own bounds in its schema, which are left as they are. `enum` and
 * `const` fields are bounded already.
 */
import { INT_MAX, INT_MIN, OUT_OF_RANGE_MESSAGE } from '../src/shared/limits';

type Schema = Record<string, unknown>;

const isNumeric = (s: Schema) => {
  const t = s.type;
  return (Array.isArray(t) ? t : [t]).some((x) => x === 'integer' || x === 'number');
};

/**
 * The message of a bound this module adds. A field's own message for that keyword belongs to a bound
 * set elsewhere (the edge rule's 优先级最大为 {max}, filled from the rule count by its rules.ts), so it
 * is replaced in the copy; a single errorMessage string covers every keyword and stays.
 */
function withMessage(s: Schema, keyword: 'maximum' | 'minimum'): void {
  const m = s.errorMessage;
  if (typeof m === 'string') return;
  if (m && typeof m === 'object' && !Array.isArray(m)) s.errorMessage = { ...(m as object), [keyword]: OUT_OF_RANGE_MESSAGE };
  else if (m === undefined) s.errorMessage = { [keyword]: OUT_OF_RANGE_MESSAGE };
}

function bound(s: Schema): Schema {
  if (!isNumeric(s) || 'enum' in s || 'const' in s) return s;
  const out = { ...s };
  if (out.maximum === undefined && out.exclusiveMaximum === undefined) {
    out.maximum = INT_MAX;
    withMessage(out, 'maximum');
  }
  if (out.minimum === undefined && out.exclusiveMinimum === undefined) {
    out.minimum = INT_MIN;
    withMessage(out, 'minimum');
  }
  return out;
}

/** Keywords whose value is one schema, a list of schemas, or a map of name → schema. */
const ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'additionalItems', 'unevaluatedProperties', 'unevaluatedItems'];
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAP = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'];

/** A bounded copy of `schema` (the input is never changed: route schemas are often shared objects). */
export function boundNumbers<T>(schema: T): T {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const s = bound({ ...(schema as Schema) });
  for (const k of ONE) {
    const v = s[k];
    if (Array.isArray(v)) s[k] = v.map((x) => boundNumbers(x));
    else if (v && typeof v === 'object') s[k] = boundNumbers(v);
  }
  for (const k of LIST) if (Array.isArray(s[k])) s[k] = (s[k] as unknown[]).map((x) => boundNumbers(x));
  for (const k of MAP) {
    const v = s[k];
    if (v && typeof v === 'object' && !Array.isArray(v)) s[k] = Object.fromEntries(Object.entries(v).map(([name, x]) => [name, boundNumbers(x)]));
  }
  return s as T;
}

/** Where a schema still takes a number without both bounds, or with a bound beyond exact JavaScript integers (JSON pointers into the schema). */
export function unboundedNumbers(schema: unknown, at = ''): string[] {
  if (!schema || typeof schema !== 'object') return [];
  if (Array.isArray(schema)) return schema.flatMap((x, i) => unboundedNumbers(x, `${at}/${i}`));
  const s = schema as Schema;
  const out: string[] = [];
  if (isNumeric(s) && !('enum' in s) && !('const' in s)) {
    const max = (s.maximum ?? s.exclusiveMaximum) as number | undefined;
    const min = (s.minimum ?? s.exclusiveMinimum) as number | undefined;
    if (typeof max !== 'number' || typeof min !== 'number' || max > Number.MAX_SAFE_INTEGER || min < Number.MIN_SAFE_INTEGER) out.push(at || '/');
  }
  for (const [k, v] of Object.entries(s)) if (k !== 'errorMessage' && k !== 'default' && k !== 'examples' && v && typeof v === 'object') out.push(...unboundedNumbers(v, `${at}/${k}`));
  return out;
}
