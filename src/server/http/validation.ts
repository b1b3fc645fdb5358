/**
 * Route schemas are compiled by the project's ajv (same vocabulary and Chinese messages as the
 * console); a refused payload gets HTTP 400 with the field errors and nothing runs.
 */
import type { FastifyInstance } from 'fastify';
import { createAjv } from '../../../schemas/vocabulary';

export function registerValidation(app: FastifyInstance): void {
  const bodyAjv = createAjv({ coerceTypes: false, removeAdditional: false });
  const queryAjv = createAjv({ coerceTypes: 'array', useDefaults: true });
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? bodyAjv : queryAjv;
    return ajv.compile(schema) as any;
  });
}
