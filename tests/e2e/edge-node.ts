/**
 * The edge node of the browser tests: the shared server registers this key at start (EDGE_NODE_KEY in
 * playwright.config.ts) but no node runs until a test starts one (edge-status.spec.ts), so the console
 * first shows the installation without an edge.
 */
export const E2E_EDGE_NODE_KEY = 'e2e-edge-node-key-not-a-secret';
export const E2E_EDGE_NODE_NAME = 'local';
