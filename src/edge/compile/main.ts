/**
 * The node's nginx.conf: fixed. It does not depend on the services (docs/edge.md "The fixed part"): one
 * server block serves every domain on the plain port and on the two TLS sockets behind the SNI router;
 * what a service does is data that the workers look up by Host (and SNI) in shared dictionaries filled
 * by the agent through the node's own admin socket. A customer's change never rewrites this file; only a
 * new node version (modules, a new setting folder with Lua, new options) does, and then the agent tests
 * and reloads it once.
 */
import { EDGE_TEXTS } from '../../shared/edge';
import { THUMB_MAX_BYTES } from '../../shared/edge-files';
import { COMPRESSIBLE_TYPES } from '../../../schemas/settings/compression/edge';
import { PUSH_MAX_ASSETS } from '../../../schemas/settings/server_push/edge';

export interface NodeOptions {
  prefix: string;
  ports: { http: number; https: number };
  /** Address the plain-HTTP and the public TLS listener bind, e.g. 127.0.0.1 */
  listen: string;
  /** Absolute paths. */
  runDir: string;
  logsDir: string;
  cacheDir: string;
  tmpDir: string;
  /** The runtime's Lua and njs (src/edge/lua). */
  luaDir: string;
  /** The settings' folders (schemas/settings): `require("settings.<id>")` loads `<id>/edge.lua`. */
  schemasDir: string;
  pagesDir: string;
  /** The control plane's base URL (file services' storage is behind its edge API). */
  controlUrl: string;
  /** The control plane's address (balancer_by_lua takes addresses, not names). */
  controlIp?: string;
  /** The worker user when started as root. */
  user?: string;
  workers: number;
  nodeKey: string;
  cacheMaxSize: string;
  /** The country database (Debian's geoip-database), when present: $geoip_country_code for $_GEOIP_COUNTRY_CODE. */
  geoipCountry?: string;
  /** Shared dictionary sizes (MB): the services' data, host → service, certificates. */
  dict?: { services?: number; hosts?: number; certs?: number };
  /** The fallback certificate of the TLS listeners (never sent: a name without a certificate is refused in the handshake). */
  fallbackCert: string;
  fallbackKey: string;
}

// Filters run in the reverse order of loading: image_filter first (on the origin's image), then Lua's body
// filters (on the plain body: page optimisation, mirror migration), then brotli (and the built-in gzip)
const MODULES = ['ndk_http_module', 'ngx_http_brotli_filter_module', 'ngx_http_lua_module', 'ngx_stream_module', 'ngx_stream_js_module', 'ngx_http_image_filter_module'];
export const MODULES_DIR = '/usr/lib/nginx/modules';

/** sendfile for bodies read from the cache: on (docs/performance.md "The edge's cached throughput"). */
export const EDGE_SENDFILE = 'on';

/** The longest a request's access-log line waits in nginx's buffer before it is on disk. */
export const ACCESS_LOG_FLUSH_MS = 250;

/** The compression variants: a location per codec and level (nginx reads levels per location, not per request). */
export const GZIP_LEVELS = [1, 2, 3, 4, 5, 6, 7, 8, 9];
export const BROTLI_LEVELS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
/**
 * The smallest body the edge compresses (gzip_min_length, brotli_min_length; nginx's default is 20): under it a
 * compressed answer is not smaller on the wire — gzip's own framing is 18 bytes, the answer gains
 * `Content-Encoding` and `Vary: Accept-Encoding` (about 50 bytes of headers) and loses its Content-Length for
 * chunked framing, and a short text has little to repeat (a 100-byte JSON object gzips to 112 bytes).
 */
export const COMPRESS_MIN_LENGTH = 256;
/** The push slots ($edge_push1…): as many as one service may push (server_push's schema caps its assets). */
export const PUSH_SLOTS = PUSH_MAX_ASSETS;

/** The fields of one access-log line (docs/edge.md "Access log"). */
const LOG_FORMAT = [
  '{"t":"$msec"',
  '"host":"$host"',
  '"svc":"$edge_service"',
  '"ip":"$remote_addr"',
  '"scheme":"$scheme"',
  '"proto":"$server_protocol"',
  '"method":"$request_method"',
  '"uri":"$request_uri"',
  '"status":$status',
  '"bytes":$bytes_sent',
  '"body_bytes":$body_bytes_sent',
  // the compression ratio of the body (original ÷ sent) when gzip or Brotli compressed it, else empty
  '"gz":"$gzip_ratio"',
  '"br":"$brotli_ratio"',
  '"cache":"$upstream_cache_status"',
  '"ub":"$upstream_bytes_received"',
  '"rt":$request_time',
  '"conn":"$connection-$connection_requests"',
  // 1 for the agent's own preheat requests (X-Edge-Preheat with the node key): not the customer's traffic
  '"pre":"$edge_preheat"}',
].join(',');

