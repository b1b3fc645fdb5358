/**
 * The OpenAPI 3.1 document of the server, generated from its own route table (./collect.ts) and the
 * setting registry: nothing here lists the routes by hand, so a new route or a new settings folder
 * shows up by itself.
 *
 *  - `:param` becomes `{param}`; query parameters and request bodies are the schemas Fastify
 *    validates with;
 *  - the two generic settings routes (GET/POST /api/settings/:id/) are also expanded into one path
 *    per declaration, `/api/settings/<id>/`, whose POST body is the declaration's schema.json with
 *    bucket_name added;
 *  - keywords OpenAPI does not know are kept as extensions: `errorMessage` (the Chinese messages)
 *    becomes `x-errorMessage`, the project's `notAllDigits`, `regexp`, `uniqueLines` become
 *    `x-notAllDigits`, `x-regexp`, `x-uniqueLines`;
 *  - every operation has the envelope responses and an `x-access` extension (public, user, parent);
 *    user and parent operations need the `sid` session cookie.
 */
import type { SettingRegistry } from '../../../schemas/registry';
import type { Declaration, JsonSchema } from '../../../schemas/types';
import { PROJECT_KEYWORDS } from '../../../schemas/vocabulary';
import fs from 'node:fs';
import path from 'node:path';
import { ERROR_TEXTS, errorText } from '../../shared/errors';
import { VALIDATION_ERROR as VALIDATION_ERROR_CODE } from '../http/errors';
import { SESSION_COOKIE } from '../accounts/session';
import { documentedRoutes, pathParams, toOpenApiPath, type CollectedRoute, type RouteDoc } from './collect';
import { KINDS, TAB_LABELS } from '../../shared/services';
import { PARAM_NOTES, ROUTE_NOTES, tagOf, TAGS } from './notes';
import { SECTION_NOTES } from './section-notes';
import { settingReadAnswer, settingWriteAnswer } from '../settings/answer';

/** The generic route of every declared setting (src/server/settings/routes.ts). */
export const SETTINGS_ROUTE = '/api/settings/:id/';

export type OpenApiDocument = Record<string, any> & { paths: Record<string, Record<string, any>> };

export const ACCESS_TEXT: Record<string, string> = {
  public: '公开（无需登录）',
  user: '已登录用户（主账号与子账号）',
  parent: '仅主账号',
};

/** Schema positions whose value is one schema. */
const SUB_SCHEMA = new Set(['items', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'additionalItems', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'contentSchema']);
/** Schema positions whose value is a list of schemas. */
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Schema positions whose value maps names to schemas. */
const SCHEMA_MAP = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords of the project's ajv and RJSF's enumNames, which are not JSON Schema: kept as x- extensions. */
const RENAMED: Record<string, string> = Object.fromEntries(
  ['errorMessage', 'enumNames', ...PROJECT_KEYWORDS].filter((k) => !k.startsWith('x-')).map((k) => [k, `x-${k}`]),
);

/** A copy of a JSON Schema that OpenAPI 3.1 accepts: ajv-only keywords renamed to x- extensions. */
export function toOpenApiSchema(schema: unknown): any {
  if (Array.isArray(schema)) return schema.map(toOpenApiSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (key === '$data') continue;
    if (RENAMED[key]) out[RENAMED[key]] = value;
    else if (SUB_SCHEMA.has(key)) out[key] = typeof value === 'object' ? toOpenApiSchema(value) : value;
    else if (SCHEMA_LIST.has(key) && Array.isArray(value)) out[key] = value.map(toOpenApiSchema);
    else if (SCHEMA_MAP.has(key) && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, toOpenApiSchema(v)]));
    } else if (key === 'items' && Array.isArray(value)) out[key] = value.map(toOpenApiSchema);
    else out[key] = value;
  }
  return out;
}

/** A setting's schema with bucket_name added: the body of POST /api/settings/<id>/. */
export function settingBodySchema(d: Declaration, bucketNameSchema: JsonSchema): any {
  const schema = toOpenApiSchema(d.schema);
  return {
    ...schema,
    required: ['bucket_name', ...((schema.required as string[] | undefined) ?? []).filter((r) => r !== 'bucket_name')],
    properties: { bucket_name: { title: '服务名称', ...toOpenApiSchema(bucketNameSchema) }, ...(schema.properties ?? {}) },
  };
}

