/**
 * The rules every string passes through (issue 21 items 2 and 20), read by the server's validation, the
 * schemas' vocabulary (schemas/vocabulary.ts re-exports them) and the console.
 */

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