/** Quotes for nginx: double quotes, with backslash, quote and dollar escaped. */
export function q(text: string): string {
  return `"${String(text).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\$/g, '${dollar}')}"`;
}

const types = COMPRESSIBLE_TYPES.join(' ');

/**
 * What every client-side location does: the cache (key from the runtime), the hop to the node's fetch
 * server (which goes to the origin or the storage), the runtime's filters, X-Cache, server push slots and
 * the rules' rate limit. 599 is the fetch server's word for "an error page applies" (docs/edge.md).
 */
function clientSide(extra: string[]): string[] {
  return [
    ...extra,
    'proxy_cache edge_cache;',
    'proxy_cache_key $edge_cache_key;',
    'proxy_pass http://edge_fetch;',
    'proxy_http_version 1.1;',
    'proxy_set_header Connection "";',
    'proxy_set_header Host $host;',
    'proxy_set_header X-Edge-Svc $edge_svc;',
    'proxy_set_header X-Edge-Fetch $edge_fetch;',
    'proxy_set_header X-Edge-Scheme $scheme;',
    'proxy_set_header X-Real-IP $edge_real_ip;',
    'proxy_set_header X-Forwarded-For $edge_xff;',
    'proxy_set_header X-Forwarded-Proto $edge_fwd_proto;',
    'proxy_set_header Accept-Encoding $edge_accept_encoding;',
    'proxy_read_timeout 300s;',
    'proxy_intercept_errors on;',
    'error_page 599 = @edge_page;',
    // an expired copy answers when the fetch server gives no answer at all, which it does only for a
    // request whose settings allow stale copies (req.fetch.stale) and when the cache holds one (X-Edge-Cache)
    'proxy_cache_use_stale error;',
    'proxy_set_header X-Edge-Cache $upstream_cache_status;',
    // RFC 9111 (docs/edge.md "The edge as an HTTP cache"): a stale entry is revalidated (If-None-Match /
    // If-Modified-Since, a 304 freshens it), the origin's stale-while-revalidate answers from the cache while
    // one background request refreshes it (its stale-if-error is honoured by nginx without a directive),
    // simultaneous misses of one object wait for one origin request, a range is cut from the full object
    'proxy_cache_revalidate on;',
    'proxy_cache_background_update on;',
    'proxy_cache_lock on;',
    'proxy_force_ranges on;',
    // when the answer was born, for a hit's Age (edge_fetch.lua, edge_core.http_cache)
    'proxy_hide_header X-Edge-Born;',
    // the stored answer's Date on hits (the origin's, which the fetch server passes on), not the edge's clock
    'proxy_pass_header Date;',
    'limit_rate_after $edge_rate_after;',
    ...Array.from({ length: PUSH_SLOTS }, (_, i) => `http2_push $edge_push${i + 1};`),
    'header_filter_by_lua_block { edge_core.header() }',
    'body_filter_by_lua_block { edge_core.body() }',
    'log_by_lua_block { edge_core.log() }',
  ];
}

/** A client-side server block: its listeners, TLS from the data, the request's variables, the locations. */
function clientServer(o: NodeOptions, listens: string[], extra: string[], locations: string[]): string[] {
  return [
    '  server {',
    ...listens.map((l) => '    ' + l),
    '    server_name _;',
    `    ssl_certificate ${o.fallbackCert};`,
    `    ssl_certificate_key ${o.fallbackKey};`,
    '    ssl_protocols TLSv1 TLSv1.1 TLSv1.2 TLSv1.3;',
    ...extra.map((l) => '    ' + l),
    '    ssl_client_hello_by_lua_block { require("edge_tls").client_hello() }',
    '    ssl_certificate_by_lua_block { require("edge_tls").certificate() }',
    // nginx's own answers before any location (a 405 for TRACE): the locations have their own filter
    '    header_filter_by_lua_block { edge_core.early_header() }',
    ...[
      'edge_service ""', 'edge_svc ""', 'edge_fetch ""', 'edge_cache_key ""', 'edge_real_ip $remote_addr', 'edge_xff $proxy_add_x_forwarded_for',
      'edge_fwd_proto $scheme', 'edge_accept_encoding $http_accept_encoding', 'edge_rate_after 0', 'edge_img_w "-"', 'edge_img_h "-"',
      'edge_img_q 75', 'edge_stash ""', 'edge_refusal ""',
      ...Array.from({ length: PUSH_SLOTS }, (_, i) => `edge_push${i + 1} ""`),
    ].map((v) => `    set $${v};`),
    '    add_header X-Cache $edge_x_cache always;',
    // a mirror miss (599) may be followed by an origin error with a page (599 again): each ends (page fetches and
    // origin retries never answer 599), so two levels at most
    '    recursive_error_pages on;',
    ...locations.map((l) => '  ' + l),
    '  }',
  ];
}

