/**
 * The traffic reporter alone, without the agent (the agent runs the same LogShipper itself): for a
 * node whose logs another process writes, and for the test that kills it in the middle of a report.
 * Beside an agent on the same folder only one of them reports (traffic.lock).
 *
 *   EDGE_DIR, EDGE_CONTROL_URL, EDGE_NODE_KEY, EDGE_NODE_NAME (local)
 *   EDGE_TRAFFIC_INTERVAL_MS    how often it reports (default 10 000)
 *   EDGE_TRAFFIC_PAUSE_AFTER_SEND_MS   test only: a pause between the server's answer and saving the offsets
 */
// first: stops at once on another Node.js than package.json engines.node (scripts/require-node.cjs)
import '../../../scripts/require-node.cjs';
import { LogShipper } from './shipper';

const env = process.env;
if (!env.EDGE_DIR || !env.EDGE_CONTROL_URL || !env.EDGE_NODE_KEY) {
  console.error('[edge] 缺少 EDGE_DIR、EDGE_CONTROL_URL 或 EDGE_NODE_KEY');
  process.exit(2);
}
const shipper = new LogShipper({
  dir: env.EDGE_DIR,
  controlUrl: env.EDGE_CONTROL_URL,
  nodeKey: env.EDGE_NODE_KEY,
  nodeName: env.EDGE_NODE_NAME || 'local',
  everyMs: env.EDGE_TRAFFIC_INTERVAL_MS ? Number(env.EDGE_TRAFFIC_INTERVAL_MS) : undefined,
  pauseAfterSendMs: env.EDGE_TRAFFIC_PAUSE_AFTER_SEND_MS ? Number(env.EDGE_TRAFFIC_PAUSE_AFTER_SEND_MS) : undefined,
});
shipper.start();
void shipper.flush();
const stop = async () => {
  await shipper.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
setInterval(() => undefined, 1 << 30);
