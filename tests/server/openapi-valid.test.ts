/**
 * The served OpenAPI document as API clients' tools see it (issue 23): @apidevtools/swagger-parser
 * validates it as OpenAPI 3.1, Redocly's recommended rules find no error (trailing slashes allowed:
 * spec 000 writes its paths with them), every operation has a Chinese summary and lists its refusals
 * with error codes of the catalogue, and no key of the project's own is left outside `x-` extensions.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { ERROR_TEXTS } from '../../src/shared/errors';
import { startTestServer, type TestServer } from './helpers';

let s: TestServer;
let text: string;
let doc: any;
beforeAll(async () => {
  s = await startTestServer({ seed: false, config: { smsOutboxApi: true } });
  const res = await s.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  text = res.body;
  doc = JSON.parse(text);
});
afterAll(async () => {
  await s.close();
});

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];
function operations(): { key: string; op: any }[] {
  return Object.entries<any>(doc.paths).flatMap(([p, item]) =>
    Object.entries<any>(item)
      .filter(([m]) => METHODS.includes(m))
      .map(([m, op]) => ({ key: `${m.toUpperCase()} ${p}`, op })),
  );
}

/** Keys used as keywords anywhere in a value: not the names under properties and the like, not inside x- extensions. */
function keys(v: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(v)) v.forEach((x) => keys(x, out));
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k.startsWith('x-')) continue;
      out.add(k);
      if (['properties', 'patternProperties', '$defs', 'paths', 'schemas', 'responses', 'securitySchemes'].includes(k)) Object.values(x as object).forEach((y) => keys(y, out));
      else keys(x, out);
    }
  }
  return out;
}

describe('the OpenAPI document as clients see it', () => {
  it('validates as OpenAPI 3.1 with @apidevtools/swagger-parser', async () => {
    // validate() dereferences in place: give it its own copy
    await expect(SwaggerParser.validate(JSON.parse(text))).resolves.toBeDefined();
  });

  it('has no error under Redocly’s recommended rules (trailing slashes allowed)', async () => {
    const config = await createConfig({ extends: ['recommended'], rules: { 'no-path-trailing-slash': 'off' } } as any);
    const problems = await lintFromString({ source: text, absoluteRef: 'openapi.json', config });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${p.message} ${p.location[0]?.pointer ?? ''}`);
    expect(errors).toEqual([]);
  });

  it('keeps the project’s own keys out of the standard ones: tag prefixes, RJSF enumNames', () => {
    for (const tag of doc.tags) expect(Object.keys(tag).filter((k) => !k.startsWith('x-'))).toEqual(expect.arrayContaining(['name']));
    for (const tag of doc.tags) expect(tag).not.toHaveProperty('prefixes');
    const used = keys(doc);
    expect(used.has('enumNames')).toBe(false);
    expect(used.has('errorMessage')).toBe(false);
    // the Chinese labels stay, as an extension
    expect(text).toContain('"x-enumNames"');
  });

  it('gives every operation a Chinese summary and a unique operation id', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(300);
    const missing = ops.filter(({ op }) => typeof op.summary !== 'string' || !/[\u4e00-\u9fff]/.test(op.summary)).map((o) => o.key);
    expect(missing).toEqual([]);
    const ids = ops.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('lists every refusal with error codes of the catalogue, named in its description', () => {
    const unlisted: string[] = [];
    const ops = operations();
    for (const { key, op } of ops) {
      const refusals = Object.entries<any>(op.responses).filter(([status]) => Number(status) >= 400);
      for (const [status, r] of refusals) {
        const codes: number[] = r['x-error-codes'];
        expect({ key, status, codes: Array.isArray(codes) && codes.length > 0 }).toEqual({ key, status, codes: true });
        for (const c of codes) {
          expect({ key, code: c, known: ERROR_TEXTS[c] !== undefined }).toEqual({ key, code: c, known: true });
          expect(r.description).toContain(`${c}（${ERROR_TEXTS[c]}）`);
        }
      }
      if (!refusals.length) unlisted.push(key);
    }
    // only public reads without parameters cannot be refused
    for (const key of unlisted) {
      const op = ops.find((o) => o.key === key)!.op;
      expect({ key, access: op['x-access'], parameters: (op.parameters ?? []).filter((p: any) => p.in !== 'path').length }).toEqual({ key, access: 'public', parameters: 0 });
    }
  });

  it('derives the refusals of an operation from its declaration and its section', () => {
    const codesOf = (p: string, m: string, status: number) => doc.paths[p][m].responses[String(status)]?.['x-error-codes'] ?? [];
    // signed-in, with a body and a bucket: validation, sign-in, frozen or disabled, cross-site, the service
    expect(codesOf('/api/account/domains/', 'post', 400)).toEqual(expect.arrayContaining([20001, 21240]));
    expect(codesOf('/api/account/domains/', 'post', 401)).toEqual([21110]);
    expect(codesOf('/api/account/domains/', 'post', 403)).toEqual(expect.arrayContaining([21104, 41014, 21112]));
    expect(codesOf('/api/account/domains/', 'post', 404)).toEqual([21905]);
    expect(codesOf('/api/account/domains/', 'post', 409)).toEqual(expect.arrayContaining([21215]));
    // a setting's write: its rules.ts codes, the lock, the live suspension
    expect(codesOf('/api/settings/http3/', 'post', 400)).toEqual(expect.arrayContaining([20001, 21201, 21207, 21205]));
    expect(codesOf('/api/settings/http3/', 'post', 403)).toEqual(expect.arrayContaining([21210, 23802]));
    expect(codesOf('/api/settings/http3/', 'get', 404)).toEqual(expect.arrayContaining([21202, 21905]));
    // a route with needs refuses a sub-account without them
    expect(codesOf('/api/purge/', 'post', 403)).toEqual(expect.arrayContaining([21111]));
  });
});
