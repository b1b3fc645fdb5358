/**
 * One service's nginx configuration: a pure function of the service's JSON (EdgeService) and the
 * settings' compilers (schemas/settings/<id>/edge.ts). Golden tests run it without nginx.
 *
 * The file holds the service's http-level parts (upstream, maps), one plain-HTTP server block with all
 * its domains, and one TLS server block per certificate, listening on the Unix socket of the service's
 * TLS profile (the SNI router in front sends each domain to its profile, see ./main.ts).
 */
import type { EdgeCompiler, EdgeContext, EdgeLocation, EdgeOutput } from '../../../schemas/edge';
import type { EdgeService } from '../../shared/edge';
import { EDGE_REFUSALS, EDGE_TEXTS } from '../../shared/edge';
import { rulesParts } from '../rules/lua';

export interface CompileOptions {
  ports: { http: number; https: number };
  /** Address the plain-HTTP listener binds, e.g. 127.0.0.1 */
  listen: string;
  /** Absolute path of the folder holding the TLS profiles' sockets. */
  runDir: string;
  /** The control plane's base URL (file services' storage is behind its edge API). */
  controlUrl: string;
  /** Where the edge's static pages are (the "service closed" page …) — absolute. */
  pagesDir: string;
}

export interface TlsProfile {
  min: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  tls13: boolean;
  http2: boolean;
}

export const profileKey = (p: TlsProfile) => `${p.min.replace('TLSv', 'v').replace('.', '')}-${p.tls13 ? 't13' : 'n13'}-${p.http2 ? 'h2' : 'h1'}`;

export interface CompiledService {
  id: number;
  version: number;
  /** The file's text (services/s<id>.conf). */
  text: string;
  /** Certificate files it needs: name → PEM. */
  files: Record<string, string>;
  /** Its HTTPS domains and the profile their socket belongs to. */
  tls: { profile: TlsProfile; domains: string[] } | null;
  /** Chinese notes by setting id: saved, but not done as asked on this edge. */
  notes: Record<string, string>;
  /** Set when the service cannot be compiled at all (a compiler threw): Chinese. */
  error?: string;
}

/** Quotes for nginx: double quotes, with backslash, quote and dollar escaped. */
export function q(text: string): string {
  return `"${String(text).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\$/g, '${dollar}')}"`;
}

const TLS_ORDER = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const;

/** The protocols of a profile for ssl_protocols. */
export function protocolsOf(p: TlsProfile): string[] {
  const from = TLS_ORDER.indexOf(p.min);
  return TLS_ORDER.filter((v, i) => i >= from && (v !== 'TLSv1.3' || p.tls13));
}

const indent = (lines: string[], n = 2) => lines.map((l) => ' '.repeat(n) + l);

