/** The PEM rules of spec 002 §5 behind the certificate keywords. */
import fs from 'node:fs';
import path from 'node:path';
import { containsCertificate, containsPrivateKey, isChainBalanced, isPemCertificate, isPemPrivateKey, lacksIntermediate } from '../../schemas/pem';
import { covers } from '../../src/shared/certificates';

const pem = (f: string) => fs.readFileSync(path.join(__dirname, '../fixtures/certs', f), 'utf8');

it('recognises certificates and chains', () => {
  expect(isPemCertificate(pem('leaf.crt'))).toBe(true);
  expect(isPemCertificate(pem('chain.pem'))).toBe(true);
  expect(isPemCertificate(pem('leaf.key'))).toBe(false);
  expect(isChainBalanced(pem('chain.pem'))).toBe(true);
  expect(isChainBalanced(pem('chain.pem').replace('-----END CERTIFICATE-----', ''))).toBe(false);
  expect(lacksIntermediate(pem('leaf.crt'))).toBe(true);
  expect(lacksIntermediate(pem('chain.pem'))).toBe(false);
});

it('recognises plain keys of the three kinds and refuses encrypted ones', () => {
  expect(isPemPrivateKey(pem('leaf.key'))).toBe(true);
  expect(isPemPrivateKey(pem('leaf-rsa.key'))).toBe(true);
  expect(isPemPrivateKey(pem('ec.key'))).toBe(true);
  expect(isPemPrivateKey(pem('encrypted.key'))).toBe(false);
  expect(isPemPrivateKey(pem('leaf.crt'))).toBe(false);
});

it('notices a key in the certificate field and a certificate in the key field', () => {
  expect(containsPrivateKey(pem('leaf.crt') + pem('leaf.key'))).toBe(true);
  expect(containsPrivateKey(pem('chain.pem'))).toBe(false);
  expect(containsCertificate(pem('leaf.key') + pem('leaf.crt'))).toBe(true);
  expect(containsCertificate(pem('leaf.key'))).toBe(false);
});

it.each([
  [['*.example.com'], 'www.example.com', true],
  [['*.example.com'], 'example.com', false],
  [['*.example.com'], 'a.b.example.com', false],
  [['example.com', '*.example.com'], 'example.com', true],
  [['WWW.Example.com'], 'www.example.com', true],
  [['www.example.com'], 'img.example.com', false],
])('%j covers %s: %s', (names, domain, expected) => {
  expect(covers(names as string[], domain as string)).toBe(expected);
});
