/**
 * CNAME and TXT lookups behind a small interface, so the server asks real DNS (node:dns) and the tests
 * inject a stub through the configuration (ServerConfig.cnameResolver) — never a mock DNS server.
 */
import { Resolver } from 'node:dns/promises';
import type { CnameStatus } from '../../shared/domains';

export interface CnameResolver {
  /** The CNAME targets of a host; rejects with a node:dns error code (ENODATA, ENOTFOUND, ETIMEOUT, …). */
  resolveCname(host: string): Promise<string[]>;
  /** The TXT records of a host, each as its strings (the ownership proof, ./ownership.ts); rejects as above. */
  resolveTxt?(host: string): Promise<string[][]>;
}

/** node:dns with one try and a short timeout; also bounded by a timer in case the resolver hangs. */
export function dnsResolver(timeoutMs: number): CnameResolver {
  return {
    resolveCname: (host) => bounded(timeoutMs, (r) => r.resolveCname(host)),
    resolveTxt: (host) => bounded(timeoutMs, (r) => r.resolveTxt(host)),
  };
}

async function bounded<T>(timeoutMs: number, ask: (r: Resolver) => Promise<T>): Promise<T> {
  const r = new Resolver({ timeout: timeoutMs, tries: 1 });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      r.cancel();
      reject(Object.assign(new Error('timeout'), { code: 'ETIMEOUT' }));
    }, timeoutMs + 100);
  });
  try {
    return await Promise.race([ask(r), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface CnameCheck {
  status: CnameStatus;
  resolved: string[];
}

const bare = (h: string) => h.toLowerCase().replace(/\.$/, '');

/** Whether a domain points to its expected CNAME. A wildcard domain is checked through one of its names. */
export async function checkCname(resolver: CnameResolver, domain: string, expected: string): Promise<CnameCheck> {
  const host = domain.startsWith('*.') ? `cname-check.${domain.slice(2)}` : domain;
  try {
    const resolved = (await resolver.resolveCname(host)).map(bare);
    return { status: resolved.includes(bare(expected)) ? 'ok' : 'mismatch', resolved };
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ENODATA' || code === 'ENOTFOUND' || code === 'NXDOMAIN') return { status: 'missing', resolved: [] };
    if (code === 'ETIMEOUT' || code === 'ECANCELLED' || code === 'ECONNREFUSED') return { status: 'timeout', resolved: [] };
    return { status: 'error', resolved: [] };
  }
}
