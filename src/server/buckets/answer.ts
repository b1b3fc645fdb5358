/**
 * The answers of the service routes (issue 23): a service as src/shared/buckets.ts BucketInfo describes
 * it, the schema Fastify serialises the lists and the info with (nothing else of a bucket row is sent).
 */
import { SERVICE_KINDS } from '../../shared/services';
import { cursorPagerSchema, okResponse } from '../http/envelope';

const bool = { type: 'boolean' };

/** BucketInfo (src/shared/buckets.ts); `more` adds fields of one route (storage_class of /api/buckets/v2/). */
export function bucketInfoSchema(more: Record<string, object> = {}): Record<string, unknown> {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['bucket_id', 'bucket_name', 'kind', 'type', 'business_type', 'fusion_cdn', 'websocket', 'abroad', 'security_cdn', 'remark', 'status', 'storage', 'created_at', ...Object.keys(more)],
    properties: {
      bucket_id: { type: 'integer' },
      bucket_name: { type: 'string' },
      kind: { type: 'string', enum: [...SERVICE_KINDS] },
      type: { type: 'string', enum: ['file', 'image', 'ucdn', 'cdn'] },
      business_type: { type: 'string', enum: ['file', 'live'] },
      fusion_cdn: bool,
      websocket: bool,
      abroad: bool,
      security_cdn: bool,
      remark: { type: ['string', 'null'] },
      status: { type: 'string' },
      storage: { type: 'object', additionalProperties: false, required: ['used'], properties: { used: { type: 'number' } } },
      domains: {
        type: 'array',
        items: { type: 'object', additionalProperties: false, required: ['domain', 'cname'], properties: { domain: { type: 'string' }, cname: { type: 'string' } } },
      },
      created_at: { type: 'string', format: 'date-time' },
      ...more,
    },
  };
}

/** GET /api/buckets/: one page of services and the cursor pager. */
export const bucketListAnswer = okResponse({ type: 'array', items: bucketInfoSchema() }, { pager: cursorPagerSchema }, ['pager']);
/** GET /api/buckets/v2/: a page-numbered list for selectors. */
export const bucketListV2Answer = okResponse({
  type: 'object',
  additionalProperties: false,
  required: ['buckets', 'pager'],
  properties: {
    buckets: { type: 'array', items: bucketInfoSchema({ storage_class: { type: 'string', enum: ['standard'] } }) },
    pager: { type: 'object', additionalProperties: false, required: ['total', 'page', 'pages'], properties: { total: { type: 'integer' }, page: { type: 'integer' }, pages: { type: 'integer' } } },
  },
});
/** GET /api/buckets/summary/: the number of services of each kind. */
export const bucketSummaryAnswer = okResponse({
  type: 'object',
  additionalProperties: false,
  required: [...SERVICE_KINDS],
  properties: Object.fromEntries(SERVICE_KINDS.map((k) => [k, { type: 'integer' }])),
});
/** GET /api/buckets/info/: one service with its domains. */
export const bucketInfoAnswer = okResponse(bucketInfoSchema());
