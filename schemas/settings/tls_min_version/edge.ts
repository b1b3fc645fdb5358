import type { EdgeCompiler, EdgeOutput } from '../../edge';

type Min = NonNullable<NonNullable<EdgeOutput['tls']>['min']>;

/** The stored names (TLSv1.0 …) as nginx's ssl_protocols spells them. */
const NGINX: Record<string, Min> = { 'TLSv1.0': 'TLSv1', 'TLSv1.1': 'TLSv1.1', 'TLSv1.2': 'TLSv1.2', 'TLSv1.3': 'TLSv1.3' };

/**
 * 最低 TLS 版本 on the edge: the minimum of the service's TLS profile, so that its HTTPS sockets offer
 * only this version and above (ssl_protocols); a client that offers only older versions fails the
 * handshake. TLSv1 and TLSv1.1 need OpenSSL's security level 0 (their MD5/SHA-1 handshake signatures),
 * which the profile's sockets set when the minimum is below TLSv1.2 (src/edge/compile/service.ts).
 */
const edge: EdgeCompiler = (v: { version: string }) => ({ tls: { min: NGINX[v.version] ?? 'TLSv1' } });

export default edge;
