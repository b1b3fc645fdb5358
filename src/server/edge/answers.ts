/**
 * The success answers of the edge routes (issue 23 item 2; src/server/http/answers.ts), written from
 * src/shared/edge.ts, edge-traffic.ts and purge.ts, which the edge agent (src/edge/) reads: every field
 * of those types is named and required as the control plane always sends it. The settings' values and
 * the rules' content are free (each has its own declaration); a certificate's private key is part of
 * the edge's configuration (the node terminates TLS), never of a console answer.
 */
import { SERVICE_KINDS } from '../../shared/services';
import { ok, type AnswerTable } from '../http/answers';

const int = { type: 'integer' };
const string = { type: 'string' };
const boolean = { type: 'boolean' };
const nullableInt = { type: ['integer', 'null'] };
const nullableString = { type: ['string', 'null'] };
/** An object of exactly these fields, all required. */
const exact = (properties: Record<string, object>, optional: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  properties,
});

const edgeService = exact({
  id: int,
  name: string,
  kind: { type: 'string', enum: [...SERVICE_KINDS] },
  status: string,
  version: int,
  paused: boolean,
  domains: { type: 'array', items: exact({ name: string, https: boolean, force_https: boolean, certificate_id: nullableInt }) },
  certificates: { type: 'array', items: exact({ id: int, fingerprint: string, certificate: string, private_key: string }) },
  settings: { type: 'object', additionalProperties: {} },
  setting_versions: { type: 'object', additionalProperties: int },
  rules: {
    type: 'array',
    items: exact({
      id: int,
      type: { type: 'string', enum: ['general', 'custom'] },
      priority: int,
      break: boolean,
      status: { type: 'string', enum: ['ON', 'OFF', 'DEBUG'] },
      ip: nullableString,
      content: {},
      pattern: nullableString,
      rule: nullableString,
    }),
  },
});

export const edgeAnswers: AnswerTable = {
  // EdgeConfigAnswer
  'GET /edge/v1/config': ok(exact({ version: int, changed: boolean, services: { type: 'array', items: edgeService }, ids: { type: 'array', items: int }, storage_base: string, next: int }, ['next']), {}, ['data']),
  'POST /edge/v1/report': ok(),
  // EdgeTrafficAnswer
  'POST /edge/v1/traffic': ok(exact({ counted: boolean, dropped: int }), {}, ['data']),
  // EdgePurgeTask[]: the service's settings are the cache-key ones (schemas/edge-cache-key.ts), free values
  'GET /edge/v1/purge': ok(
    exact({
      tasks: {
        type: 'array',
        items: exact({
          id: int,
          kind: string,
          target: string,
          host: string,
          service: { type: ['object', 'null'], additionalProperties: false, required: ['id', 'paused', 'settings'], properties: { id: int, paused: boolean, settings: { type: 'object', additionalProperties: {} } } },
        }),
      },
    }),
    {},
    ['data'],
  ),
  // a migrated object stored (src/shared/files.ts FileEntry)
  'PUT /edge/v1/files/:bucket_name/*': ok(
    exact({ id: int, path: string, name: string, type: { type: 'string', enum: ['folder', 'file'] }, size: { type: 'number' }, content_type: nullableString, updated_at: string }),
    {},
    ['data'],
  ),
  'POST /edge/v1/purge/report': ok(exact({ settled: int }), {}, ['data']),
  // EdgeStatus (the console's service page; src/console/api/openapi-check.ts checks it)
  'GET /api/buckets/edge/': ok(
    exact({
      enabled: boolean,
      node: nullableString,
      version: int,
      applied_version: nullableInt,
      applied_at: nullableString,
      state: { type: ['string', 'null'], enum: ['applied', 'pending', 'refused', null] },
      message: nullableString,
      notes: { type: 'object', additionalProperties: string },
      settings: { type: 'object', additionalProperties: exact({ state: { type: 'string', enum: ['applied', 'pending', 'failed'] }, message: string }, ['message']) },
    }),
    {},
    ['data'],
  ),
};
