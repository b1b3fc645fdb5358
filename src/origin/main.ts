/** Starts the demo origin (docs/edge.md "The demo origin"): DEMO_ORIGIN_PORT, default 8082. */
// first: stops at once on another Node.js than package.json engines.node (scripts/require-node.cjs)
import '../../scripts/require-node.cjs';
import { startDemoOrigin } from './server';

const port = Number(process.env.DEMO_ORIGIN_PORT ?? 8082);
startDemoOrigin(port)
  .then((o) => console.log(`[origin] 演示源站已启动：http://127.0.0.1:${o.port}/`))
  .catch((e) => {
    console.error(`[origin] 演示源站未能启动（端口 ${port}）：${e.message}`);
    process.exit(1);
  });
