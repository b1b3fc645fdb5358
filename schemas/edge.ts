/**
 * A setting's edge behaviour: `schemas/settings/<id>/edge.ts` exports a compiler from the setting's
 * value to nginx directives (docs/adding-a-setting.md, docs/edge.md). The edge agent (src/edge/) loads
 * every folder's compiler with `loadEdgeCompilers()` and has no per-setting code of its own.
 *
 * A compiler is a pure function of JSON in and text out: golden tests need no nginx.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ServiceKind } from '../src/shared/services';
import { settingsDir } from './load';

/** What a compiler may look at besides its own value. */
export interface EdgeContext {
  service: { id: number; name: string; kind: ServiceKind; domains: string[] };
  /** A prefix unique to the service for names at the http level (maps, zones, upstreams): `s<id>`. */
  prefix: string;
  /** Another setting's effective value of the same service (undefined when it does not apply to the kind). */
  setting(id: string): any;
  /** The edge's public ports, for redirects and links. */
  ports: { http: number; https: number };
  /** Quotes a string for nginx (double quotes, escaped). */
  q(text: string): string;
  /** The control plane's base URL (the edge API: file services' storage, mirror migration), e.g. http://127.0.0.1:8080. */
  control?: string;
}

/** A location a setting adds (cache rules by suffix, directory or path): it proxies like the others. */
export interface EdgeLocation {
  /** The location's match, as nginx writes it: `~* \.(jpg|png)$`, `^~ /static/`, `= /index.html`. */
  match: string;
  /** Directives inside it, besides the proxying ones. */
  directives: string[];
  /** Among locations of the same kind of match, lower first (regex locations are tried in order). */
  order?: number;
}

/** What a setting adds to its service's configuration. Every part is optional. */
export interface EdgeOutput {
  /** At the http level (maps, limit zones), each name starting with the context's prefix. */
  http?: string[];
  /** In the service's server blocks. */
  server?: string[];
  /** In every location that proxies to the origin. */
  proxy?: string[];
  /** Locations of their own. */
  locations?: EdgeLocation[];
  /** Lua run in the access phase of every request of the service (a chunk, `ctx` in scope). */
  access_lua?: string[];
  /** Lua run in the header filter (`ngx.header` writable). */
  header_lua?: string[];
  /** Lua run in the body filter (`ngx.arg[1]` the chunk, `ngx.arg[2]` the end), one block per server. */
  body_lua?: string[];
  /** Lua run in the log phase (after the answer was sent: ngx.timer for work that may take time). */
  log_lua?: string[];
  /** The TLS profile of the service's HTTPS sockets (the agent groups services by it). */
  tls?: { min?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3'; tls13?: boolean; http2?: boolean };
  /** Where requests go on a miss: `proxy_pass` target (an upstream of `http`, or a URL), and the Host sent. */
  origin?: { pass: string; host?: string };
  /** Chinese: the setting is saved but this edge cannot do it as asked (shown as the setting's edge state). */
  unsupported?: string;
  /**
   * For a service paused by its bandwidth cap (服务已关闭, `$edge_refusal` 40310006), which gets the
   * provider's page and none of the parts above: directives and locations (proxying like the others)
   * placed before that page, e.g. the customer's own error page for it.
   */
  closed?: { server?: string[]; locations?: EdgeLocation[] };
}

export type EdgeCompiler = (value: any, ctx: EdgeContext) => EdgeOutput | null | undefined;

/** Every setting folder's edge compiler, by setting id. */
export function loadEdgeCompilers(dir = settingsDir()): Map<string, EdgeCompiler> {
  const out = new Map<string, EdgeCompiler>();
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    for (const name of ['edge.ts', 'edge.js']) {
      const f = path.join(dir, e.name, name);
      if (!fs.existsSync(f)) continue;
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mod = require(f);
      const fn = mod.default ?? mod.edge;
      if (typeof fn !== 'function') throw new Error(`${f}: 须导出一个函数（export default）`);
      out.set(e.name, fn);
      break;
    }
  }
  return out;
}
