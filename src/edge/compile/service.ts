/**
 * One service as the edge's data (docs/edge.md "Services as data"): a pure function of the service's JSON
 * (EdgeService) and the settings' compilers (schemas/settings/<id>/edge.ts). Golden tests run it without
 * nginx. The agent loads the result into nginx's shared dictionaries (src/edge/lua/edge_core.lua): the
 * data (`json`), its hosts, the SNI router's socket for each HTTPS name and the certificates.
 */
import type { EdgeOrigin, EdgeOutput, EdgeSettingFolder } from '../../../schemas/edge';
import type { EdgeService } from '../../shared/edge';
import { EDGE_TEXTS } from '../../shared/edge';
import { compileRules } from '../rules/lua';

export interface CompileOptions {
  ports: { http: number; https: number };
  /** The control plane's base URL (file services' storage is behind its edge API). */
  controlUrl: string;
  /** A name's address, as the agent resolved it (origins by name). */
  resolve?: (name: string) => string | undefined;
}

export interface TlsProfile {
  min: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  tls13: boolean;
  http2: boolean;
}

/** The SNI router's socket for a profile: HTTP/2 or not, and OpenSSL's security level 0 below TLSv1.2. */
export const socketOf = (p: TlsProfile) => `${p.http2 ? 'h2' : 'h1'}${p.min === 'TLSv1' || p.min === 'TLSv1.1' ? 'l' : ''}`;

/** The data the workers get (what edge_core.lua reads). */
export interface ServiceData {
  id: number;
  v: number;
  name: string;
  kind: string;
  paused: boolean;
  /** Hosts whose plain-HTTP requests are sent to HTTPS (301). */
  force: string[];
  /** Absent without HTTPS names (JSON null would reach Lua as cjson.null). */
  tls?: { min: TlsProfile['min']; tls13: boolean; http2: boolean; hosts: Record<string, number> };
  fetch: { origin?: Omit<EdgeOrigin, 'servers'> & { primary: Server[]; backup: Server[] }; storage?: string; strip_accept_encoding?: boolean };
  /** Each setting with a Lua module: its data. */
  settings: Record<string, unknown>;
  /** The edge rules' Lua (src/edge/rules/lua.ts), built once per worker and version. */
  rules?: string;
  rules_key?: string;
}

interface Server {
  i: number;
  a: string;
  p: number;
  w: number;
}

export interface CompiledService {
  id: number;
  version: number;
  data: ServiceData;
  /** The data as loaded (JSON). */
  json: string;
  hosts: string[];
  /** HTTPS names → the SNI router's socket. */
  sni: Record<string, string>;
  /** Certificates it needs: id → JSON {crt, key}. */
  certs: Record<number, string>;
  /** Chinese notes by setting id: saved, but not done as asked on this edge. */
  notes: Record<string, string>;
  /** Set when the service cannot be compiled at all (a compiler threw): Chinese. */
  error?: string;
}

/** The compilers in the order of their ids, sorted once per map. */
const sortedCache = new WeakMap<Map<string, EdgeSettingFolder>, [string, EdgeSettingFolder][]>();
function sortedCompilers(compilers: Map<string, EdgeSettingFolder>): [string, EdgeSettingFolder][] {
  let sorted = sortedCache.get(compilers);
  if (!sorted) {
    sorted = [...compilers.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    sortedCache.set(compilers, sorted);
  }
  return sorted;
}

export function compileService(s: EdgeService, compilers: Map<string, EdgeSettingFolder>, opts: CompileOptions): CompiledService {
  const notes: Record<string, string> = {};
  const hosts = s.domains.map((d) => d.name.toLowerCase()).filter(Boolean);
  const data: ServiceData = { id: s.id, v: s.version, name: s.name, kind: s.kind, paused: s.paused, force: [], fetch: {}, settings: {} };
  const base = { id: s.id, version: s.version, data, json: '', hosts: [] as string[], sni: {}, certs: {}, notes };
  if (s.kind === 'live') notes.live = EDGE_TEXTS.liveOutOfScope;
  if (!hosts.length || s.kind === 'live') return { ...base, json: JSON.stringify(data) };
  const ctx = {
    service: { id: s.id, name: s.name, kind: s.kind, domains: hosts },
    setting: (id: string) => s.settings[id],
    ports: opts.ports,
    control: opts.controlUrl,
  };
  const outs: [string, EdgeOutput][] = [];
  for (const [id, folder] of sortedCompilers(compilers)) {
    if (!(id in s.settings)) continue;
    try {
      const out = folder.compile(s.settings[id], ctx);
      if (!out) continue;
      if (out.unsupported) notes[id] = out.unsupported;
      if (out.data !== undefined && folder.lua) data.settings[id] = out.data;
      outs.push([id, out]);
    } catch (e) {
      return { ...base, error: `设置“${id}”无法编译：${(e as Error).message}` };
    }
  }

  // where misses go: the origin setting, else the project's storage for file services, else nowhere
  const origin = outs.map(([, o]) => o.origin).find(Boolean);
  if (origin) {
    const servers = origin.servers.map((x, i) => ({ i: i + 1, a: opts.resolve?.(x.address) ?? x.address, p: x.port, w: x.weight, b: x.backup }));
    const { servers: _, ...rest } = origin;
    data.fetch.origin = { ...rest, primary: servers.filter((x) => !x.b).map(({ b: _b, ...x }) => x), backup: servers.filter((x) => x.b).map(({ b: _b, ...x }) => x) };
  }
  if (s.kind === 'file') data.fetch.storage = s.name;
  if (outs.some(([, o]) => o.plainOrigin)) data.fetch.strip_accept_encoding = true;

  const profile: TlsProfile = { min: 'TLSv1', tls13: false, http2: false };
  for (const [, o] of outs) Object.assign(profile, Object.fromEntries(Object.entries(o.tls ?? {}).filter(([, v]) => v !== undefined)));
  if (profile.min === 'TLSv1.3') profile.tls13 = true;

  data.force = s.domains.filter((d) => d.force_https).map((d) => d.name.toLowerCase());
  if (!s.paused && s.rules?.length) {
    const { factory, active } = compileRules(s.rules);
    if (active) {
      data.rules = factory;
      data.rules_key = `s${s.id}v${s.version}`;
    }
  }

  const sni: Record<string, string> = {};
  const certs: Record<number, string> = {};
  const tlsHosts: Record<string, number> = {};
  for (const cert of s.certificates) {
    const names = s.domains.filter((d) => d.https && d.certificate_id === cert.id).map((d) => d.name.toLowerCase());
    if (!names.length) continue;
    certs[cert.id] = JSON.stringify({ crt: cert.certificate.trim() + '\n', key: cert.private_key.trim() + '\n', fp: cert.fingerprint });
    for (const n of names) {
      tlsHosts[n] = cert.id;
      sni[n] = socketOf(profile);
    }
  }
  if (Object.keys(tlsHosts).length) data.tls = { ...profile, hosts: tlsHosts };
  return { ...base, json: JSON.stringify(data), hosts, sni, certs };
}
