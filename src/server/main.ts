/**
 * Starts the server: opens (and migrates) the database, seeds the demo on first start, listens.
 */
// first: stops at once on another Node.js than package.json engines.node (scripts/require-node.cjs)
import '../../scripts/require-node.cjs';
import { configFromEnv, flag } from './config';
import { openDatabase, withStartupLock } from './db';
import { DataDirInUseError } from './db/lock';
import { buildApp } from './app';
import { seedDemo } from './seed/demo';
import { seedTraffic, trafficSeedFromEnv } from './seed/traffic';
import { seedDemoBills } from './seed/billing';
import { loadRegistry } from '../../schemas/load';
import { scheduleCleanup } from './jobs/cleanup';
import { schedulePurgeWorker } from './purge/worker';
import { scheduleBilling } from './billing/section';
import { scheduleCostControl } from './domains/costControl';
import { scheduleDemoPipeline } from './seed/live-traffic';
import { scheduleMediaWorker } from './media/worker';
import { scheduleMonitorWorker } from './monitor/worker';
import { scheduleBackupWorker } from './backup/worker';
import { scheduleReferralRebates } from './referrals/settle';
import { outboxSender } from './sms/outbox';
import { scheduleCertificateJobs } from './certificates/section';
import { seedDemoOrigins } from './seed/edge';

/** How long a clean shutdown may take before the process exits anyway (SHUTDOWN_TIMEOUT_MS, default 8 s). */
const SHUTDOWN_TIMEOUT_MS = Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 8000);

async function main() {
  const config = configFromEnv();
  // progress on the terminal of `npm start` (plain lines; the server's own log follows)
  console.log(`正在打开数据库并执行迁移（${config.databaseUrl ? 'PostgreSQL' : 'PGlite ' + config.dataDir}）……`);
  // on PGlite a request waits for the database at most DB_WAIT_MS, behind at most DB_QUEUE_MAX others (docs/operations.md)
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, queue: config.dbQueue });
  // the seeds under the start's lock: a second server started at the same moment waits, then finds them done
  const { seeded, traffic } = await withStartupLock(db, async () => {
    const seeded = config.seedDemo ? await seedDemo(db) : false;
    if (seeded) console.log('已创建演示账号与服务。');
    // the demo's services fetch from the demo origin on the edge (docs/edge.md)
    if (seeded) await seedDemoOrigins(db, config.edge.demoOrigin);
    // the demo's traffic statistics on first start (docs/statistics.md; SEED_TRAFFIC=0 skips it)
    const trafficSeed = config.seedDemo ? trafficSeedFromEnv() : null;
    let shown = -1;
    const onProgress = (done: number, days: number) => {
      if (done !== shown) console.log(`正在生成演示流量数据：${done} / ${days} 天`);
      shown = done;
    };
    const traffic = trafficSeed ? await seedTraffic(db, { ...trafficSeed, onProgress }) : null;
    // the demo's bills from that traffic (docs/billing.md "The demo")
    if (traffic?.seeded) {
      console.log('正在根据流量生成演示账单……');
      await seedDemoBills(db);
    }
    return { seeded, traffic };
  });
  const app = await buildApp({ db, config, registry: loadRegistry() });
  if (traffic?.seeded) app.log.info(`已生成演示流量数据：${traffic.ms} ms，${JSON.stringify(traffic.rows)}`);
  if (seeded) app.log.info('已创建演示数据：demo / demo123456，demo2fa / demo123456（短信验证码见日志与 sms_outbox 表）');
  const stopCleanup = scheduleCleanup(db, app.log);
  const stopPurge = schedulePurgeWorker(db, app.log, { edge: config.edge.enabled }); // without an edge, tasks fail with the reason
  const stopBilling = scheduleBilling(db, app.log, outboxSender(db, app.log, config.logSms));
  const stopCostControl = scheduleCostControl(db, app.log, config.domains?.costControlEveryMs ?? 0);
  // the demo's traffic keeps coming while the server runs (DEMO_TRAFFIC_LIVE=0 stops it)
  const stopDemoPipeline = config.seedDemo && flag(process.env.DEMO_TRAFFIC_LIVE, true) ? scheduleDemoPipeline(db, app.log) : () => undefined;
  const stopMedia = scheduleMediaWorker(db, app.storage, app.log);
  const stopMonitor = scheduleMonitorWorker(db, app.log, outboxSender(db, app.log, config.logSms));
  const stopBackup = scheduleBackupWorker(db, app.storage, app.log, config.backup); // docs/operations-tools.md
  const stopCertificates = scheduleCertificateJobs(db, config, app.log);
  const stopReferrals = scheduleReferralRebates(db, app.log); // docs/referrals.md
  let closing = false;
  const close = async () => {
    if (closing) return; // Ctrl-C reaches the server both from the terminal and from npm start
    closing = true;
    // whatever the database does (down, hung: a request or the pool's end waiting on it), the process is gone
    // within SHUTDOWN_TIMEOUT_MS (issue 34 item 6: SIGTERM once left it running 40 s and more)
    setTimeout(() => {
      console.error(`关闭超时（${SHUTDOWN_TIMEOUT_MS} ms）：数据库或请求未能按时结束，强制退出。`);
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    stopCleanup();
    stopPurge();
    stopBilling();
    stopCostControl();
    stopDemoPipeline();
    stopMedia();
    stopMonitor();
    stopBackup();
    stopCertificates();
    stopReferrals();
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
  console.error(e instanceof DataDirInUseError ? e.message : e); // a folder in use: the sentence, not a stack
  process.exit(1);
});
