/**
 * Where a client address is, from Debian's geoip-database (the legacy GeoIP country format, read here
 * in node: /usr/share/GeoIP/GeoIP.dat for IPv4, GeoIPv6.dat for IPv6). The database knows countries
 * only: a mainland address is China without its province, so its region stays 其他 (other); Hong Kong,
 * Macau and Taiwan have regions of their own; other countries go to their continent's overseas region.
 * No carrier is known (the database has none): always other. Loopback addresses are `local`.
 * docs/statistics.md "Edge traffic".
 */
import fs from 'node:fs';
import net from 'node:net';
import { OTHER_REGION } from '../../shared/stats/constants';
import { COUNTRY_CODES, COUNTRY_CONTINENTS } from './geoip-codes';

export const GEOIP_V4 = '/usr/share/GeoIP/GeoIP.dat';
export const GEOIP_V6 = '/usr/share/GeoIP/GeoIPv6.dat';

const COUNTRY_BEGIN = 16776960;
const EDITION_COUNTRY = 1;
const EDITION_COUNTRY_V6 = 12;

/** One legacy country database held in memory (about 1–2 MB). */
export class CountryDb {
  private constructor(
    private readonly buf: Buffer,
    readonly bits: 32 | 128,
  ) {}

  /** The database at `file`, or null when it is missing or not a country edition. */
  static open(file: string): CountryDb | null {
    let buf: Buffer;
    try {
      buf = fs.readFileSync(file);
    } catch {
      return null;
    }
    // the edition: three 0xFF bytes then the type, within the last bytes of the file
    for (let i = buf.length - 3; i >= Math.max(0, buf.length - 3 - 20 * 200); i--) {
      if (buf[i] === 0xff && buf[i + 1] === 0xff && buf[i + 2] === 0xff) {
        let type = buf[i + 3];
        if (type >= 106) type -= 105;
        if (type === EDITION_COUNTRY) return new CountryDb(buf, 32);
        if (type === EDITION_COUNTRY_V6) return new CountryDb(buf, 128);
        return null;
      }
    }
    return new CountryDb(buf, 32); // no info block: the oldest country files
  }

  /** The ISO country code of an address given as its bits (big-endian bytes), or null. */
  lookup(bytes: Uint8Array): string | null {
    let offset = 0;
    for (let depth = this.bits - 1; depth >= 0; depth--) {
      const byte = bytes[(this.bits - 1 - depth) >> 3];
      const bit = (byte >> (7 - ((this.bits - 1 - depth) & 7))) & 1;
      const base = 6 * offset + (bit ? 3 : 0);
      if (base + 3 > this.buf.length) return null;
      const x = this.buf[base] | (this.buf[base + 1] << 8) | (this.buf[base + 2] << 16);
      if (x >= COUNTRY_BEGIN) {
        const code = COUNTRY_CODES[x - COUNTRY_BEGIN];
        return code && code !== '--' ? code : null;
      }
      offset = x;
    }
    return null;
  }
}

const CONTINENT_REGION: Record<string, string> = {
  AS: 'asia_pacific',
  OC: 'oceania',
  EU: 'europe',
  NA: 'north_america',
  SA: 'south_america',
  AF: 'africa',
};
const OWN_REGION: Record<string, string> = { HK: 'hongkong', MO: 'macau', TW: 'taiwan', CN: OTHER_REGION };

/** The statistics region of a country code (src/shared/stats/constants REGIONS), other when unknown. */
export function regionOfCountry(code: string | null): string {
  if (!code) return OTHER_REGION;
  if (code in OWN_REGION) return OWN_REGION[code];
  const i = COUNTRY_CODES.indexOf(code);
  return (i > 0 && CONTINENT_REGION[COUNTRY_CONTINENTS[i]]) || OTHER_REGION;
}

function v4Bytes(ip: string): Uint8Array {
  return Uint8Array.from(ip.split('.').map(Number));
}

function v6Bytes(ip: string): Uint8Array {
  const [head, tail = ''] = ip.includes('::') ? ip.split('::') : [ip, undefined as unknown as string];
  const parse = (s: string) => (s ? s.split(':') : []).flatMap((g) => (g.includes('.') ? (([a, b, c, d]) => [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)])(g.split('.').map(Number)) : [g]));
  const h = parse(head);
  const t = ip.includes('::') ? parse(tail) : [];
  const groups = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    const v = parseInt(g, 16) || 0;
    out[2 * i] = v >> 8;
    out[2 * i + 1] = v & 0xff;
  });
  return out;
}

export interface Place {
  region: string;
  /** carrier: the country database knows none */
  isp: string;
  ip_type: 'ipv4' | 'ipv6';
  /** loopback: the node's own machine */
  local: boolean;
  country: string | null;
}

/** Places client addresses; caches answers (a node sees the same clients again and again). */
export class Geo {
  private cache = new Map<string, Place>();

  constructor(
    private readonly v4: CountryDb | null = CountryDb.open(GEOIP_V4),
    private readonly v6: CountryDb | null = CountryDb.open(GEOIP_V6),
  ) {}

  get available(): boolean {
    return this.v4 !== null;
  }

  place(ip: string): Place {
    const hit = this.cache.get(ip);
    if (hit) return hit;
    const p = this.compute(ip);
    if (this.cache.size > 100_000) this.cache.clear();
    this.cache.set(ip, p);
    return p;
  }

  private compute(raw: string): Place {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(raw);
    const ip = mapped ? mapped[1] : raw;
    const kind = net.isIP(ip);
    if (kind === 4) {
      const local = ip.startsWith('127.');
      const country = local ? null : (this.v4?.lookup(v4Bytes(ip)) ?? null);
      return { region: regionOfCountry(country), isp: 'other', ip_type: 'ipv4', local, country };
    }
    if (kind === 6) {
      const bytes = v6Bytes(ip);
      const local = bytes.every((b, i) => b === (i === 15 ? 1 : 0));
      const country = local ? null : (this.v6?.lookup(bytes) ?? null);
      return { region: regionOfCountry(country), isp: 'other', ip_type: 'ipv6', local, country };
    }
    // a unix socket or anything else: not a client address we can place
    return { region: OTHER_REGION, isp: 'other', ip_type: 'ipv4', local: false, country: null };
  }
}
