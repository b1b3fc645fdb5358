import type { EdgeCompiler } from '../../edge';
import { luaString, ruleRegex } from '../../edge-match';
import { EDGE_FILES_PREFIX, MIRROR_CACHE_KEY_SUFFIX, MIRROR_DYNAMIC_EXTENSIONS, MIRROR_MAX_BYTES, MIRROR_MIN_CACHE_SECONDS } from '../../../src/shared/edge-files';

interface Mirror {
  mirror: 'enable' | 'paused' | 'disable';
  url_patterns: string[];
  mirror_bucket: string;
}

/** A 迁移路径 (`/images/*`, `/static/*.js`: `*` any characters, `/` included) as an anchored regular expression: a cache rule's path. */
export const patternRegex = (pattern: string): string => ruleRegex('path', pattern).re;

/**
 * 源站资源迁移 on the edge (spec 002: 开启 reads the storage first, then the origin, and migrates;
 * 暂停 reads the storage first, then the origin, migrating nothing new; 关闭 goes to the origin alone).
 * A GET or HEAD of a path that matches (no paths: every static resource, a name with an extension that
 * is not a program's) is sent to the chosen file service's storage behind the control plane (the node
 * key; the edge caches it under the request's key with `#mirror` after it); a miss there goes to the
 * origin, and with 开启 a 200 answer (at most MIRROR_MAX_BYTES) is PUT into that storage by a timer
 * after the answer was sent (src/edge/lua/edge_mirror.lua). An old migration (no storage chosen) uses
 * the service's own storage.
 */
const edge: EdgeCompiler = (v: Mirror, ctx) => {
  if (!v || v.mirror === 'disable' || !ctx.control) return null;
  const bucket = v.mirror_bucket || ctx.service.name;
  const control = new URL(ctx.control);
  const port = control.port || (control.protocol === 'https:' ? '443' : '80');
  const patterns = v.url_patterns.length ? `{ ${v.url_patterns.map((p) => luaString(patternRegex(p))).join(', ')} }` : 'nil';
  const dynamic = `{ ${MIRROR_DYNAMIC_EXTENSIONS.map((e) => `[ ${luaString(e)} ] = true`).join(', ')} }`;
  const store = v.mirror === 'enable';
  const key = `$${ctx.prefix}_mirror_path`;
  return {
    server: [
      // the storage first: /__edge/mirror/<path> → <control>/edge/v1/files/<storage>/<path>; a miss or a failure goes back to the origin
      'location ^~ /__edge/mirror/ {',
      '  internal;',
      `  set_by_lua_block ${key} { return ngx.var.uri:sub(${'/__edge/mirror'.length + 1}) }`,
      `  proxy_pass ${control.protocol}//${control.host}${EDGE_FILES_PREFIX}/${encodeURIComponent(bucket)}/;`,
      `  proxy_set_header Host ${ctx.q(control.host)};`,
      '  proxy_set_header Authorization $edge_node_auth;',
      '  proxy_set_header Accept-Encoding "";',
      '  proxy_http_version 1.1;',
      '  proxy_set_header Connection "";',
      '  proxy_cache edge_cache;',
      // its own key: an object the edge cached from the origin before is not taken for a stored one (it would never migrate);
      // a suffix, so that a directory purge (by prefix) still finds it
      `  proxy_cache_key $host${key}?$edge_key_args${MIRROR_CACHE_KEY_SUFFIX};`,
      '  proxy_intercept_errors on;',
      `  error_page 400 401 403 404 405 409 500 502 503 504 = @${ctx.prefix}_mirror_miss;`,
      '}',
      `location @${ctx.prefix}_mirror_miss { content_by_lua_block { require("edge_mirror").miss() } }`,
    ],
    access_lua: [`require("edge_mirror").access(${patterns}, ${dynamic}, ${store})`],
    ...(store
      ? {
          header_lua: [`require("edge_mirror").header(${MIRROR_MIN_CACHE_SECONDS})`],
          body_lua: [`require("edge_mirror").body(${MIRROR_MAX_BYTES})`],
          log_lua: [`require("edge_mirror").log(${luaString(control.hostname)}, ${port}, ${luaString(EDGE_FILES_PREFIX)}, ${luaString(bucket)}, ${luaString(String(ctx.service.id))})`],
        }
      : {}),
  };
};

export default edge;
