import type { JsonSchema } from './types';

/**
 * The value a setting has before anyone saved it: built from the schema's `default` keywords
 * (objects recurse into their properties, arrays default to []).
 */
export function defaultsOf(schema: JsonSchema): unknown {
  if ('default' in schema) return structuredClone(schema.default);
  if (schema.type === 'object') {
    const out: Record<string, unknown> = {};
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const [k, s] of Object.entries(props)) {
      const v = defaultsOf(s);
      if (v !== undefined) out[k] = v;
    }
    return out;
  }
  if (schema.type === 'array') return [];
  return undefined;
}
