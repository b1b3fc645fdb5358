import type { EdgeCompiler } from '../../edge';

interface Hsts {
  enable: boolean;
  max_age: number;
  include_subdomains: boolean;
  preload: boolean;
}

/** The header's value, as a client reads it. */
export function hstsValue(v: Hsts): string {
  return [`max-age=${v.max_age}`, ...(v.include_subdomains ? ['includeSubDomains'] : []), ...(v.preload ? ['preload'] : [])].join('; ');
}

/**
 * HSTS on the edge (edge.lua): every answer over HTTPS (whatever its status, the edge's own included) carries
 * `Strict-Transport-Security: max-age=N[; includeSubDomains][; preload]`, replacing the origin's; answers
 * over plain HTTP never do (browsers ignore it there, RFC 6797 §8.1). Off, the origin's header passes.
 */
const edge: EdgeCompiler = (v: Hsts) => {
  if (!v.enable) return null;
  return { data: hstsValue(v) };
};

export default edge;
