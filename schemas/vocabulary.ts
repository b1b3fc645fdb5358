/**
 * The project's JSON Schema vocabulary: ajv-errors (Chinese `errorMessage` texts), ajv-formats,
 * and the keywords our declarations use. The console (through RJSF's customizeValidator), the
 * server (route validation) and the tests/CLI all call `addVocabulary`, so a schema means the
 * same thing everywhere.
 */
import Ajv, { type Options } from 'ajv';
import ajvErrors from 'ajv-errors';
import addFormats from 'ajv-formats';
import { dnsNameProblem } from '../src/shared/domains';
import { containsCertificate, containsPrivateKey, isChainBalanced, isPemCertificate, isPemPrivateKey } from './pem';

/** Keywords the project adds; each is documented in docs/adding-a-setting.md. */
export const PROJECT_KEYWORDS = ['notAllDigits', 'regexp', 'uniqueLines', 'x-summary', 'pemCertificate', 'pemChainBalanced', 'pemNoPrivateKey', 'pemPrivateKey', 'pemNoCertificate', 'dnsName', 'punycode'] as const;

export function addVocabulary(ajv: Ajv, opts: { formats?: boolean; messages?: boolean } = {}): Ajv {
  if (opts.formats !== false) addFormats(ajv);
  // a string that is not made of digits only (passwords)
  ajv.addKeyword({
    keyword: 'notAllDigits',
    type: 'string',
    schemaType: 'boolean',
    validate: (enabled: boolean, data: string) => !enabled || !/^\d+$/.test(data),
    errors: false,
  });
  // a string that compiles as a JavaScript regular expression
  ajv.addKeyword({
    keyword: 'regexp',
    type: 'string',
    schemaType: 'boolean',
    validate: (enabled: boolean, data: string) => {
      if (!enabled) return true;
      try {
        new RegExp(data);
        return true;
      } catch {
        return false;
      }
    },
    errors: false,
  });
  // an array of strings whose items are distinct once trimmed (lists edited one per line)
  ajv.addKeyword({
    keyword: 'uniqueLines',
    type: 'array',
    schemaType: 'boolean',
    validate: (enabled: boolean, data: unknown[]) => {
      if (!enabled) return true;
      const seen = new Set<string>();
      for (const v of data) {
        let k: string;
        try {
          k = typeof v === 'string' ? v.trim() : JSON.stringify(v);
        } catch {
          return false; // nested beyond what JSON.stringify can walk: not a list of lines
        }
        if (seen.has(k)) return false;
        seen.add(k);
      }
      return true;
    },
    errors: false,
  });
  // PEM rules of certificates (spec 002 §5), each with its own message
  const pem = (keyword: string, test: (s: string) => boolean) =>
    ajv.addKeyword({ keyword, type: 'string', schemaType: 'boolean', validate: (on: boolean, data: string) => !on || data === '' || test(data), errors: false });
  pem('pemCertificate', isPemCertificate);
  pem('pemChainBalanced', isChainBalanced);
  pem('pemNoPrivateKey', (d) => !containsPrivateKey(d));
  pem('pemPrivateKey', isPemPrivateKey);
  pem('pemNoCertificate', (d) => !containsCertificate(d));
  // a domain name by the DNS rules (src/shared/domains.ts dnsNameProblem): `{}`, `wildcard: true` allows a
  // leading `*.`, `lowercase: true` refuses capitals (fields the server stores as written); the empty string
  // passes (minLength or a pattern decides). Beside `punycode`, a name that is not ASCII is left to that
  // keyword's message; beside `maxLength`, the length to that one's, so one mistake gets one message.
  ajv.addKeyword({
    keyword: 'dnsName',
    type: 'string',
    schemaType: 'object',
    compile: (opts: { wildcard?: boolean; lowercase?: boolean }, parent: { [k: string]: unknown }) => {
      const wildcard = opts.wildcard === true;
      return (data: string) => {
        if (data === '') return true;
        if (opts.lowercase === true && /[A-Z]/.test(data)) return false;
        const p = dnsNameProblem(data, { wildcard });
        if (p === null) return true;
        if (p === 'unicode' && parent.punycode === true) return true;
        if (p === 'length' && typeof parent.maxLength === 'number') return true;
        return false;
      };
    },
    errors: false,
  });
  // only ASCII: a Chinese domain is written in its punycode form (xn--…)
  ajv.addKeyword({
    keyword: 'punycode',
    type: 'string',
    schemaType: 'boolean',
    // eslint-disable-next-line no-control-regex
    validate: (on: boolean, data: string) => !on || !/[^\x00-\x7f]/.test(data),
    errors: false,
  });
  // annotation only: a setting's summary rules may be embedded in a schema for the gallery
  ajv.addKeyword({ keyword: 'x-summary', schemaType: 'array' });
  // ajv-errors needs allErrors; the first-error validators (./bounded.ts) go without the Chinese texts
  if (opts.messages !== false) ajvErrors(ajv);
  return ajv;
}

// the rules every string passes through live in src/shared/text.ts (src/shared imports nothing of
// schemas/, tests/unit/walls.test.ts); re-exported here for the schema side
export { UNSAFE_TEXT_MESSAGE, isUnsafeText, hasBidiControl, BIDI_CONTROL_MESSAGE, findUnsafeText } from '../src/shared/text';

/** The options every project ajv instance uses. ajv-errors needs allErrors. */
export const AJV_OPTIONS: Options = { allErrors: true, strict: false, $data: true };

export function createAjv(extra: Options = {}): Ajv {
  return addVocabulary(new Ajv({ ...AJV_OPTIONS, ...extra }));
}

/** An ajv that stops at the first error, without `errorMessage` texts (the quick pass of ./bounded.ts). */
export function createFirstErrorAjv(extra: Options = {}): Ajv {
  return addVocabulary(new Ajv({ ...AJV_OPTIONS, ...extra, allErrors: false }), { messages: false });
}
