/**
 * Where a customer's origin may not point (docs/edge.md "Access control, paused services and origins"):
 * the edge fetches from an origin on the customer's behalf, so an origin at this machine's loopback, a
 * link-local address or a cloud metadata service would let a customer read what only the edge can reach.
 *
 * One rule for every place an origin is written: the origin setting's guard (schemas/settings/origin/
 * rules.ts) and the DDoS forwarding rules' origins (schemas/forms/ddos_l7, ddos_non_website: rules.ts),
 * each run by the console and the server alike. The operator's own demo origin (DEMO_ORIGIN, the
 * server variable `demo_origin`) stays allowed at exactly its address and port.
 *
 * The check is on the text written, without DNS: a public name that resolves to a local address is not
 * caught here (docs/edge.md says so).
 */

import { errorText, type FieldError } from './errors';

/** The server variable (setting.json "serverVars") carrying the operator's demo origin, `host:port`. */
export const DEMO_ORIGIN_VAR = 'demo_origin';
/** The server variable of the operator's allowance of origins (EDGE_ALLOWED_ORIGINS). */
export const ALLOWED_ORIGINS_VAR = 'edge_allowed_origins';

/** Names that are this machine or a metadata service whatever DNS says. */
const LOCAL_NAMES = new Set([
  'localhost',
  'localhost.localdomain',
  'ip6-localhost',
  'ip6-loopback',
  'metadata',
  'metadata.google.internal',
  'metadata.tencentyun.com',
  'instance-data',
  'instance-data.ec2.internal',
]);

/** Metadata services outside the link-local range (Alibaba Cloud's; AWS's IPv6 one is below). */
const METADATA_V4 = new Set([ipv4('100.100.100.200')!]);

type V4 = number;

function ipv4(text: string): V4 | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return null;
  return ((parts[0] << 24) >>> 0) + (parts[1] << 16) + (parts[2] << 8) + parts[3];
}

/**
 * The address a resolver's inet_aton makes of a numeric name ("127.1", "0x7f.0.0.1", "2130706433",
 * "0177.0.0.1"): nginx hands names it cannot read as a.b.c.d to getaddrinfo, which reads them so.
 */
function inetAton(text: string): V4 | null {
  const parts = text.split('.');
  if (parts.length < 1 || parts.length > 4) return null;
  const nums: number[] = [];
  for (const p of parts) {
    let n: number;
    if (/^0x[0-9a-f]*$/i.test(p)) n = p.length > 2 ? parseInt(p.slice(2), 16) : 0;
    else if (/^0[0-7]*$/.test(p)) n = parseInt(p, 8);
    else if (/^[1-9]\d*$/.test(p)) n = Number(p);
    else return null;
    nums.push(n);
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255)) return null;
  if (last >= 2 ** (8 * (4 - nums.length))) return null;
  let addr = 0;
  nums.forEach((n, i) => (addr += n * 2 ** (8 * (3 - i))));
  return addr + last;
}

/** nginx's own reading of a.b.c.d: every part decimal, leading zeros ignored ("0177.0.0.1" is 177.0.0.1). */
function nginxAddr(text: string): V4 | null {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return null;
  return ((parts[0] << 24) >>> 0) + (parts[1] << 16) + (parts[2] << 8) + parts[3];
}

const inV4 = (a: V4, net: string, bits: number) => {
  const base = ipv4(net)!;
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return ((a & mask) >>> 0) === ((base & mask) >>> 0);
};

function localV4(a: V4): boolean {
  return (
    inV4(a, '127.0.0.0', 8) || // loopback
    inV4(a, '0.0.0.0', 8) || // "this host": connecting to 0.0.0.0 reaches the loopback on Linux
    inV4(a, '169.254.0.0', 16) || // link-local, with the metadata service 169.254.169.254
    METADATA_V4.has(a)
  );
}

/** Sixteen bytes of an IPv6 address, or null. */
function ipv6(text: string): number[] | null {
  let s = text.replace(/^\[|\]$/g, '').toLowerCase();
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(':')) return null;
  // a trailing dotted IPv4 (::ffff:127.0.0.1) as its two groups
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4) {
    const a = ipv4(v4[1]);
    if (a === null) return null;
    s = s.slice(0, -v4[1].length) + ((a >>> 16) & 0xffff).toString(16) + ':' + (a & 0xffff).toString(16);
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const group = (h: string) => (h ? h.split(':') : []);
  const head = group(halves[0]);
  const rest = halves.length === 2 ? group(halves[1]) : [];
  if ([...head, ...rest].some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  const total = head.length + rest.length;
  if (halves.length === 1 ? total !== 8 : total > 7) return null;
  const all = [...head, ...Array(8 - total).fill('0'), ...rest].map((g) => parseInt(g, 16));
  return all.flatMap((w) => [w >> 8, w & 0xff]);
}

function localV6(b: number[]): boolean {
  const zeroUpTo = (n: number) => b.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(15) && (b[15] === 1 || b[15] === 0)) return true; // ::1 loopback, :: unspecified
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0x80) return true; // fe80::/10 link-local
  // AWS's IPv6 metadata service fd00:ec2::254
  if (b.join(',') === [0xfd, 0, 0x0e, 0xc2, ...Array(10).fill(0), 0x02, 0x54].join(',')) return true;
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) addresses: the IPv4 rule
  const v4 = ((b[12] << 24) >>> 0) + (b[13] << 16) + (b[14] << 8) + b[15];
  if (zeroUpTo(10) && ((b[10] === 0xff && b[11] === 0xff) || (b[10] === 0 && b[11] === 0))) return localV4(v4);
  return false;
}

