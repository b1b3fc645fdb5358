import type { EdgeCompiler } from '../../edge';

/**
 * HTTP/2 on the edge: the service's TLS profile listens with `http2`, so that its HTTPS handshake offers
 * h2 by ALPN (clients without HTTP/2 still get http/1.1). Plain HTTP stays HTTP/1.1 (no h2c).
 */
const edge: EdgeCompiler = (v: { status: string }) => ({ tls: { http2: v.status === 'enable' } });

export default edge;
