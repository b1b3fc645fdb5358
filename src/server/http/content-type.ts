/**
 * Which request bodies a route takes (issue 21 item 6). A body is JSON, sent as `application/json`
 * (any charset parameter); a route that takes something else says so in `config.accepts`:
 * `multipart` for uploads (files, pictures, attachments, real-name photos), `form` for the sandbox
 * payment page's HTML form, `binary` for the edge's migrated objects. Any other Content-Type is
 * refused with 415 and 20001 before anything is parsed, so a text/plain or form-encoded body that
 * looks like JSON is never read as JSON, and multipart reaches only the upload routes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, VALIDATION_ERROR } from './errors';

export type BodyKind = 'multipart' | 'form' | 'binary';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Bodies this route takes besides JSON (default: JSON only). */
    accepts?: BodyKind;
  }
}

const MEDIA_TYPES: Record<BodyKind, string> = {
  multipart: 'multipart/form-data',
  form: 'application/x-www-form-urlencoded',
  binary: '*',
};

/** Whether the request carries a body at all (a length above zero, or a chunked one). */
function hasBody(req: FastifyRequest): boolean {
  const len = req.headers['content-length'];
  if (len !== undefined) return Number(len) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/** The media type of a Content-Type header, lower case, without parameters ('' when absent). */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

/** Whether a route declaring `accepts` takes a body of this Content-Type. */
export function acceptsBody(accepts: BodyKind | undefined, contentType: string | undefined): boolean {
  const type = mediaType(contentType);
  // JSON reaches every route: an upload route refuses it with its own 请选择要上传的… message
  if (type === 'application/json') return true;
  if (!accepts) return false;
  return MEDIA_TYPES[accepts] === '*' || MEDIA_TYPES[accepts] === type;
}

export function registerContentTypeCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (req) => {
    if (!hasBody(req)) return;
    const accepts = req.routeOptions.config?.accepts;
    if (!acceptsBody(accepts, req.headers['content-type'])) throw new ApiError(VALIDATION_ERROR, 415);
  });
}
