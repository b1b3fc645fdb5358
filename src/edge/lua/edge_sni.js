// The SNI router (nginx's stream module, njs): which of the node's TLS sockets a name goes to. HTTP/2 is
// chosen per listening socket in nginx 1.22 (ALPN), and OpenSSL's security level for TLSv1/TLSv1.1 per
// server block, so a service's HTTPS names go to one of four sockets; the agent writes each name's socket
// into run/sni/<name> (docs/edge.md). A name without a file goes to h1, where the handshake refuses it.
import fs from 'fs';

const NAME = /^[a-z0-9*_-][a-z0-9._-]{0,252}$/;
const SOCKETS = { h1: 1, h2: 1, h1l: 1, h2l: 1 };

function read(dir, name) {
  try {
    const v = fs.readFileSync(dir + '/' + name, 'utf8').trim();
    return SOCKETS[v] ? v : null;
  } catch (e) {
    return null;
  }
}

function route(s) {
  const dir = s.variables.edge_sni_dir;
  const name = String(s.variables.ssl_preread_server_name || '').toLowerCase();
  let socket = null;
  if (NAME.test(name) && name.indexOf('..') < 0) {
    socket = read(dir, name);
    let i = name.indexOf('.');
    while (!socket && i >= 0) {
      socket = read(dir, '*' + name.slice(i));
      i = name.indexOf('.', i + 1);
    }
  }
  return 'unix:' + s.variables.edge_run_dir + '/tls-' + (socket || 'h1') + '.sock';
}

export default { route };
