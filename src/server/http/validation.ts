/**
 * Route schemas are compiled by the project's ajv (same vocabulary and Chinese messages as the
 * console); a refused payload gets HTTP 400 with the field errors and nothing runs.
 *
 * On top of every schema, one rule reads every string of the body, the query string and the path
 * parameters, property names included, of every route (with or without a schema): a NUL character or
 * a lone surrogate is refused with 400 and 20001 at its field (`findUnsafeText`, schemas/vocabulary.ts),
 * so no such text reaches a handler or a database column.
 *
 * Every integer and number of those schemas is bounded by what its column holds: an onRoute hook, run
 * before the route table is collected for the OpenAPI document, gives each one without its own bounds
 * the `integer` column's, with a Chinese message (`boundNumbers`, schemas/bounds.ts).
 */
import type { FastifyInstance } from 'fastify';
import { boundNumbers } from '../../../schemas/bounds';
import { createAjv, createFirstErrorAjv, findUnsafeText, UNSAFE_TEXT_MESSAGE } from '../../../schemas/vocabulary';
import { boundedValidator } from '../../../schemas/bounded';
import { ApiError, VALIDATION_ERROR } from './errors';

export function registerValidation(app: FastifyInstance): void {
  const bodyOptions = { coerceTypes: false, removeAdditional: false } as const;
  const queryOptions = { coerceTypes: 'array', useDefaults: true } as const;
  const bodyAjv = { quick: createFirstErrorAjv(bodyOptions), full: createAjv(bodyOptions) };
  const queryAjv = { quick: createFirstErrorAjv(queryOptions), full: createAjv(queryOptions) };
  // a first-error pass, and the Chinese messages only for a refusal, on a cut copy: linear in the body (schemas/bounded.ts)
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? bodyAjv : queryAjv;
    return boundedValidator(ajv.quick, ajv.full, schema) as any;
  });
  app.addHook('onRoute', (route) => {
    if (!route.schema) return;
    const schema = { ...(route.schema as Record<string, unknown>) };
    for (const part of ['body', 'querystring', 'query', 'params']) if (schema[part]) schema[part] = boundNumbers(schema[part]);
    route.schema = schema;
  });
  app.addHook('preValidation', async (req) => {
    for (const part of [req.params, req.query, req.body]) {
      const at = findUnsafeText(part);
      if (at !== null) throw new ApiError(VALIDATION_ERROR, 400, [{ path: at, message: UNSAFE_TEXT_MESSAGE }]);
    }
  });
}
