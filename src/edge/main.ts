/**
 * Starts an edge node: the agent and its nginx (docs/edge.md). `npm start` runs it beside the server.
 *
 *   EDGE_CONTROL_URL   the control plane (default http://127.0.0.1:$PORT)
 *   EDGE_NODE_KEY      the node's key (npm start makes one under DATA_DIR; `npm run platform -- edge-key` for others)
 *   EDGE_NODE_NAME     its name (local)
 *   EDGE_HTTP_PORT     8081        EDGE_HTTPS_PORT  8443        EDGE_LISTEN  127.0.0.1
 *   DATA_DIR           the node's files go under DATA_DIR/edge (EDGE_DIR overrides)
 */
// first: stops at once on another Node.js than package.json engines.node (scripts/require-node.cjs)
import '../../scripts/require-node.cjs';
import path from 'node:path';
import { EdgeAgent } from './agent';
import { nginxAvailable } from './nginx';

async function main() {
  const env = process.env;
  if (!nginxAvailable()) {
    console.error('[edge] 未找到 nginx，边缘节点未启动。请先运行：sudo apt-get install -y nginx libnginx-mod-http-lua libnginx-mod-http-brotli-filter libnginx-mod-stream libnginx-mod-stream-js lua-cjson（或 node scripts/ensure-packages.mjs）；EDGE=off 可不运行边缘节点。');
    process.exit(3);
  }
  const key = env.EDGE_NODE_KEY;
  if (!key) {
    console.error('[edge] 缺少 EDGE_NODE_KEY（节点密钥）');
    process.exit(2);
  }
  const dataDir = env.DATA_DIR ?? path.resolve(__dirname, '../../data');
  const agent = new EdgeAgent({
    controlUrl: env.EDGE_CONTROL_URL ?? `http://127.0.0.1:${env.PORT ?? 8080}`,
    nodeKey: key,
    nodeName: env.EDGE_NODE_NAME || 'local',
    dir: env.EDGE_DIR ?? path.join(dataDir, 'edge'),
    ports: { http: Number(env.EDGE_HTTP_PORT ?? 8081), https: Number(env.EDGE_HTTPS_PORT ?? 8443) },
    listen: env.EDGE_LISTEN ?? '127.0.0.1',
  });
  // a signal during the start (nginx being started, orphans being stopped) waits for it, then stops
  // everything: the agent never leaves a master or its workers behind when asked to stop
  const starting = agent.start();
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await starting.catch(() => undefined);
    await agent.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await starting;
  console.log(`[edge] 边缘节点已启动：http://${env.EDGE_LISTEN ?? '127.0.0.1'}:${agent.opts.ports.http}/ 与 https://…:${agent.opts.ports.https}/`);
}

main().catch((e) => {
  console.error('[edge]', e instanceof Error ? e.message : e);
  process.exit(1);
});
