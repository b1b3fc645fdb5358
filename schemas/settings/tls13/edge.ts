import type { EdgeCompiler } from '../../edge';

/**
 * TLS 1.3 on the edge: whether the service's TLS profile offers TLSv1.3 (ssl_protocols). Off, a client
 * that offers only TLS 1.3 fails the handshake, and one that offers both gets TLS 1.2. A minimum of
 * TLSv1.3 keeps it on whatever this says (the rules forbid that pair; an edge must still serve).
 */
const edge: EdgeCompiler = (v: { tls: boolean }, ctx) => {
  const min = ctx.setting('tls_min_version') as { version?: string } | undefined;
  return { tls: { tls13: !!v.tls || min?.version === 'TLSv1.3' } };
};

export default edge;
