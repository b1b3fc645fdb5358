/**
 * Starts the server: opens (and migrates) the database, seeds the demo on first start, listens.
 */
import { configFromEnv } from './config';
import { openDatabase } from './db';
import { buildApp } from './app';
import { seedDemo } from './seed/demo';
import { seedTraffic, trafficSeedFromEnv } from './seed/traffic';
import { loadRegistry } from '../../schemas/load';
import { scheduleCleanup } from './jobs/cleanup';
import { schedulePurgeWorker } from './purge/worker';

async function main() {
  const config = configFromEnv();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const seeded = config.seedDemo ? await seedDemo(db) : false;
  // the demo's traffic statistics on first start (docs/statistics.md; SEED_TRAFFIC=0 skips it)
  const trafficSeed = config.seedDemo ? trafficSeedFromEnv() : null;
  const traffic = trafficSeed ? await seedTraffic(db, trafficSeed) : null;
  const app = await buildApp({ db, config, registry: loadRegistry() });
  if (traffic?.seeded) app.log.info(`已生成演示流量数据：${traffic.ms} ms，${JSON.stringify(traffic.rows)}`);
  if (seeded) app.log.info('已创建演示数据：demo / demo123456，demo2fa / demo123456（短信验证码见日志与 sms_outbox 表）');
  const stopCleanup = scheduleCleanup(db, app.log);
  const stopPurge = schedulePurgeWorker(db, app.log);
  const close = async () => {
    stopCleanup();
    stopPurge();
    await app.close();
    await db.destroy();
    process.exit(0);
  };
  process.on('SIGINT', close);
  process.on('SIGTERM', close);
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`控制台已启动：http://${config.host}:${config.port}/ （数据库：${config.databaseUrl ? 'PostgreSQL' : 'PGlite ' + config.dataDir}）`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