const block = (head: string, lines: string[], pad = '  ') => [`${pad}${head} {`, ...lines.map((l) => `${pad}  ${l}`), `${pad}}`];

export function compileNode(o: NodeOptions): string {
  // reserved, not used: only the pages a dictionary fills count in the processes' memory
  const d = { services: 768, hosts: 128, certs: 128, ...o.dict };
  const noCompression = ['gzip off;', 'brotli off;'];
  const locations: string[] = [
    ...block('location /', ['rewrite_by_lua_block { edge_core.rewrite() }', ...clientSide(noCompression)]),
    ...GZIP_LEVELS.flatMap((l) =>
      block(`location @gz${l}`, clientSide(['gzip on;', `gzip_comp_level ${l};`, `gzip_types ${types};`, `gzip_min_length ${COMPRESS_MIN_LENGTH};`, 'gzip_proxied any;', 'gzip_vary on;', 'brotli off;'])),
    ),
    ...BROTLI_LEVELS.flatMap((l) => block(`location @br${l}`, clientSide(['gzip off;', 'brotli on;', `brotli_comp_level ${l};`, `brotli_types ${types};`, `brotli_min_length ${COMPRESS_MIN_LENGTH};`, 'gzip_vary on;']))),
    ...(['resize', 'crop'] as const).flatMap((op) =>
      block(
        `location @img_${op}`,
        clientSide([
          ...noCompression,
          `image_filter ${op} $edge_img_w $edge_img_h;`,
          'image_filter_jpeg_quality $edge_img_q;',
          'image_filter_webp_quality $edge_img_q;',
          `image_filter_buffer ${THUMB_MAX_BYTES};`,
        ]),
      ),
    ),
    // the fetch server said an error page applies (599), or the storage missed: the runtime decides where next
    // (no `return` here: ngx_http_rewrite_module's directives run before rewrite_by_lua and would end the request first)
    ...block('location @edge_page', ['rewrite_by_lua_block { edge_core.page() }']),
    // a request that must leave its location for the cache and the fetch server without a variant (an error page's fetch)
    ...block('location @edge_plain', clientSide(noCompression)),
    // the provider's page of a paused service (服务已关闭): a named location, so that the request's state
    // (edge_core's stash, $edge_refusal) survives the jump and its status stays the refusal's
    ...block('location @edge_closed', [`root ${q(o.pagesDir)};`, 'rewrite ^ /closed.html break;', 'add_header X-Cache MISS always;', 'header_filter_by_lua_block { edge_core.header() }', 'log_by_lua_block { edge_core.log() }']),
  ];

  const lines = [
    '# generated by the edge agent (src/edge/compile/main.ts): fixed, whatever the services; do not edit',
    ...MODULES.map((m) => `load_module ${MODULES_DIR}/${m}.so;`),
    ...(o.geoipCountry ? [`load_module ${MODULES_DIR}/ngx_http_geoip_module.so;`] : []),
    ...(o.user ? [`user ${o.user};`] : []),
    'daemon off;',
    `worker_processes ${o.workers};`,
    `pid ${o.runDir}/nginx.pid;`,
    `error_log ${o.logsDir}/error.log warn;`,
    'events { worker_connections 4096; }',
    '',
    // HTTPS: the SNI router sends each name to the socket with or without HTTP/2 (ALPN is per socket in
    // nginx 1.22); the name's socket is a file the agent writes (run/sni/<name>), read by njs
    'stream {',
    `  js_import edge_sni from ${o.luaDir}/edge_sni.js;`,
    `  js_var $edge_sni_dir ${o.runDir}/sni;`,
    `  js_var $edge_run_dir ${o.runDir};`,
    '  js_set $edge_tls_socket edge_sni.route;',
    `  server { listen ${o.listen}:${o.ports.https}; ssl_preread on; proxy_pass $edge_tls_socket; proxy_protocol on; }`,
    '}',
    '',
    'http {',
    `  client_body_temp_path ${o.tmpDir}/body;`,
    `  proxy_temp_path ${o.tmpDir}/proxy;`,
    `  fastcgi_temp_path ${o.tmpDir}/fastcgi;`,
    `  uwsgi_temp_path ${o.tmpDir}/uwsgi;`,
    `  scgi_temp_path ${o.tmpDir}/scgi;`,
    '  default_type application/octet-stream;',
    '  types { text/html html htm; text/css css; application/javascript js; image/png png; image/jpeg jpg jpeg; image/webp webp; application/json json; text/plain txt; }',
    '  charset_types text/plain text/css application/javascript application/json;',
    `  sendfile ${EDGE_SENDFILE};`,
    '  keepalive_timeout 65;',
    '  server_tokens off;',
    '  variables_hash_max_size 2048;',
    '  variables_hash_bucket_size 128;',
    `  lua_package_path ${q(`${o.luaDir}/?.lua;${o.schemasDir}/?/edge.lua;/usr/share/lua/5.1/?.lua;;`)};`,
    '  lua_package_cpath "/usr/lib/x86_64-linux-gnu/lua/5.1/?.so;;";',
    `  lua_shared_dict edge_services ${d.services}m;`,
    `  lua_shared_dict edge_hosts ${d.hosts}m;`,
    `  lua_shared_dict edge_certs ${d.certs}m;`,
    '  lua_shared_dict edge_state 8m;',
    // the URLs whose stored answer carries stale-if-error, until its window ends (edge_fetch.lua)
    '  lua_shared_dict edge_stale 8m;',
    // the runtime's options (the node's key, ports, control plane) for every worker
    `  init_by_lua_block { edge_core = require("edge_core"); edge_core.init({ node_key = ${luaQ(o.nodeKey)}, http_port = ${o.ports.http}, https_port = ${o.ports.https}, control = ${luaQ(o.controlUrl)}, control_ip = ${luaQ(o.controlIp ?? '127.0.0.1')}, cache_dir = ${luaQ(o.cacheDir)}, texts = { unknown_domain = ${luaQ(EDGE_TEXTS.unknownDomain + '\n')} } }) }`,
    ...(o.geoipCountry ? [`  geoip_country ${o.geoipCountry};`] : []),
    `  log_format edge_json escape=json '${LOG_FORMAT}';`,
    // buffered: one write per 64 KB or per ACCESS_LOG_FLUSH_MS, not one per request (the shipper reads every 10 s)
    `  access_log ${o.logsDir}/access.log edge_json buffer=64k flush=${ACCESS_LOG_FLUSH_MS}ms;`,
    '  map $upstream_cache_status $edge_x_cache { HIT HIT; STALE HIT; UPDATING HIT; REVALIDATED HIT; default MISS; }',
    `  proxy_cache_path ${o.cacheDir} levels=1:2 keys_zone=edge_cache:64m max_size=${o.cacheMaxSize} inactive=30d use_temp_path=off;`,
    '  set_real_ip_from unix:;',
    '  real_ip_header proxy_protocol;',
    '  geo $dollar { default "$"; }',
    `  map "" $edge_node_auth { default ${q('Bearer ' + o.nodeKey)}; }`,
    `  map $http_x_edge_preheat $edge_preheat { ${q('Bearer ' + o.nodeKey)} 1; default 0; }`,
    '',
    // the fetch server: the node's own hop to a service's origin (balancer_by_lua) or storage
    '  upstream edge_fetch { server unix:' + o.runDir + '/fetch.sock; keepalive 64; }',
    '  upstream edge_origin {',
    '    server 0.0.0.1;',
    '    balancer_by_lua_block { require("edge_fetch").balancer() }',
    '    keepalive 256;',
    '  }',
    // TLS to an origin without idle connections: nginx keeps them by address, and one made with another
    // service's SNI name must not be reused
    '  upstream edge_origin_tls {',
    '    server 0.0.0.1;',
    '    balancer_by_lua_block { require("edge_fetch").balancer() }',
    '  }',
    '',
    ...clientServer(o, [`listen ${o.listen}:${o.ports.http} default_server;`, `listen unix:${o.runDir}/tls-h1.sock ssl proxy_protocol;`, `listen unix:${o.runDir}/tls-h2.sock ssl http2 proxy_protocol;`], [], locations),
    // TLSv1 and TLSv1.1 sign their handshake with MD5/SHA-1, which OpenSSL 3 allows only at security level 0 (per server block)
    ...clientServer(o, [`listen unix:${o.runDir}/tls-h1l.sock ssl proxy_protocol;`, `listen unix:${o.runDir}/tls-h2l.sock ssl http2 proxy_protocol;`], ['ssl_ciphers DEFAULT:@SECLEVEL=0;'], locations),
    '',
    '  # the admin socket: the agent loads the services\' data (edge_core.load)',
    '  server {',
    `    listen unix:${o.runDir}/admin.sock;`,
    '    access_log off;',
    '    client_max_body_size 256m;',
    '    client_body_buffer_size 256m;',
    '    location = /load { content_by_lua_block { edge_core.load() } }',
    '    location = /state { content_by_lua_block { edge_core.state() } }',
    '    location = /sweep { content_by_lua_block { edge_core.sweep() } }',
    '  }',
    '',
    '  # the fetch server: only this nginx reaches it (a Unix socket in the node\'s run folder)',
    '  server {',
    `    listen unix:${o.runDir}/fetch.sock;`,
    '    access_log off;',
    '    set $edge_up_scheme http;',
    '    set $edge_up_target origin;',
    '    set $edge_up_pool edge_origin;',
    '    set $edge_up_host "";',
    '    set $edge_up_uri "";',
    '    proxy_http_version 1.1;',
    '    proxy_set_header Connection "";',
    '    proxy_set_header Host $edge_up_host;',
    '    proxy_set_header X-Edge-Svc "";',
    '    proxy_set_header X-Edge-Fetch "";',
    '    proxy_set_header X-Edge-Scheme "";',
    '    proxy_set_header X-Edge-Trace "";',
    '    proxy_set_header X-Edge-Preheat "";',
    '    proxy_set_header X-Edge-Cache "";',
    '    proxy_ssl_server_name on;',
    '    proxy_ssl_name $edge_up_host;',
    '    proxy_read_timeout 300s;',
    '    proxy_next_upstream error timeout http_502 http_503 http_504;',
    // the storage's (and an origin's) cache time for the client side's cache, which hides it from clients
    '    proxy_pass_header X-Accel-Expires;',
    // the origin's Date: the client side stores it and sends it with hits (RFC 9111 §4)
    '    proxy_pass_header Date;',
    '    proxy_buffering on;',
    '    location / {',
    '      rewrite_by_lua_block { require("edge_fetch").rewrite() }',
    '      proxy_pass $edge_up_scheme://$edge_up_pool;',
    '      header_filter_by_lua_block { require("edge_fetch").header() }',
    '    }',
    // a file service's storage behind the control plane (the node's key); intercepting 404 only when the service has an origin to ask next
    '    location @storage {',
    '      proxy_pass $edge_up_scheme://$edge_up_pool$edge_up_uri;',
    '      proxy_set_header Authorization $edge_node_auth;',
    '      proxy_set_header Accept-Encoding "";',
    '      header_filter_by_lua_block { require("edge_fetch").header() }',
    '    }',
    '    location @storage_or_origin {',
    '      proxy_pass $edge_up_scheme://$edge_up_pool$edge_up_uri;',
    '      proxy_set_header Authorization $edge_node_auth;',
    '      proxy_set_header Accept-Encoding "";',
    '      proxy_intercept_errors on;',
    '      error_page 404 = @storage_miss;',
    '      header_filter_by_lua_block { require("edge_fetch").header() }',
    '    }',
    '    location @storage_miss {',
    '      rewrite_by_lua_block { require("edge_fetch").storage_miss() }',
    '      proxy_pass $edge_up_scheme://$edge_up_pool;',
    '      header_filter_by_lua_block { require("edge_fetch").header() }',
    '    }',
    '  }',
    '}',
    '',
  ];
  return lines.join('\n');
}

/** A Lua string literal (the options are ASCII: a key, a URL). */
function luaQ(s: string): string {
  let out = '"';
  for (const b of Buffer.from(s, 'utf8')) {
    const ch = String.fromCharCode(b);
    out += /[A-Za-z0-9 _.\-/:=&?#@!~*+%^|<>;,()]/.test(ch) ? ch : `\\${String(b).padStart(3, '0')}`;
  }
  return out + '"';
}
