import type { EdgeCompiler } from '../../edge';

interface Cors {
  enable: boolean;
  allow_origins: string[];
  allow_methods: string[];
  allow_headers: string[];
  expose_headers: string[];
  max_age: number;
  allow_credentials: boolean;
}

/** What edge.lua receives: the origins to match and the headers' values, ready to send. */
export interface CorsData {
  /** `*`: every request is allowed (with or without Origin) and answered `*`, without Vary. */
  any?: true;
  /** `scheme://host[:port]`, lower case: matched exactly (the Origin lowered). */
  exact?: string[];
  /** `scheme://*.domain[:port]` as [`scheme://`, `.domain[:port]`], lower case: one or more labels between. */
  wild?: [string, string][];
  credentials?: true;
  methods: string;
  headers?: string;
  expose?: string;
  max_age: string;
}

/**
 * 跨域访问（CORS） on the edge (edge.lua acts on this data).
 * - An answer to a request whose Origin is allowed carries Access-Control-Allow-Origin (the origin
 *   itself, with Vary: Origin; `*` when every origin is allowed), Access-Control-Expose-Headers when
 *   configured and Access-Control-Allow-Credentials: true when configured. The origin site's own
 *   Access-Control-* headers are replaced, and removed when the Origin is refused: the edge decides.
 * - A preflight (OPTIONS with Origin and Access-Control-Request-Method) is answered by the edge and never
 *   reaches the origin: 204 with Allow-Origin, Allow-Methods, Allow-Headers (when configured), Max-Age
 *   and Allow-Credentials for an allowed Origin; 403 without any of them for a refused one.
 */
const edge: EdgeCompiler = (v: Cors) => {
  if (!v.enable) return null;
  const data: CorsData = { methods: v.allow_methods.join(', '), max_age: String(v.max_age) };
  if (v.allow_origins.includes('*')) data.any = true;
  else {
    const exact = v.allow_origins.filter((o) => !o.includes('*')).map((o) => o.toLowerCase());
    const wild = v.allow_origins.filter((o) => o.includes('*')).map((o) => o.toLowerCase().split('*') as [string, string]);
    if (exact.length) data.exact = [...new Set(exact)];
    if (wild.length) data.wild = wild;
  }
  if (v.allow_credentials) data.credentials = true;
  if (v.allow_headers.length) data.headers = v.allow_headers.join(', ');
  if (v.expose_headers.length) data.expose = v.expose_headers.join(', ');
  return { data };
};

export default edge;
