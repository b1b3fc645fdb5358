/**
 * The project's JSON Schema vocabulary: ajv-errors (Chinese `errorMessage` texts), ajv-formats,
 * and the keywords our declarations use. The console (through RJSF's customizeValidator), the
 * server (route validation) and the tests/CLI all call `addVocabulary`, so a schema means the
 * same thing everywhere.
 */
import Ajv, { type Options } from 'ajv';
import ajvErrors from 'ajv-errors';
import addFormats from 'ajv-formats';
import { containsCertificate, containsPrivateKey, isChainBalanced, isPemCertificate, isPemPrivateKey } from './pem';

/** Keywords the project adds; each is documented in docs/adding-a-setting.md. */
export const PROJECT_KEYWORDS = ['notAllDigits', 'regexp', 'uniqueLines', 'x-summary', 'pemCertificate', 'pemChainBalanced', 'pemNoPrivateKey', 'pemPrivateKey', 'pemNoCertificate'] as const;

export function addVocabulary(ajv: Ajv, opts: { formats?: boolean } = {}): Ajv {
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
        const k = typeof v === 'string' ? v.trim() : JSON.stringify(v);
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
  // annotation only: a setting's summary rules may be embedded in a schema for the gallery
  ajv.addKeyword({ keyword: 'x-summary', schemaType: 'array' });
  ajvErrors(ajv);
  return ajv;
}

/** The field message of a string holding a NUL character or half of a surrogate pair. */
export const UNSAFE_TEXT_MESSAGE = '不能包含空字符或无效的 Unicode 字符';

const UNSAFE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether a string holds a NUL character or a lone surrogate (text no database column can keep). */
export const isUnsafeText = (s: string): boolean => UNSAFE_TEXT.test(s);

/**
 * Bidirectional control characters (issue 21 item 20): the embeddings and overrides U+202A–U+202E,
 * the isolates U+2066–U+2069, the marks U+200E, U+200F and U+061C. In a name they make what is shown
 * differ from what is stored (`gpj.exe` shown as `exe.jpg` by U+202E), so names refuse them; free
 * text (descriptions, work orders) may hold them, where they only change how a sentence reads.
 */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

/** Whether a string holds a bidirectional control character; names (file and folder names) refuse it. */
export const hasBidiControl = (s: string): boolean => BIDI_CONTROL.test(s);

/** The field message of a name holding a bidirectional control character. */
export const BIDI_CONTROL_MESSAGE = '名称不能包含双向文本控制字符（如 U+202E），以免显示的名称与实际名称不同';

const pointer = (base: string, key: string | number) => `${base}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/**
 * The rule every string passes through, on top of any schema: the JSON pointer of the first string
 * (value or property name) in `value` that holds a NUL or a lone surrogate, or null when there is
 * none. Walks objects (parsed JSON, a parsed query string) and arrays, not byte buffers, without
 * recursion, so a deep document cannot exhaust the stack.
 */
export function findUnsafeText(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      if (isUnsafeText(v)) return at;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], pointer(at, i)]);
    } else if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v) && !(v instanceof ArrayBuffer)) {
      for (const [k, child] of Object.entries(v)) {
        if (isUnsafeText(k)) return pointer(at, k);
        stack.push([child, pointer(at, k)]);
      }
    }
  }
  return null;
}

/** The options every project ajv instance uses. ajv-errors needs allErrors. */
export const AJV_OPTIONS: Options = { allErrors: true, strict: false, $data: true };

export function createAjv(extra: Options = {}): Ajv {
  return addVocabulary(new Ajv({ ...AJV_OPTIONS, ...extra }));
}
