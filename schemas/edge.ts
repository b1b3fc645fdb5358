/**
 * A setting's edge behaviour (docs/adding-a-setting.md, docs/edge.md "Services as data"): beside its
 * schema, `schemas/settings/<id>/edge.ts` exports a compiler from the setting's value to **data**, and
 * `schemas/settings/<id>/edge.lua`, when the setting acts on requests, the Lua module that acts on that
 * data in nginx's workers (phases `access`, `header`, `body`, `log`; hooks `refusal`, `origin_error`). The
 * edge agent (src/edge/) loads every folder's compiler with `loadEdgeCompilers()` and has no per-setting
 * code of its own; nginx.conf never changes for a customer's change.
 *
 * A compiler is a pure function of JSON in and JSON out: golden tests need no nginx.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ServiceKind } from '../src/shared/services';
import { settingsDir } from './load';

/** What a compiler may look at besides its own value. */
export interface EdgeContext {
  service: { id: number; name: string; kind: ServiceKind; domains: string[] };
  /** Another setting's effective value of the same service (undefined when it does not apply to the kind). */
  setting(id: string): any;
  /** The edge's public ports, for redirects and links. */
  ports: { http: number; https: number };
  /** The control plane's base URL (the edge API: file services' storage, mirror migration), e.g. http://127.0.0.1:8080. */
  control?: string;
}

/** Where a service's misses go (the fetch server's balancer, src/edge/lua/edge_fetch.lua). */
export interface EdgeOrigin {
  protocol: 'http' | 'https' | 'follow';
  /** The Host sent (empty: the requested host); over HTTPS also the SNI name. */
  host?: string;
  /** Addresses (a name is resolved by the agent, as nginx resolved an upstream's names at load) and ports. */
  servers: { address: string; port: number; weight: number; backup: boolean }[];
  failover: boolean;
  /** Seconds: connecting waits at most this; a failed server rests this long. */
  timeout: number;
  max_fails: number;
}

/** What a setting gives its service on the edge. Every part is optional. */
export interface EdgeOutput {
  /** The data its Lua module (`edge.lua` in the same folder) receives; JSON. Without a module, no data. */
  data?: unknown;
  /** The TLS profile of the service's HTTPS names. */
  tls?: { min?: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3'; tls13?: boolean; http2?: boolean };
  /** Where requests go on a miss. */
  origin?: EdgeOrigin;
  /** The origin is asked without Accept-Encoding (the cache holds one plain copy). */
  plainOrigin?: boolean;
  /** Chinese: the setting is saved but this edge cannot do it as asked (shown as the setting's edge state). */
  unsupported?: string;
}

export type EdgeCompiler = (value: any, ctx: EdgeContext) => EdgeOutput | null | undefined;

export interface EdgeSettingFolder {
  compile: EdgeCompiler;
  /** The folder has an `edge.lua` (the data goes to it). */
  lua: boolean;
}

/** Every setting folder's edge compiler, by setting id. */
export function loadEdgeCompilers(dir = settingsDir()): Map<string, EdgeSettingFolder> {
  const out = new Map<string, EdgeSettingFolder>();
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    for (const name of ['edge.ts', 'edge.js']) {
      const f = path.join(dir, e.name, name);
      if (!fs.existsSync(f)) continue;
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mod = require(f);
      const fn = mod.default ?? mod.edge;
      if (typeof fn !== 'function') throw new Error(`${f}: 须导出一个函数（export default）`);
      out.set(e.name, { compile: fn, lua: fs.existsSync(path.join(dir, e.name, 'edge.lua')) });
      break;
    }
  }
  return out;
}
