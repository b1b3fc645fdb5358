/**
 * The demo origin (docs/edge.md "The demo origin"): a small site the demo's CDN services are pointed at,
 * on its own port (DEMO_ORIGIN_PORT, 8082), so that the edge has something real to fetch and cache.
 *
 *   /                 the site: HTML, CSS, JS, images (site/), cacheable for an hour (HTML for a minute)
 *   /echo/…           what reached the origin, as JSON: method, URI with query, headers, client address, body
 *   /status/<code>    an answer with that status (404s and 500s for error pages)
 *   /headers?k=v      an answer carrying the response headers asked for
 *   /big.txt          about 64 KB of text (compression, rate limits)
 *   anything else     404 with a small HTML page
 *
 * Every answer carries `X-Origin-Uri` (the URI and query received) and `X-Origin-Hits` (a counter per
 * URI, so that a test tells a cache hit from a fetch).
 */
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const SITE = path.join(__dirname, 'site');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

const BIG = Array.from({ length: 1024 }, (_, i) => `第 ${i + 1} 行：边缘节点压缩与限速的演示文本。The quick brown fox jumps over the lazy dog.\n`).join('');

export interface DemoOrigin {
  server: http.Server;
  port: number;
  /** Requests received per URI (with query). */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export function createDemoOrigin(): http.Server & { hits: Map<string, number> } {
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const uri = req.url ?? '/';
    const n = (hits.get(uri) ?? 0) + 1;
    hits.set(uri, n);
    res.setHeader('X-Origin-Uri', uri);
    res.setHeader('X-Origin-Hits', String(n));
    const url = new URL(uri, 'http://origin.invalid');
    const p = decodeURIComponent(url.pathname);
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (p.startsWith('/echo/') || p === '/echo') {
        const body = Buffer.concat(chunks).toString('utf8');
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        res.setHeader('Cache-Control', 'no-store');
        res.end(JSON.stringify({ method: req.method, uri, path: url.pathname, query: url.search.slice(1), headers: req.headers, client: req.socket.remoteAddress, body }));
        return;
      }
      const status = /^\/status\/(\d{3})$/.exec(p);
      if (status) {
        res.statusCode = Number(status[1]);
        res.setHeader('Content-Type', 'text/html; charset=utf-8');
        res.end(`<!doctype html><title>${status[1]}</title><h1>源站返回 ${status[1]}</h1>`);
        return;
      }
      if (p === '/headers') {
        for (const [k, v] of url.searchParams) res.setHeader(k, v);
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.end('ok\n');
        return;
      }
      if (p === '/big.txt') {
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.setHeader('Cache-Control', 'public, max-age=3600');
        res.end(BIG);
        return;
      }
      const file = path.join(SITE, p.endsWith('/') ? p + 'index.html' : p);
      if (!file.startsWith(SITE) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
        res.statusCode = 404;
        res.setHeader('Content-Type', 'text/html; charset=utf-8');
        res.end('<!doctype html><title>404</title><h1>源站：页面不存在</h1>');
        return;
      }
      const ext = path.extname(file);
      res.setHeader('Content-Type', TYPES[ext] ?? 'application/octet-stream');
      res.setHeader('Cache-Control', ext === '.html' ? 'public, max-age=60' : 'public, max-age=3600');
      res.setHeader('Last-Modified', fs.statSync(file).mtime.toUTCString());
      if (req.method === 'HEAD') return res.end();
      fs.createReadStream(file).pipe(res);
    });
  });
  return Object.assign(server, { hits });
}

export async function startDemoOrigin(port: number, host = '127.0.0.1'): Promise<DemoOrigin> {
  const server = createDemoOrigin();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const addr = server.address() as { port: number };
  return { server, port: addr.port, hits: server.hits, close: () => new Promise((r) => { server.close(() => r()); server.closeAllConnections(); }) };
}