function json(schema: unknown) {
  return { 'application/json': { schema } };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function failure(description: string) {
  return { description, content: json(ref('Failure')) };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The refusals of an operation by HTTP status: the error codes, and texts that say more. */
type Refusals = Map<number, { codes: number[]; notes: string[] }>;

function addRefusal(out: Refusals, status: number, codes: number[], note?: string) {
  const entry = out.get(status) ?? { codes: [], notes: [] };
  for (const c of codes) if (!entry.codes.includes(c)) entry.codes.push(c);
  if (note && !entry.notes.includes(note)) entry.notes.push(note);
  out.set(status, entry);
}

/**
 * What a route can refuse: what its declaration implies (its schemas and JSON body → 20001, its access
 * level and needs → 21110, 21104, 41014, 21111, a write from another site → 21112, its bucket_name →
 * 21905), then what the route says (config.openapi.errors, whose texts name their codes) and the
 * section notes (./section-notes.ts).
 */
function refusalsOf(route: CollectedRoute, codes: Record<number, number[]> = {}, texts: Record<number, string> = {}): Refusals {
  const out: Refusals = new Map();
  if (route.querystring || route.params || route.body || !SAFE_METHODS.has(route.method)) addRefusal(out, 400, [VALIDATION_ERROR_CODE]);
  if (route.access && route.access !== 'public') {
    addRefusal(out, 401, [21110]);
    addRefusal(out, 403, [21104, 41014]);
    if (route.needs?.length) addRefusal(out, 403, [21111]);
  }
  if (!SAFE_METHODS.has(route.method)) addRefusal(out, 403, [21112]);
  if (route.bucket) addRefusal(out, 404, [21905]);
  for (const [status, list] of Object.entries(codes)) addRefusal(out, Number(status), list);
  for (const [status, text] of Object.entries(texts)) {
    const named = [...text.matchAll(/\b([1-4]\d{4})\b/g)].map((m) => Number(m[1])).filter((c) => ERROR_TEXTS[c] !== undefined);
    addRefusal(out, Number(status), named, text);
  }
  return out;
}

function refusalResponse(status: number, r: { codes: number[]; notes: string[] }) {
  const lead = status === 400 && r.codes.includes(VALIDATION_ERROR_CODE) ? '数据不符合要求时为 20001，errors 列出各字段的中文错误信息。' : '';
  const notes = r.notes.length ? `${r.notes.join('；')}。` : '';
  const codes = r.codes.length ? `错误码：${r.codes.map((c) => `${c}（${errorText(c)}）`).join('；')}` : '';
  return { description: `${lead}${notes}${codes}` || '请求被拒绝', 'x-error-codes': r.codes, content: json(ref('Failure')) };
}

/** The responses of an operation: success, then every refusal it can give with its error codes. */
function responses(route: CollectedRoute, success: unknown, codes: Record<number, number[]> = {}, texts: Record<number, string> = {}) {
  const out: Record<string, unknown> = { '200': { description: '成功（result 为 true，error_code 为 0）', content: json(success) } };
  const refusals = refusalsOf(route, codes, texts);
  for (const status of [...refusals.keys()].sort((a, b) => a - b)) out[String(status)] = refusalResponse(status, refusals.get(status)!);
  return out;
}

/**
 * A route answering something other than the envelope (a document, a download): its own 200, and the
 * envelope refusals when it can refuse (signed-in routes, parameters, declared errors).
 */
function rawResponses(route: CollectedRoute, raw: NonNullable<RouteDoc['raw']>, codes: Record<number, number[]>, texts: Record<number, string>) {
  const ok = { description: raw.description, content: { [raw.contentType]: { schema: raw.contentType.includes('json') ? { type: 'object' } : { type: 'string' } } } };
  return { ...responses(route, ref('Success'), codes, texts), '200': ok };
}

function describe(name: string, s: JsonSchema): { description?: string } {
  const text = typeof s.description === 'string' ? s.description : typeof s.title === 'string' ? s.title : PARAM_NOTES[name];
  return text ? { description: text } : {};
}

function queryParameters(schema: JsonSchema | undefined) {
  if (!schema) return [];
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: 'query',
    required: required.has(name),
    ...describe(name, s),
    schema: toOpenApiSchema(s),
  }));
}

function pathParameters(route: CollectedRoute, override: Record<string, JsonSchema> = {}) {
  const props = (route.params?.properties ?? {}) as Record<string, JsonSchema>;
  return pathParams(route.url).map((name) => {
    const schema = override[name] ?? props[name] ?? { type: 'string' };
    return { name, in: 'path', required: true, ...describe(name, schema), schema: toOpenApiSchema(schema) };
  });
}

