/**
 * Debian's pebble (the ACME test server) on loopback for the ACME tests (docs/certificates.md):
 *
 * - pebble-challtestsrv answers DNS only (its own HTTP/TLS challenge servers off), every A query
 *   with 127.0.0.1, so the demo domains resolve to this machine;
 * - pebble is started with `-dnsserver` pointing at it and `httpPort` = the port of OUR test
 *   server, so HTTP-01 is validated for real against /.well-known/acme-challenge/ of the console
 *   (no PEBBLE_VA_ALWAYS_VALID); PEBBLE_VA_NOSLEEP=1 and PEBBLE_WFE_NONCEREJECT=0 keep it quick;
 * - pebble's HTTPS uses a throwaway self-signed certificate made here with openssl; the tests trust
 *   it through the ACME configuration's caFile (acme-client's axios gets an https.Agent with it).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { freePorts } from '../ports';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';

export interface Pebble {
  directoryUrl: string;
  /** the CA file that makes pebble's own HTTPS trusted */
  caFile: string;
  /** pebble's issuing root (PEM), from its management interface */
  root(): Promise<string>;
  stop(): Promise<void>;
}

export { freePort } from '../ports';

function fetchText(url: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`${url}: ${res.statusCode}`))));
      })
      .on('error', reject);
  });
}

function stopProcess(p: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (p.exitCode !== null || p.signalCode !== null) return resolve();
    p.once('exit', () => resolve());
    p.kill('SIGTERM');
  });
}

/** Starts challtestsrv and pebble; `httpPort` is where pebble sends HTTP-01 validation requests. */
export async function startPebble(httpPort: number): Promise<Pebble> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pebble-'));
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'], { stdio: 'ignore' });
  const [acmePort, mgmtPort, tlsPort, dnsPort, challMgmtPort] = await freePorts(5, [httpPort]);
  const config = path.join(dir, 'pebble.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${acmePort}`,
        managementListenAddress: `127.0.0.1:${mgmtPort}`,
        certificate: cert,
        privateKey: key,
        httpPort,
        tlsPort,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  const log = fs.openSync(path.join(dir, 'log.txt'), 'a');
  const chall = spawn('pebble-challtestsrv', ['-dns01', `127.0.0.1:${dnsPort}`, '-http01', '', '-https01', '', '-tlsalpn01', '', '-management', `127.0.0.1:${challMgmtPort}`, '-defaultIPv4', '127.0.0.1', '-defaultIPv6', ''], { stdio: ['ignore', log, log] });
  const pebble = spawn('pebble', ['-config', config, '-dnsserver', `127.0.0.1:${dnsPort}`], {
    stdio: ['ignore', log, log],
    env: { ...process.env, PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0', PEBBLE_AUTHZREUSE: '0' },
  });
  const ca = fs.readFileSync(cert, 'utf8');
  const directoryUrl = `https://127.0.0.1:${acmePort}/dir`;
  const stop = async () => {
    await Promise.all([stopProcess(pebble), stopProcess(chall)]);
    fs.closeSync(log);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  // wait until the directory answers (bounded number of tries, no timing assertion)
  for (let i = 0; ; i++) {
    try {
      await fetchText(directoryUrl, ca);
      break;
    } catch (e) {
      if (i >= 100 || pebble.exitCode !== null) {
        const out = fs.readFileSync(path.join(dir, 'log.txt'), 'utf8');
        await stop();
        throw new Error(`pebble did not start: ${(e as Error).message}\n${out}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { directoryUrl, caFile: cert, root: () => fetchText(`https://127.0.0.1:${mgmtPort}/roots/0`, ca), stop };
}
