/**
 * The server that tests/bench/server-load.ts loads, in a process of its own so that the load generator
 * (autocannon, in the bench's process) and the server do not share an event loop.
 *
 *   MODE=bare   a bare Fastify route answering a constant JSON (the ceiling of this machine)
 *   MODE=app    the console's server (buildApp) on PostgreSQL (DATABASE_URL) or in-memory PGlite, with the
 *               demo seeded, a few days of traffic and the demo's bills (the lists have rows to page)
 *
 * Prints `ready <port>` on stdout once it listens. `node --cpu-prof --import tsx tests/bench/load-server.ts`
 * profiles it (docs/performance.md).
 */
import Fastify from 'fastify';

async function main() {
  const port = Number(process.env.PORT ?? 0);
  if (process.env.MODE === 'bare') {
    const app = Fastify({ logger: false });
    const body = { code: 0, message: '', data: { status: 'enable', gzip: { disable: false, level: 6 } } };
    app.get('/bare/', async () => body);
    await app.listen({ port, host: '127.0.0.1' });
    console.log(`ready ${(app.server.address() as { port: number }).port}`);
    process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
    return;
  }
  const { openDatabase } = await import('../../src/server/db');
  const { buildApp } = await import('../../src/server/app');
  const { configFromEnv } = await import('../../src/server/config');
  const { seedDemo } = await import('../../src/server/seed/demo');
  const { seedTraffic } = await import('../../src/server/seed/traffic');
  const { seedDemoBills } = await import('../../src/server/seed/billing');
  const { loadRegistry } = await import('../../schemas/load');
  // the server's defaults (configFromEnv): PGlite's bounded wait (DB_WAIT_MS, DB_QUEUE_MAX), the session cache
  const config = { ...configFromEnv({}), databaseUrl: process.env.DATABASE_URL || undefined, dataDir: 'memory://', distDir: '/nonexistent', logSms: false };
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: 'memory://', queue: config.dbQueue });
  await seedDemo(db);
  await seedTraffic(db, { days: Number(process.env.TRAFFIC_DAYS ?? 8), fiveMinuteDays: 2, geoHourlyDays: 1, seed: 1 });
  await seedDemoBills(db);
  const app = await buildApp({ db, config, registry: loadRegistry(), logger: false });
  // the server's own time per request (from reading it to answering: Fastify's elapsedTime), which the bench
  // reads and resets after each figure — time a request spent before the server read it is not in it
  let times: number[] = [];
  app.addHook('onResponse', async (_req, reply) => void times.push(reply.elapsedTime));
  app.get('/__bench/timing/', { config: { access: 'public' } }, async () => {
    const sorted = times.sort((x, y) => x - y);
    times = [];
    return { count: sorted.length, p99: sorted[Math.floor(sorted.length * 0.99)] ?? 0, max: sorted.at(-1) ?? 0 };
  });
  await app.listen({ port, host: '127.0.0.1' });
  console.log(`ready ${(app.server.address() as { port: number }).port}`);
  const stop = async () => {
    await app.close();
    await db.destroy();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