function operationId(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

function noteOf(route: CollectedRoute): { summary?: string; description?: string; errors?: Record<number, number[]> } | undefined {
  const key = `${route.method} ${route.url}`;
  return ROUTE_NOTES[key] ?? SECTION_NOTES[key];
}

function baseOperation(route: CollectedRoute, path: string) {
  const note = noteOf(route);
  const summary = route.doc?.summary ?? route.summary ?? note?.summary;
  const description = route.doc?.description ?? route.description ?? note?.description;
  return {
    operationId: operationId(route.method, path),
    tags: [tagOf(route.url)],
    ...(summary ? { summary } : {}),
    ...(description ? { description } : {}),
    'x-access': route.access ?? 'public',
    ...(route.needs?.length ? { 'x-needs': route.needs } : {}),
    ...(route.bucket ? { 'x-bucket': route.bucket } : {}),
    security: route.access && route.access !== 'public' ? [{ sid: [] }] : [],
  };
}

/** One operation of a collected route, as registered. */
function routeOperation(route: CollectedRoute, ids: string[]) {
  const path = toOpenApiPath(route.url);
  const isSettings = route.url === SETTINGS_ROUTE;
  const parameters = [
    ...pathParameters(route, isSettings ? { id: { type: 'string', enum: ids, description: '设置 ID（schemas/settings/<id>/）' } } : {}),
    ...queryParameters(route.querystring),
  ];
  const codes: Record<number, number[]> = { ...noteOf(route)?.errors };
  if (isSettings) Object.assign(codes, route.method === 'GET' ? SETTING_READ_REFUSALS : SETTING_WRITE_REFUSALS);
  const texts: Record<number, string> = { ...route.doc?.errors };
  return {
    ...baseOperation(route, path),
    ...(parameters.length ? { parameters } : {}),
    ...(route.body ? { requestBody: { required: true, content: json(toOpenApiSchema(route.body)) } } : {}),
    responses: route.doc?.raw
      ? rawResponses(route, route.doc.raw, codes, texts)
      : responses(route, route.response ? toOpenApiSchema(route.response) : ref('Success'), codes, texts),
  };
}

/** What the settings routes refuse (src/server/settings/routes.ts; 23802 src/server/live/routes.ts). */
const SETTING_READ_REFUSALS: Record<number, number[]> = { 400: [21201], 404: [21202] };
const SETTING_WRITE_REFUSALS: Record<number, number[]> = { 400: [21201, 21207], 403: [21210, 23802], 404: [21202] };

/** The error codes a declaration's rules.ts can refuse with (`code: 21205`), read from its folder. */
function ruleCodes(d: Declaration): number[] {
  const file = d.dir ? path.join(d.dir, 'rules.ts') : undefined;
  if (!file || !fs.existsSync(file)) return [];
  return [...new Set([...fs.readFileSync(file, 'utf8').matchAll(/\bcode:\s*(\d{5})\b/g)].map((m) => Number(m[1])))].filter((c) => ERROR_TEXTS[c] !== undefined);
}

/** GET and POST of one declared setting: `/api/settings/<id>/`. */
function settingOperations(d: Declaration, get: CollectedRoute | undefined, post: CollectedRoute | undefined) {
  const { id, title } = d.meta;
  const valueRef = ref(settingComponent(id));
  const labels = [...new Set(d.meta.summary.map((s) => s.label))];
  // the answers the routes serialise with (src/server/settings/answer.ts), data being the declaration's schema
  const withLabels = (answer: any) => ({ ...answer, properties: { ...answer.properties, summary: { ...answer.properties.summary, examples: labels } } });
  const readAnswer = withLabels(settingReadAnswer(valueRef));
  const writeAnswer = withLabels(settingWriteAnswer(valueRef));
  const path = `/api/settings/${id}/`;
  const kinds = `适用的服务类型：${d.meta.kinds.map((k) => KINDS[k]?.title ?? k).join('、')}；标签页：${TAB_LABELS[d.meta.tab] ?? d.meta.tab}。`;
  const writeRefusals = { ...SETTING_WRITE_REFUSALS, 400: [...SETTING_WRITE_REFUSALS[400], ...ruleCodes(d)] };
  const ops: Record<string, unknown> = {};
  if (get) {
    ops.get = {
      ...baseOperation(get, path),
      operationId: `getSetting_${id}`,
      summary: `读取「${title}」`,
      description: `读取一个服务的「${title}」配置；从未保存时为模式的默认值。${kinds}`,
      parameters: queryParameters(get.querystring),
      responses: responses(get, readAnswer, SETTING_READ_REFUSALS),
      'x-setting': id,
    };
  }
  if (post) {
    const bucketName = ((post.body?.properties as Record<string, JsonSchema> | undefined)?.bucket_name ?? { type: 'string', minLength: 1 }) as JsonSchema;
    ops.post = {
      ...baseOperation(post, path),
      operationId: `saveSetting_${id}`,
      summary: `保存「${title}」`,
      description: `校验并保存一个服务的「${title}」配置（模式、规范化与跨设置规则，与控制台相同的中文错误信息）。${kinds}`,
      requestBody: { required: true, content: json(settingBodySchema(d, bucketName)) },
      responses: responses(post, writeAnswer, writeRefusals),
      'x-setting': id,
    };
  }
  return ops;
}

export function settingComponent(id: string): string {
  return `Setting_${id}`;
}

export interface DocumentOptions {
  title?: string;
  version?: string;
}

export function buildOpenApi(table: readonly CollectedRoute[], registry: SettingRegistry, opts: DocumentOptions = {}): OpenApiDocument {
  const routes = documentedRoutes(table);
  const declarations = registry.list();
  const ids = declarations.map((d) => d.meta.id);
  const paths: Record<string, Record<string, any>> = {};
  for (const route of routes) {
    const path = toOpenApiPath(route.url);
    const op = routeOperation(route, ids);
    // a path the specs name both with and without its trailing slash: the second spelling gets an id of its own
    if (!path.endsWith('/') && routes.some((r) => r.method === route.method && toOpenApiPath(r.url) === `${path}/`)) op.operationId += 'NoSlash';
    (paths[path] ??= {})[route.method.toLowerCase()] = op;
  }
  const getSetting = routes.find((r) => r.method === 'GET' && r.url === SETTINGS_ROUTE);
  const postSetting = routes.find((r) => r.method === 'POST' && r.url === SETTINGS_ROUTE);
  if (getSetting || postSetting) {
    for (const d of declarations) paths[`/api/settings/${d.meta.id}/`] = settingOperations(d, getSetting, postSetting);
  }
  const sortedPaths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  // paths that differ only by a trailing slash would share an operation id: the later one gets a suffix
  const seenIds = new Set<string>();
  for (const ops of Object.values(sortedPaths)) {
    for (const op of Object.values(ops)) {
      let id = op.operationId as string;
      for (let n = 2; seenIds.has(id); n++) id = `${op.operationId}_${n}`;
      seenIds.add((op.operationId = id));
    }
  }
  const usedTags = new Set(Object.values(sortedPaths).flatMap((ops) => Object.values(ops).flatMap((o: any) => o.tags ?? [])));

  return {
    openapi: '3.1.0',
    info: {
      title: opts.title ?? '云控制台 API',
      version: opts.version ?? '0.1.0',
      description:
        '由服务端的路由表与设置声明自动生成。所有响应使用统一的信封：成功时 {result: true, error_code: 0, data}，失败时 {result: false, error_code, message, errors?}，message 为中文提示。x-access 标明调用权限：public 公开、user 已登录用户、parent 仅主账号；x-needs 列出子账号须持有的权限（parent_only 表示仅主账号，其余权限持有其一即可）；x-bucket 表示须能访问 bucket_name 指定的服务（query 或 body）。',
    },
    servers: [{ url: '/' }],
    tags: TAGS.filter((t) => usedTags.has(t.name)).map(({ name, description }) => ({ name, description })),
    paths: sortedPaths,
    components: {
      securitySchemes: {
        sid: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: '登录（POST /accounts/signin/）后服务端设置的会话 Cookie（HttpOnly，SameSite）' },
      },
      schemas: {
        Success: {
          type: 'object',
          description: '成功的响应',
          required: ['result', 'error_code'],
          properties: {
            result: { const: true },
            error_code: { const: 0 },
            data: { description: '返回的数据（因接口而异）' },
          },
        },
        Failure: {
          type: 'object',
          description: '失败的响应',
          required: ['result', 'error_code', 'message'],
          properties: {
            result: { const: false },
            error_code: { type: 'integer', description: '错误码（见 src/shared/errors.ts 的错误码表）' },
            message: { type: 'string', description: '错误码对应的中文提示' },
            errors: { type: 'array', description: '各字段的错误（数据不符合要求时）', items: ref('FieldError') },
          },
        },
        FieldError: {
          type: 'object',
          required: ['path', 'message'],
          properties: {
            path: { type: 'string', description: '字段的 JSON Pointer，如 /options/0/url；空字符串表示整个值' },
            message: { type: 'string', description: '中文错误信息' },
          },
        },
        ...Object.fromEntries(declarations.map((d) => [settingComponent(d.meta.id), { ...toOpenApiSchema(d.schema), 'x-setting': d.meta.id }])),
      },
    },
  };
}
