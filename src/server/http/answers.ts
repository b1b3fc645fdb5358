/**
 * The success answers of the section routes (issue 23 item 2), declared in one table per section
 * (`src/server/<section>/answers.ts`, keyed `METHOD url` as Fastify registers the route) and set as
 * the route's `schema.response[200]` by an onRoute hook installed before any route (and before the
 * OpenAPI collector, which then shows them). Fastify serialises the route's answers with it
 * (fast-json-stringify): a field the schema does not name is not sent.
 *
 * A route that declares `schema.response` itself (the settings and service routes) keeps its own.
 *
 * The building blocks are deliberately forgiving where a section's answer was not read field by field:
 * every value may be null, and no field is required. fast-json-stringify turns a value of the wrong
 * type silently into another one when a schema has a single type (null becomes "" or 0, an object
 * "[object Object]"); with the type and null listed it refuses it instead (a 500 the tests see), so a
 * wrong declaration is loud, never a quietly changed answer. `any` (the empty schema) is written with
 * JSON.stringify: used for values whose shape is free (a stored rule, a setting's value, a raw body).
 */
import type { FastifyInstance, RouteOptions } from 'fastify';

type Schema = Record<string, unknown>;

/** A string, number, boolean or null. */
export const str: Schema = { type: ['string', 'null'] };
export const num: Schema = { type: ['number', 'null'] };
export const bool: Schema = { type: ['boolean', 'null'] };
/** Anything (serialised as JSON.stringify would). */
export const any: Schema = {};
/** One of several primitive types, or null. */
export const prim = (...types: ('string' | 'number' | 'boolean')[]): Schema => ({ type: [...types, 'null'] });
/** An object of exactly these fields (a field it does not name is not sent), or null. */
export const obj = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: ['object', 'null'],
  additionalProperties: false,
  ...(required.length ? { required } : {}),
  properties,
});
/** An object keyed by data (dates, names, ids), each value as `value`. */
export const map = (value: Schema): Schema => ({ type: ['object', 'null'], additionalProperties: value });
/** One of these shapes (an object or a list of them, as one route answers either). */
export const either = (...shapes: Schema[]): Schema => ({ anyOf: shapes });
/** An array of `items`, or null. */
export const arr = (items: Schema): Schema => ({ type: ['array', 'null'], items });

/** The cursor pager of a keyset list (src/server/http/keyset.ts), beside `data` or inside it. */
export const cursorPager: Schema = obj({ since: num, max: num });

type Declared = { properties?: Record<string, { type?: unknown }> };
/**
 * The fields of a value stored as a form declaration holds it (schemas/forms/<id>/schema.json), each
 * typed as the declaration types it (in the property, or in the if/then/else branches that do): a field
 * added to the declaration is answered without a second list here.
 */
export function fieldsOf(declaration: object): Record<string, Schema> {
  const d = declaration as Declared & { then?: Declared; else?: Declared };
  const typeOf = (name: string) => [d, d.then, d.else].map((s) => s?.properties?.[name]?.type).find((t) => t !== undefined);
  const field = (t: unknown): Schema => (t === 'integer' || t === 'number' ? num : t === 'boolean' ? bool : t === 'string' ? str : any);
  return Object.fromEntries(Object.keys(d.properties ?? {}).map((k) => [k, field(typeOf(k))]));
}

/**
 * The envelope: `result`, `error_code`, `data` (when the route sends one) and the fields beside it
 * (`pager`, `summary`, `user` …); nothing else. `required`: those of `data` and the fields beside it
 * every answer carries (a route declared field by field; the serialiser refuses an answer without them).
 */
export function ok(data?: Schema, extra: Record<string, Schema> = {}, required: string[] = []): Schema {
  return {
    type: 'object',
    required: ['result', 'error_code', ...required],
    additionalProperties: false,
    properties: {
      // true on success; a few checks answer their finding as result (GET /api/operators/info/)
      result: { type: 'boolean' },
      error_code: { type: 'integer' },
      ...(data ? { data } : {}),
      ...extra,
    },
  };
}

/** A section's answers: `'GET /api/things/': ok(…)`. */
export type AnswerTable = Record<string, Schema>;

/** The keys of every table given to registerAnswers, with the routes that used them (for tests). */
const used = new WeakMap<FastifyInstance, { keys: string[]; matched: Set<string> }>();

/**
 * Installs the hook that gives each route its declared answer; call before any route is registered
 * and before collectRoutes (whose hook must see the answer).
 */
export function registerAnswers(app: FastifyInstance, tables: AnswerTable[]): void {
  const all: AnswerTable = {};
  for (const t of tables) {
    for (const [key, schema] of Object.entries(t)) {
      if (all[key]) throw new Error(`answer declared twice: ${key}`);
      all[key] = schema;
    }
  }
  const record = { keys: Object.keys(all), matched: new Set<string>() };
  used.set(app, record);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    if ((schema.response as Record<string, unknown> | undefined)?.['200']) return;
    for (const method of methods) {
      const key = `${String(method).toUpperCase()} ${route.url}`;
      const answer = all[key];
      if (!answer) continue;
      record.matched.add(key);
      route.schema = { ...schema, response: { ...((schema.response as object) ?? {}), 200: answer } };
      return;
    }
  });
}

/** The table's keys that no registered route used (a renamed route leaves its answer behind). */
export function unusedAnswers(app: FastifyInstance): string[] {
  const r = used.get(app);
  return r ? r.keys.filter((k) => !r.matched.has(k)) : [];
}
