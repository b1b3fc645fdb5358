/** The success envelope of spec 000 §7: result, error_code, data. */
export function ok<T>(data?: T, extra: Record<string, unknown> = {}) {
  return { result: true as const, error_code: 0, ...(data === undefined ? {} : { data }), ...extra };
}

type Schema = Record<string, unknown>;

/**
 * The schema of a route's success answer (issue 23): the envelope with `data` and the fields the route
 * sends beside it (`pager`, `summary` …). Declared as `schema.response[200]`, Fastify serialises the
 * answer with it (fast-json-stringify), so a field it does not name is never sent, and the OpenAPI
 * document shows it. `data` undefined: the answer has none; given, every answer carries it (the
 * serialiser refuses an answer without it: a route whose data may be absent declares it nullable and
 * sends null).
 */
export function okSchema(data?: Schema, extra: Record<string, Schema> = {}, requiredExtra: string[] = []): Schema {
  return {
    type: 'object',
    required: [...(data ? ['result', 'error_code', 'data'] : ['result', 'error_code']), ...requiredExtra],
    additionalProperties: false,
    properties: {
      result: { type: 'boolean', const: true },
      error_code: { type: 'integer', const: 0 },
      ...(data ? { data } : {}),
      ...extra,
    },
  };
}

/** The `{ response: { 200: … } }` part of a route's schema; `requiredExtra`: the fields beside data every answer carries. */
export function okResponse(data?: Schema, extra: Record<string, Schema> = {}, requiredExtra: string[] = []): { 200: Schema } {
  return { 200: okSchema(data, extra, requiredExtra) };
}

/** Cursor paging (src/shared/buckets.ts CursorPager): the ids to ask for the page before and after. */
export const cursorPagerSchema: Schema = {
  type: 'object',
  required: ['since', 'max'],
  additionalProperties: false,
  properties: { since: { type: ['integer', 'null'] }, max: { type: ['integer', 'null'] } },
};

/** A nullable string, integer, number, boolean. */
export const nullable = (type: string, more: Schema = {}): Schema => ({ type: [type, 'null'], ...more });
