/**
 * GET /api/schemas/gallery/: every declaration with meta, schema, ui and fixtures, for main
 * accounts; refused without a session; 404/21202 when the gallery is off (SCHEMA_GALLERY=0).
 */
import path from 'node:path';
import { startTestServer, Client, type TestServer } from './helpers';
import { configFromEnv } from '../../src/server/config';

describe('schema gallery (on)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s.close();
  });

  it('lists every declaration with meta, schema, ui and fixtures for demo', async () => {
    const c = await new Client(s.app).signIn('demo');
    const res = await c.get('/api/schemas/gallery/');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.result).toBe(true);
    expect(body.error_code).toBe(0);
    const declarations = s.registry.list();
    expect(body.data.map((e: any) => e.id)).toEqual(declarations.map((d) => d.meta.id));
    for (const d of declarations) {
      const e = body.data.find((x: any) => x.id === d.meta.id);
      expect(e.meta).toEqual(d.meta);
      expect(e.schema).toEqual(d.schema);
      expect(e.ui).toEqual(d.ui);
      expect(e.fixtures.valid.map((f: any) => f.file)).toEqual(d.fixtures!.valid.map((f) => path.basename(f.file)));
      expect(e.fixtures.invalid.map((f: any) => f.file)).toEqual(d.fixtures!.invalid.map((f) => path.basename(f.file)));
      for (const [i, f] of d.fixtures!.invalid.entries()) {
        expect(e.fixtures.invalid[i]).toEqual(
          expect.objectContaining({ name: path.basename(f.file, '.json'), payload: f.payload, errors: f.errors }),
        );
      }
      // no server paths, no rules
      expect(JSON.stringify(e)).not.toContain(path.dirname(d.dir ?? '/nowhere/x'));
      expect(e.rules).toBeUndefined();
    }
    const errorPages = body.data.find((e: any) => e.id === 'error_pages');
    expect(errorPages.fixtures.invalid.find((f: any) => f.name === 'relative-url')).toEqual({
      name: 'relative-url',
      file: 'relative-url.json',
      description: '响应地址不以 / 开头',
      payload: { options: [{ code: [404], url: '404.html' }] },
      errors: [{ path: '/options/0/url', message: '请填写正确的 URI 地址，以 / 开头' }],
    });
  });

  it('is refused without a session (401, 21110)', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/api/schemas/gallery/' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ result: false, error_code: 21110, message: '登录已失效，请重新登录' });
  });

  it('is refused to a sub-account (403, 21111)', async () => {
    const demo = await s.db.selectFrom('users').select(['id', 'password_hash']).where('username', '=', 'demo').executeTakeFirstOrThrow();
    await s.db
      .insertInto('users')
      .values({ username: 'demo-child', email: null, mobile: null, password_hash: demo.password_hash, verify_status: 'yes', two_step: false, parent_id: demo.id, permissions: '[]' } as any)
      .execute();
    const c = await new Client(s.app).signIn('demo-child');
    const res = await c.get('/api/schemas/gallery/');
    expect(res.statusCode).toBe(403);
    expect(res.json().error_code).toBe(21111);
  });

  it('answers HEAD for the console menu probe', async () => {
    const c = await new Client(s.app).signIn('demo');
    const res = await c.request({ method: 'HEAD', url: '/api/schemas/gallery/' });
    expect(res.statusCode).toBe(200);
  });
});

describe('schema gallery (off)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ config: { schemaGallery: false } });
  });
  afterAll(async () => {
    await s.close();
  });

  it('answers 404 with 21202 to a main account', async () => {
    const c = await new Client(s.app).signIn('demo');
    const res = await c.get('/api/schemas/gallery/');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ result: false, error_code: 21202, message: '设置项不存在' });
  });

  it('is still refused without a session', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/api/schemas/gallery/' });
    expect(res.statusCode).toBe(401);
  });
});

describe('SCHEMA_GALLERY', () => {
  it('is on by default and off with 0', () => {
    expect(configFromEnv({}).schemaGallery).toBe(true);
    expect(configFromEnv({ SCHEMA_GALLERY: '1' }).schemaGallery).toBe(true);
    expect(configFromEnv({ SCHEMA_GALLERY: '0' }).schemaGallery).toBe(false);
  });
});