/**
 * Whether an origin address (an IPv4 or IPv6 address or a host name, as written) is this machine, a
 * link-local address or a metadata service: 127.0.0.0/8, 0.0.0.0/8, 169.254.0.0/16, ::1, fe80::/10,
 * IPv4-mapped forms of those, metadata addresses, and names such as localhost (and *.localhost).
 */
export function isLocalOriginAddress(address: string): boolean {
  const a = address.trim().toLowerCase().replace(/\.$/, '');
  if (!a) return false;
  if (LOCAL_NAMES.has(a) || a.endsWith('.localhost')) return true;
  const v6 = ipv6(a);
  if (v6) return localV6(v6);
  for (const v4 of [nginxAddr(a), inetAton(a)]) if (v4 !== null && localV4(v4)) return true;
  return false;
}

function privateV4(a: V4): boolean {
  return (
    inV4(a, '10.0.0.0', 8) || // private (RFC 1918)
    inV4(a, '172.16.0.0', 12) ||
    inV4(a, '192.168.0.0', 16) ||
    inV4(a, '100.64.0.0', 10) || // carrier-grade NAT (RFC 6598)
    inV4(a, '192.0.0.0', 24) || // IETF protocol assignments
    inV4(a, '198.18.0.0', 15) || // benchmarking
    inV4(a, '224.0.0.0', 4) || // multicast
    inV4(a, '240.0.0.0', 4) // reserved, and the broadcast address
  );
}

function privateV6(b: number[]): boolean {
  if ((b[0] & 0xfe) === 0xfc) return true; // fc00::/7 unique local
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0xc0) return true; // fec0::/10 site-local (deprecated)
  if (b[0] === 0xff) return true; // ff00::/8 multicast
  const v4 = ((b[12] << 24) >>> 0) + (b[13] << 16) + (b[14] << 8) + b[15];
  const zeroUpTo = (n: number) => b.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(10) && ((b[10] === 0xff && b[11] === 0xff) || (b[10] === 0 && b[11] === 0))) return privateV4(v4);
  // NAT64 (64:ff9b::/96) reaches the IPv4 address it embeds
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && b.slice(4, 12).every((x) => x === 0)) return privateV4(v4) || localV4(v4);
  return false;
}

/**
 * Whether an origin address, as written, is in a range of the provider's own network rather than the
 * internet (issue 34 item 12): private (10/8, 172.16/12, 192.168/16), carrier-grade NAT (100.64/10),
 * 192.0.0/24, benchmarking (198.18/15), multicast (224/4), reserved (240/4); IPv6 unique local (fc00::/7),
 * site-local, multicast, and IPv4-mapped or NAT64 forms of those. Local addresses are
 * `isLocalOriginAddress`'s (20011); these answer 20012. Documentation ranges (192.0.2/24, 198.51.100/24,
 * 203.0.113/24, 2001:db8::/32) are not refused: they route nowhere. Names are judged as written (no DNS).
 */
export function isPrivateOriginAddress(address: string): boolean {
  const a = address.trim().toLowerCase().replace(/\.$/, '');
  if (!a) return false;
  const v6 = ipv6(a);
  if (v6) return privateV6(v6);
  for (const v4 of [nginxAddr(a), inetAton(a)]) if (v4 !== null && privateV4(v4)) return true;
  return false;
}

/**
 * The operator's own allowance (EDGE_ALLOWED_ORIGINS, comma-separated `host` or `host:port`, the server
 * variable edge_allowed_origins): origins a customer may write even in a refused range.
 */
export function isAllowedOrigin(address: string, port: number, allowed: string | undefined): boolean {
  if (!allowed) return false;
  return allowed
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
    .some((entry) => (/:\d+$/.test(entry) && !entry.includes('::') ? isOperatorOrigin(address, port, entry) : entry.toLowerCase() === address.trim().toLowerCase()));
}

/** Whether `address:port` is exactly the operator's demo origin (`host:port`, the server variable). */
export function isOperatorOrigin(address: string, port: number, operator: string | undefined): boolean {
  if (!operator) return false;
  const i = operator.lastIndexOf(':');
  const host = i > 0 ? operator.slice(0, i) : operator;
  const p = i > 0 ? Number(operator.slice(i + 1)) : 80;
  return host.toLowerCase() === address.trim().toLowerCase() && p === port;
}

/** The origin servers a customer may not write: local addresses other than the operator's demo origin. */
export function refusedOrigins<T extends { address: string; port: number }>(servers: T[], operator?: string, allowed?: string): number[] {
  return originRefusals(servers, operator, allowed).filter((r) => r.code === 20011).map((r) => r.index);
}

/** Each refused origin server with its code: 20011 local, 20012 private or reserved; the demo origin and the allowance pass. */
export function originRefusals<T extends { address: string; port: number }>(servers: T[], operator?: string, allowed?: string): { index: number; code: 20011 | 20012 }[] {
  const out: { index: number; code: 20011 | 20012 }[] = [];
  servers.forEach((s, i) => {
    if (isOperatorOrigin(s.address, s.port, operator) || isAllowedOrigin(s.address, s.port, allowed)) return;
    if (isLocalOriginAddress(s.address)) out.push({ index: i, code: 20011 });
    else if (isPrivateOriginAddress(s.address)) out.push({ index: i, code: 20012 });
  });
  return out;
}

/** A list of origin addresses (the DDoS forwarding rules' `origins`): 20011 at each local one. */
export function localOriginErrors(origins: unknown, path = '/origins'): FieldError[] {
  if (!Array.isArray(origins)) return [];
  return origins.flatMap((a, i) => (typeof a === 'string' && isLocalOriginAddress(a) ? [{ path: `${path}/${i}`, message: errorText(20011), code: 20011 }] : []));
}
