/**
 * Starts the server: opens (and migrates) the database, seeds the demo on first start, listens.
 */
import { configFromEnv } from './config';
import { openDatabase } from './db';
import { buildApp } from './app';
import { seedDemo } from './seed/demo';
import { loadRegistry } from '../../schemas/load';
import { scheduleCleanup } from './jobs/cleanup';

async function main() {
  const config = configFromEnv();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const seeded = config.seedDemo ? await seedDemo(db) : false;
  const app = await buildApp({ db, config, registry: loadRegistry() });
  if (seeded) app.log.info('已创建演示数据：demo / demo123456，demo2fa / demo123456（短信验证码见日志与 sms_outbox 表）');
  const stopCleanup = scheduleCleanup(db, app.log);
  const close = async () => {
    stopCleanup();
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
