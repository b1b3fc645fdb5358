/**
 * The edge nodes' calls (long polls every 20 s, reports, files) stay out of the server's info log; the
 * console's requests are still logged (src/server/edge/routes.ts).
 */
import { Writable } from 'node:stream';
import { buildApp } from '../../src/server/app';
import { configFromEnv } from '../../src/server/config';
import { openDatabase } from '../../src/server/db';
import { loadRegistry } from '../../schemas/load';
import { EDGE_API_PREFIX } from '../../src/shared/edge';

test("the nodes' calls are logged only when they go wrong; the console's are logged as before", async () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const db = await openDatabase({ dataDir: 'memory://' });
  const config = { ...configFromEnv({}), dataDir: 'memory://', distDir: '/nonexistent', logSms: false };
  const app = await buildApp({ db, config, registry: loadRegistry(), logger: { level: 'info', stream } });
  try {
    await app.ready();
    expect((await app.inject({ method: 'GET', url: `${EDGE_API_PREFIX}/config?after=0&wait=0` })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/buckets/edge/?bucket_name=demo-www' })).statusCode).toBe(401);
    const urls = lines.map((l) => JSON.parse(l)).filter((o) => o.req?.url).map((o) => o.req.url as string);
    expect(urls).toContain('/api/buckets/edge/?bucket_name=demo-www');
    expect(urls.filter((u) => u.startsWith(EDGE_API_PREFIX))).toEqual([]);
  } finally {
    await app.close();
    await db.destroy();
  }
});
