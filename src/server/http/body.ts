/**
 * The JSON body parser (issue 34 items 1 and 3). Fastify's own parser, after one linear pass over the text
 * that counts how deep arrays and objects nest: JSON deeper than MAX_JSON_DEPTH is refused with 400 and
 * 20001 (TOO_DEEP_MESSAGE at `/`) before it becomes a value, so no check that walks the value (the NUL
 * rule, ajv, a handler's own) meets 5,000 levels. The size is bounded before that: JSON_BODY_LIMIT, or the
 * route's own `bodyLimit` (app.ts).
 */
import type { FastifyInstance } from 'fastify';
import { MAX_JSON_DEPTH, TOO_DEEP_MESSAGE } from '../../shared/limits';
import { ApiError, VALIDATION_ERROR } from './errors';

/** How deep arrays and objects nest in a JSON text, counting only until `limit` is passed. */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (jsonDepth(text) > MAX_JSON_DEPTH) return done(new ApiError(VALIDATION_ERROR, 400, [{ path: '/', message: TOO_DEEP_MESSAGE }]), undefined);
    parse(req, text, done);
  });
}
