/**
 * Validation whose cost is linear in the input (issue 34 item 1). ajv with `allErrors` (which ajv-errors
 * needs for the Chinese `errorMessage` texts) checks every item of an array even past `maxItems`, and
 * ajv-errors walks every error collected so far for each failing `errorMessage`: 100,000 wrong items took
 * minutes. So a payload is first checked by a validator that stops at its first error (no texts); only a
 * refused payload is checked again for its messages, on a copy whose arrays are cut to
 * `MESSAGE_ITEMS` items and objects to `MESSAGE_KEYS` keys (errors past them are not needed to tell the
 * person what is wrong). If the cut copy passes (the first error lies past the cut, or is a `maxItems`
 * the cut hid), the quick pass's error is answered with the schema's own message for it.
 */
import type Ajv from 'ajv';
import type { ErrorObject } from 'ajv';

/** Items of each array the message pass reads: more than any `maxItems` of the forms and settings (at most 250), so a list they allow gets every message. */
export const MESSAGE_ITEMS = 256;
/** Keys of each object the message pass reads. */
export const MESSAGE_KEYS = 1000;

export interface BoundedValidate {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** A copy of `data` with every array cut to `max` items, or `data` itself when none is longer. */
export function cutArrays(data: unknown, max = MESSAGE_ITEMS, depth = 0): unknown {
  // the body parser refuses deeper JSON (MAX_JSON_DEPTH); beyond this the value is kept as it is
  if (depth > 200 || data === null || typeof data !== 'object') return data;
  if (Array.isArray(data)) {
    const items = data.length > max ? data.slice(0, max) : data;
    let changed = items !== data;
    const out = items.map((v) => {
      const c = cutArrays(v, max, depth + 1);
      if (c !== v) changed = true;
      return c;
    });
    return changed ? out : data;
  }
  if (ArrayBuffer.isView(data) || data instanceof ArrayBuffer) return data;
  let entries = Object.entries(data);
  let out: Record<string, unknown> | null = null;
  if (entries.length > MESSAGE_KEYS) {
    entries = entries.slice(0, MESSAGE_KEYS);
    out = Object.fromEntries(entries);
  }
  for (const [k, v] of entries) {
    const c = cutArrays(v, max, depth + 1);
    if (c !== v) (out ??= { ...(data as Record<string, unknown>) })[k] = c;
  }
  return out ?? data;
}

/** The `errorMessage` text a schema gives for an error of the quick pass, if any. */
function schemaMessage(root: unknown, e: ErrorObject): string | undefined {
  const parts = e.schemaPath.replace(/^#\/?/, '').split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = root;
  for (const p of parts.slice(0, -1)) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[p] : undefined;
  const em = node && typeof node === 'object' ? (node as { errorMessage?: unknown }).errorMessage : undefined;
  if (typeof em === 'string') return em;
  if (em && typeof em === 'object') {
    const m = (em as Record<string, unknown>)[e.keyword];
    if (typeof m === 'string') return m;
    if (m && typeof m === 'object' && e.keyword === 'required') {
      const r = (m as Record<string, unknown>)[(e.params as { missingProperty?: string }).missingProperty ?? ''];
      if (typeof r === 'string') return r;
    }
    if (typeof (em as { _?: unknown })._ === 'string') return (em as { _: string })._;
  }
  return undefined;
}

/**
 * A validator of `schema` that costs time linear in the payload: `quick` stops at the first error,
 * `full` (with allErrors and ajv-errors) gives the messages on a cut copy. Valid payloads are checked
 * once, by `quick` (which also applies defaults and coercions, as `full` would).
 */
export function boundedValidator(quick: Ajv, full: Ajv, schema: object): BoundedValidate {
  const first = quick.compile(schema);
  let all: ReturnType<Ajv['compile']> | null = null;
  const validate: BoundedValidate = (data: unknown) => {
    if (first(data)) {
      validate.errors = null;
      return true;
    }
    all ??= full.compile(schema);
    const cut = cutArrays(data);
    if (!all(cut)) {
      validate.errors = all.errors ?? [];
      return false;
    }
    // the first error lies past the cut: answer it with the schema's text for it
    validate.errors = (first.errors ?? []).map((e) => {
      const message = schemaMessage(schema, e);
      return message ? ({ ...e, keyword: 'errorMessage', message, params: { errors: [e] } } as ErrorObject) : e;
    });
    return false;
  };
  return validate;
}
