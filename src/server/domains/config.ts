/**
 * The configuration of the service tabs (docs/service-tabs.md#configuration), read from the environment
 * by configFromEnv (ServerConfig.domains).
 */
import { DNS_TIMEOUT_MS } from '../../shared/domains';
import type { CnameResolver } from './resolver';

export interface DomainConfig {
  /** Every service's default domain is <bucket>.<defaultSuffix> (DEFAULT_DOMAIN_SUFFIX). */
  defaultSuffix: string;
  /** Account names and bucket names for which the default domain is shown (DEFAULT_DOMAIN_EXEMPT; spec 002 §6). */
  exempt: string[];
  /** Time limit of one CNAME lookup, ms (DNS_TIMEOUT_MS). */
  dnsTimeoutMs: number;
  /** CNAME lookups; node:dns when absent. Tests inject a stub here. */
  resolver?: CnameResolver;
  /** The bandwidth-cap job runs every this many ms (COST_CONTROL_EVERY_MS; 0 turns it off). */
  costControlEveryMs: number;
}

export function domainConfigFromEnv(env: NodeJS.ProcessEnv): DomainConfig {
  return {
    defaultSuffix: (env.DEFAULT_DOMAIN_SUFFIX ?? 'b0.cdn-default.example.net').trim().toLowerCase(),
    exempt: (env.DEFAULT_DOMAIN_EXEMPT ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    dnsTimeoutMs: Number(env.DNS_TIMEOUT_MS ?? DNS_TIMEOUT_MS),
    costControlEveryMs: Number(env.COST_CONTROL_EVERY_MS ?? 300000),
  };
}
