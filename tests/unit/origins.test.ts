/**
 * The origin address rule (src/shared/origins.ts): loopback, link-local and metadata addresses, in the
 * spellings a resolver or nginx would read as such, are local; public and private addresses are not.
 */
import { isLocalOriginAddress, isOperatorOrigin, refusedOrigins } from '../../src/shared/origins';

test.each([
  '127.0.0.1',
  '127.255.255.254',
  '127.0.0.01',
  '127.1',
  '0177.0.0.1',
  '0x7f.0.0.1',
  '0x7f000001',
  '2130706433',
  '0.0.0.0',
  '169.254.169.254',
  '169.254.0.23',
  '100.100.100.200',
  '::1',
  '[::1]',
  '::',
  'fe80::1',
  'FE80::abcd:1%eth0',
  'febf::1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:169.254.169.254',
  'fd00:ec2::254',
  'localhost',
  'LOCALHOST',
  'localhost.',
  'api.localhost',
  'localhost.localdomain',
  'metadata.google.internal',
  'metadata.tencentyun.com',
])('%s is local', (a) => {
  expect(isLocalOriginAddress(a)).toBe(true);
});

test.each(['1.2.3.4', '128.0.0.1', '10.0.0.1', '192.168.1.1', '172.16.0.1', '169.255.0.1', '100.100.100.201', 'origin.example.com', 'localhost.example.com', 'mylocalhost', '2001:db8::1', 'fec0::1', 'fe7f::1', '::ffff:1.2.3.4'])(
  '%s is not local',
  (a) => {
    expect(isLocalOriginAddress(a)).toBe(false);
  },
);

test('the operator demo origin is exactly its address and port', () => {
  expect(isOperatorOrigin('127.0.0.1', 8082, '127.0.0.1:8082')).toBe(true);
  expect(isOperatorOrigin('127.0.0.1', 8083, '127.0.0.1:8082')).toBe(false);
  expect(isOperatorOrigin('localhost', 8082, '127.0.0.1:8082')).toBe(false);
  expect(isOperatorOrigin('127.0.0.1', 8082, undefined)).toBe(false);
  const servers = [
    { address: '127.0.0.1', port: 8082 },
    { address: '1.2.3.4', port: 80 },
    { address: '127.0.0.1', port: 22 },
    { address: '169.254.169.254', port: 80 },
  ];
  expect(refusedOrigins(servers, '127.0.0.1:8082')).toEqual([2, 3]);
  expect(refusedOrigins(servers)).toEqual([0, 2, 3]);
});
