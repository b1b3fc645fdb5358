/**
 * The embedded database on a thread of its own (./pglite-thread.ts starts it; not named pglite-thread.mjs, which module resolution would take for the .ts): PGlite runs its statements
 * as WebAssembly on the thread that calls it, so in the server's own thread every statement held up the
 * event loop — the HTTP parsing, the answers, and the accepting of new connections (docs/performance.md,
 * "PGlite under 100 new connections"). Plain JavaScript, so that it starts the same under node, tsx and jest.
 *
 * Messages in: { id, op: 'query', sql, params } | { id, op: 'listen', channel } | { id, op: 'unlisten', of }
 *              | { id, op: 'dump', compression } | { id, op: 'close' }
 * Messages out: { op: 'ready', error? } | { id, result } | { id, error } | { op: 'notify', of, payload }
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/** An error as data: its message, name and every own field (PostgreSQL's code, detail, constraint, …). */
function errorOf(e) {
  if (!(e instanceof Error)) return { message: String(e), name: 'Error', fields: {} };
  const fields = {};
  for (const [k, v] of Object.entries(e)) {
    if (v === undefined || typeof v === 'function') continue;
    try {
      structuredClone(v);
      fields[k] = v;
    } catch {
      fields[k] = String(v);
    }
  }
  return { message: e.message, name: e.name, stack: e.stack, fields };
}

const { dataDir, template } = workerData;
let pg;
try {
  pg = template ? new PGlite(dataDir, { loadDataDir: new Blob([fs.readFileSync(template)]) }) : new PGlite(dataDir);
  await pg.waitReady;
  parentPort.postMessage({ op: 'ready' });
} catch (e) {
  parentPort.postMessage({ op: 'ready', error: errorOf(e) });
}

const listeners = new Map();

parentPort.on('message', async (m) => {
  try {
    switch (m.op) {
      case 'query': {
        const r = await pg.query(m.sql, m.params);
        parentPort.postMessage({ id: m.id, result: { rows: r.rows, affectedRows: r.affectedRows } });
        return;
      }
      case 'listen': {
        const off = await pg.listen(m.channel, (payload) => parentPort.postMessage({ op: 'notify', of: m.id, payload }));
        listeners.set(m.id, off);
        parentPort.postMessage({ id: m.id, result: null });
        return;
      }
      case 'unlisten': {
        const off = listeners.get(m.of);
        listeners.delete(m.of);
        if (off && !pg.closed) await off();
        parentPort.postMessage({ id: m.id, result: null });
        return;
      }
      case 'dump': {
        const buffer = await (await pg.dumpDataDir(m.compression)).arrayBuffer();
        parentPort.postMessage({ id: m.id, result: buffer }, [buffer]);
        return;
      }
      case 'close': {
        if (!pg.closed) await pg.close();
        parentPort.postMessage({ id: m.id, result: null });
        return;
      }
      default:
        throw new Error(`unknown operation ${m.op}`);
    }
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: errorOf(e) });
  }
});