/** The compilers in the order of their ids, sorted once per map (sorting per service cost a second per 10,000). */
const sortedCache = new WeakMap<Map<string, EdgeCompiler>, [string, EdgeCompiler][]>();
function sortedCompilers(compilers: Map<string, EdgeCompiler>): [string, EdgeCompiler][] {
  let sorted = sortedCache.get(compilers);
  if (!sorted) {
    sorted = [...compilers.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    sortedCache.set(compilers, sorted);
  }
  return sorted;
}

export function compileService(s: EdgeService, compilers: Map<string, EdgeCompiler>, opts: CompileOptions): CompiledService {
  const prefix = `s${s.id}`;
  const notes: Record<string, string> = {};
  const base: CompiledService = { id: s.id, version: s.version, text: '', files: {}, tls: null, notes };
  const domains = s.domains.map((d) => d.name);
  if (s.kind === 'live') notes.live = EDGE_TEXTS.liveOutOfScope;
  if (!domains.length || s.kind === 'live') {
    return { ...base, text: `# ${s.name} (${s.kind}) v${s.version}: ${domains.length ? '直播服务不在本节点' : '没有域名'}\n` };
  }
  const ctx: EdgeContext = {
    service: { id: s.id, name: s.name, kind: s.kind, domains },
    prefix,
    setting: (id) => s.settings[id],
    ports: opts.ports,
    q,
    control: opts.controlUrl,
  };
  const outs: [string, EdgeOutput][] = [];
  for (const [id, compile] of sortedCompilers(compilers)) {
    if (!(id in s.settings)) continue;
    try {
      const out = compile(s.settings[id], ctx);
      if (!out) continue;
      if (out.unsupported) notes[id] = out.unsupported;
      outs.push([id, out]);
    } catch (e) {
      return { ...base, error: `设置“${id}”无法编译：${(e as Error).message}` };
    }
  }
  const all = <K extends keyof EdgeOutput>(k: K) => outs.flatMap(([, o]) => (o[k] as unknown[] | undefined) ?? []) as NonNullable<EdgeOutput[K]>;

  // where misses go: the origin setting, else the project's storage for file services, else nowhere
  const origin = outs.map(([, o]) => o.origin).find(Boolean);
  const lines: string[] = [`# ${s.name} (${s.kind}) v${s.version}`];
  lines.push(...all('http'));

  const profile: TlsProfile = { min: 'TLSv1', tls13: false, http2: false };
  for (const [, o] of outs) Object.assign(profile, Object.fromEntries(Object.entries(o.tls ?? {}).filter(([, v]) => v !== undefined)));

  const proxy: string[] = [];
  /** A file service with 回源 configured: what the storage does not hold (404) is fetched from the origin. */
  const fileOrigin = s.kind === 'file' && origin ? origin : null;
  const originLines = (o: NonNullable<typeof origin>) => [`proxy_pass ${o.pass};`, `proxy_set_header Host ${o.host ? q(o.host) : '$host'};`];
  if (origin && !fileOrigin) {
    proxy.push(...originLines(origin));
  } else if (s.kind === 'file') {
    const u = new URL(opts.controlUrl);
    // the path percent-encoded again segment by segment ($uri is decoded; a variable in proxy_pass is sent as is)
    const esc = 'set_by_lua_block $edge_file_uri { return require("edge_files").escape_path(ngx.var.uri) }'; // (a 缩略图版本 sets it before its rewrite)
    proxy.push(esc, `proxy_pass ${u.protocol}//${u.host}/edge/v1/files/${encodeURIComponent(s.name)}$edge_file_uri;`, `proxy_set_header Host ${q(u.host)};`, 'proxy_set_header Authorization $edge_node_auth;');
    // a file the storage does not hold goes to the origin (docs/edge.md "File services and their origin")
    if (fileOrigin) proxy.push('proxy_intercept_errors on;', `error_page 404 = @${prefix}_file_origin;`);
  } else {
    proxy.push('return 502;');
  }
  const common = [
    'proxy_set_header X-Real-IP $remote_addr;',
    'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    'proxy_set_header X-Forwarded-Proto $scheme;',
    'proxy_http_version 1.1;',
    'proxy_set_header Connection "";',
    // the node's own headers carry its key: never sent on to an origin
    'proxy_set_header X-Edge-Trace "";',
    'proxy_set_header X-Edge-Preheat "";',
    'proxy_ssl_server_name on;',
    'proxy_cache edge_cache;',
    'proxy_cache_key $host$uri?$edge_key_args;',
    ...all('proxy'),
  ];
  proxy.push(...common);
  const rules = s.paused ? null : rulesParts(s); // edge rules (src/edge/rules/lua.ts)
  if (rules) proxy.splice(0, proxy.length, ...rules.proxy(proxy));

  const body: string[] = [];
  body.push(`set $edge_service ${s.id};`, 'set $edge_key_args $args;', 'set $edge_refusal "";'); // $edge_refusal: EDGE_REFUSALS in src/shared/edge.ts
  if (s.paused) {
    // the bandwidth cap paused the service: the provider's page, nothing reaches the origin
    // (unless a setting places its own page first: 自定义错误页面 for 40310006, fetched from the origin)
    const closed = outs.flatMap(([, o]) => (o.closed ? [o.closed] : []));
    body.push(`set $edge_refusal ${EDGE_REFUSALS.closed};`, ...closed.flatMap((c) => c.server ?? []));
    for (const loc of closed.flatMap((c) => c.locations ?? [])) body.push(`location ${loc.match} {`, ...indent([...loc.directives, ...proxy]), '}');
    body.push('error_page 403 /__edge/closed.html;', 'location = /__edge/closed.html { internal; alias ' + q(opts.pagesDir + '/closed.html') + '; add_header X-Cache MISS always; }', 'location / { return 403; }');
  } else {
    body.push(...all('server'));
    if (rules) body.push(...rules.server);
    const access = all('access_lua');
    if (access.length) body.push('access_by_lua_block {', ...indent(access), '}');
    // X-Cache on every answer ($edge_x_cache: a map in nginx.conf; no Lua on a request that needs none),
    // then the settings' and rules' header filters (one block: nginx keeps only one per level)
    body.push('add_header X-Cache $edge_x_cache always;');
    const headerLua = [...all('header_lua'), ...(rules?.header ?? [])];
    if (headerLua.length) body.push('header_filter_by_lua_block {', ...indent(headerLua), '}');
    for (const [k, block] of [['body_lua', 'body_filter_by_lua_block'], ['log_lua', 'log_by_lua_block']] as const) if (all(k).length) body.push(`${block} {`, ...indent(all(k)), '}');
    const locations: EdgeLocation[] = [...all('locations')];
    const kindOrder = (m: string) => (m.startsWith('=') ? 0 : m.startsWith('^~') ? 1 : m.startsWith('~') ? 2 : 3);
    locations.sort((a, b) => kindOrder(a.match) - kindOrder(b.match) || (a.order ?? 0) - (b.order ?? 0));
    const seen = new Set<string>();
    for (const loc of locations) {
      if (seen.has(loc.match)) continue; // the first of two identical matches wins, as nginx would refuse the second
      seen.add(loc.match);
      body.push(`location ${loc.match} {`, ...indent([...loc.directives, ...proxy]), '}');
    }
    if (!seen.has('/')) body.push('location / {', ...indent(proxy), '}');
    // the storage answered 404: the same request to the customer's origin, without the node's key
    if (fileOrigin) body.push(`location @${prefix}_file_origin {`, ...indent([...originLines(fileOrigin), ...common]), '}');
  }

  const http = domains.filter(Boolean);
  const force = s.domains.filter((d) => d.force_https).map((d) => d.name);
  lines.push('server {', `  listen ${opts.listen}:${opts.ports.http};`, `  server_name ${http.join(' ')};`);
  if (force.length) {
    lines.push(`  set $${prefix}_force 0;`);
    for (const d of force) lines.push(`  if ($host = ${q(d)}) { set $${prefix}_force 1; }`);
    const port = opts.ports.https === 443 ? '' : `:${opts.ports.https}`;
    lines.push(`  if ($${prefix}_force) { return 301 https://$host${port}$request_uri; }`);
  }
  lines.push(...indent(body), '}');

  const files: Record<string, string> = {};
  const tlsDomains: string[] = [];
  for (const cert of s.certificates) {
    const names = s.domains.filter((d) => d.https && d.certificate_id === cert.id).map((d) => d.name);
    if (!names.length) continue;
    tlsDomains.push(...names);
    files[`certs/c${cert.id}.crt`] = cert.certificate.trim() + '\n';
    files[`certs/c${cert.id}.key`] = cert.private_key.trim() + '\n';
    lines.push(
      'server {',
      `  listen unix:${opts.runDir}/tls-${profileKey(profile)}.sock ssl${profile.http2 ? ' http2' : ''} proxy_protocol;`,
      `  server_name ${names.join(' ')};`,
      `  ssl_protocols ${protocolsOf(profile).join(' ')};`,
      ...(TLS_ORDER.indexOf(profile.min) < 2 ? ['  ssl_ciphers DEFAULT:@SECLEVEL=0;'] : []),
      `  ssl_certificate certs/c${cert.id}.crt;`,
      `  ssl_certificate_key certs/c${cert.id}.key;`,
      ...indent(body),
      '}',
    );
  }
  return { ...base, text: lines.join('\n') + '\n', files, tls: tlsDomains.length ? { profile, domains: tlsDomains } : null };
}
