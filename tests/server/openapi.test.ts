/**
 * The OpenAPI document is generated from the app's own route table: every route registered on
 * the app is in it, every declared setting has its path with its schema, and /api/docs/ shows them.
 */
import { startTestServer, type TestServer } from './helpers';
import { routeTableOf, toOpenApiPath } from '../../src/server/openapi/collect';
import { toOpenApiSchema } from '../../src/server/openapi/document';

let s: TestServer;
let doc: any;
beforeAll(async () => {
  s = await startTestServer({ config: { smsOutboxApi: true } });
  const res = await s.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  doc = res.json();
});
afterAll(async () => {
  await s.close();
});

/** Every `$ref` in a value. */
function refs(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) v.forEach((x) => refs(x, out));
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string') out.push(x);
      else refs(x, out);
    }
  }
  return out;
}

/** Every schema keyword used in a value, at any depth: not the names under properties, not inside x- extensions. */
function keywords(v: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(v)) v.forEach((x) => keywords(x, out));
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k.startsWith('x-')) continue;
      out.add(k);
      if (k === 'properties' || k === 'patternProperties' || k === '$defs' || k === 'paths' || k === 'schemas') Object.values(x as object).forEach((y) => keywords(y, out));
      else keywords(x, out);
    }
  }
  return out;
}

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document with the envelope and the sid cookie scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('云控制台 API');
    expect(doc.components.securitySchemes.sid).toEqual(expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'sid' }));
    expect(doc.components.schemas.Success.properties).toEqual(expect.objectContaining({ result: { const: true }, error_code: { const: 0 } }));
    expect(doc.components.schemas.Failure.required).toEqual(['result', 'error_code', 'message']);
    expect(Object.keys(doc.components.schemas.Failure.properties)).toEqual(['result', 'error_code', 'message', 'errors']);
  });

  it('lists every route registered on the app (HEAD routes excluded), with its access', () => {
    const table = routeTableOf(s.app)!;
    expect(table).toBeDefined();
    const routes = table.filter((r) => r.method !== 'HEAD');
    // the table holds what the app really answers
    for (const r of routes) expect(s.app.hasRoute({ method: r.method as any, url: r.url })).toBe(true);
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(['POST /accounts/signin/', 'GET /api/settings/:id/', 'POST /api/settings/:id/', 'GET /api/dev/sms_outbox/', 'GET /api/schemas/gallery/', 'GET /api/openapi.json', 'GET /api/docs/']),
    );
    expect(table.some((r) => r.method === 'HEAD')).toBe(true);
    for (const r of routes) {
      const op = doc.paths[toOpenApiPath(r.url)]?.[r.method.toLowerCase()];
      expect({ route: `${r.method} ${r.url}`, found: Boolean(op) }).toEqual({ route: `${r.method} ${r.url}`, found: true });
      expect(op['x-access']).toBe(r.access);
      expect(op.security).toEqual(r.access === 'public' ? [] : [{ sid: [] }]);
      expect(op.responses['200']).toBeDefined();
    }
    for (const ops of Object.values<any>(doc.paths)) expect(Object.keys(ops)).not.toContain('head');
  });

  it('writes Fastify parameters the OpenAPI way and declares them', () => {
    expect(toOpenApiPath('/api/settings/:id/')).toBe('/api/settings/{id}/');
    expect(toOpenApiPath('/a/:x(^\\d+)/b/:y')).toBe('/a/{x}/b/{y}');
    expect(Object.keys(doc.paths).some((p) => p.includes(':'))).toBe(false);
    const get = doc.paths['/api/settings/{id}/'].get;
    expect(get.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'id', in: 'path', required: true, schema: expect.objectContaining({ enum: s.registry.list().map((d) => d.meta.id) }) }),
        expect.objectContaining({ name: 'bucket_name', in: 'query', required: true }),
      ]),
    );
  });

  it('has the envelope responses: 200 success, 400 refusal with errors, 401/403 by access', () => {
    const post = doc.paths['/api/settings/{id}/'].post;
    // the answer the route serialises with: the envelope with data, summary and its colour, nothing else
    expect(post.responses['200'].content['application/json'].schema).toEqual(
      expect.objectContaining({ type: 'object', additionalProperties: false, required: ['result', 'error_code', 'data', 'summary', 'summary_intent'], properties: expect.objectContaining({ data: {}, summary: expect.anything(), summary_intent: expect.anything() }) }),
    );
    expect(post.responses['400'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Failure' });
    expect(post.responses['401'].description).toContain('21110');
    const gallery = doc.paths['/api/schemas/gallery/'].get;
    expect(gallery['x-access']).toBe('parent');
    expect(gallery.responses['403'].description).toContain('21111');
    expect(gallery.responses['404'].description).toContain('21202');
    const signin = doc.paths['/accounts/signin/'].post;
    expect(signin['x-access']).toBe('public');
    expect(signin.responses['401']).toBeUndefined();
    expect(signin.requestBody.content['application/json'].schema.required).toEqual(['username', 'password']);
  });

  it('has one path per declaration with its schema merged with bucket_name', () => {
    const declarations = s.registry.list();
    expect(declarations.length).toBeGreaterThan(0);
    for (const d of declarations) {
      const path = doc.paths[`/api/settings/${d.meta.id}/`];
      expect(path).toBeDefined();
      expect(path.get['x-access']).toBe('user');
      expect(path.get.summary).toBe(`读取「${d.meta.title}」`);
      expect(path.get.parameters).toEqual([expect.objectContaining({ name: 'bucket_name', in: 'query', required: true })]);
      const data = path.get.responses['200'].content['application/json'].schema.properties.data;
      expect(data).toEqual({ $ref: `#/components/schemas/Setting_${d.meta.id}` });
      const body = path.post.requestBody.content['application/json'].schema;
      const schema = toOpenApiSchema(d.schema);
      expect(body.type).toBe('object');
      expect(body.required).toEqual(['bucket_name', ...((d.schema.required as string[]) ?? [])]);
      expect(body.properties.bucket_name).toEqual(expect.objectContaining({ type: 'string', minLength: 1 }));
      const { bucket_name: _b, ...rest } = body.properties;
      expect(rest).toEqual(schema.properties);
      expect(doc.components.schemas[`Setting_${d.meta.id}`]).toEqual({ ...schema, 'x-setting': d.meta.id });
    }
  });

  it('keeps no ajv-only keyword: errorMessage and the project keywords become x- extensions', () => {
    const all = keywords(doc);
    for (const k of ['errorMessage', 'notAllDigits', 'regexp', 'uniqueLines']) expect(all.has(k)).toBe(false);
    const url = doc.paths['/api/settings/error_pages/'].post.requestBody.content['application/json'].schema.properties.options.items.properties.url;
    expect(url['x-errorMessage'].pattern).toBe('请填写正确的 URI 地址，以 / 开头');
    expect(toOpenApiSchema({ type: 'string', notAllDigits: true, properties: { regexp: { type: 'string', regexp: true } }, errorMessage: 'x' })).toEqual({
      type: 'string',
      'x-notAllDigits': true,
      properties: { regexp: { type: 'string', 'x-regexp': true } },
      'x-errorMessage': 'x',
    });
  });

  it('resolves every $ref and gives every operation a unique operationId', () => {
    for (const r of refs(doc)) {
      const m = /^#\/components\/schemas\/(.+)$/.exec(r);
      expect(m && doc.components.schemas[m[1]] ? r : `unresolved ${r}`).toBe(r);
    }
    const ids = Object.values<any>(doc.paths).flatMap((ops) => Object.values<any>(ops).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is public', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
  });
});

describe('GET /api/docs/', () => {
  it('answers a plain HTML page in Chinese with every path, and nothing from elsewhere', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    const html = res.body;
    expect(html).toContain('<html lang="zh-CN">');
    expect(html).toContain('云控制台 API 参考');
    expect(html).toContain('/api/openapi.json');
    for (const path of Object.keys(doc.paths)) expect(html).toContain(`<code>${path}</code>`);
    for (const d of s.registry.list()) expect(html).toContain(`保存「${d.meta.title}」`);
    expect(html).toContain('请填写正确的 URI 地址，以 / 开头');
    expect(html).toContain('仅主账号');
    expect(html).not.toMatch(/<script|<link|src="http|href="http/);
  });
});
