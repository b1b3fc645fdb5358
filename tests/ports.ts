/** Free TCP ports on 127.0.0.1 for the servers the tests start (pebble, nginx, origins). */
import net from 'node:net';

export async function freePort(): Promise<number> {
  return (await freePorts(1))[0];
}

/**
 * `n` different free ports: every one stays held until all are chosen (one at a time, a closed port can
 * be handed out again at once — a CI run once gave pebble the same port for its API and its management).
 */
export async function freePorts(n: number, not: number[] = []): Promise<number[]> {
  const held: net.Server[] = [];
  const ports: number[] = [];
  try {
    while (ports.length < n) {
      const srv = net.createServer();
      held.push(srv);
      const port = await new Promise<number>((resolve, reject) => {
        srv.once('error', reject);
        srv.listen(0, '127.0.0.1', () => resolve((srv.address() as net.AddressInfo).port));
      });
      if (!not.includes(port)) ports.push(port);
    }
    return ports;
  } finally {
    await Promise.all(held.map((srv) => new Promise<void>((resolve) => srv.close(() => resolve()))));
  }
}
