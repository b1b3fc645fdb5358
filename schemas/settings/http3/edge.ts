import type { EdgeCompiler } from '../../edge';
import { EDGE_TEXTS } from '../../../src/shared/edge';

/**
 * HTTP/3 on the edge: nginx 1.22 has no QUIC. Turned on, the value is saved and the service's edge
 * status says plainly that this edge does not do it (the setting's state is 未能生效 with the reason);
 * the service keeps serving HTTP/1.1 and HTTP/2 over TLS, and no Alt-Svc is announced.
 */
const edge: EdgeCompiler = (v: { enable: boolean }) => (v.enable ? { unsupported: EDGE_TEXTS.http3Unsupported } : null);

export default edge;
