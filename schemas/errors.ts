/**
 * Turning ajv's errors into the project's field errors: { path: JSON pointer, message: Chinese text }.
 * Used by the server (400 responses), the CLI and tests, and the console (mapping server errors to fields).
 */
import type { ErrorObject } from 'ajv';
import type { FieldError } from '../src/shared/errors';

/** Shown for a constraint that carries no message of its own (the schema check flags those). */
export const MISSING_MESSAGE = '填写的内容不符合要求';

function childPath(base: string, prop: string): string {
  return `${base}/${prop.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/**
 * The order in which a field's errors count (spec 001 §5 "Form helper": required, min, max,
 * minlength, maxlength, pattern, regexp); every other keyword after them. A field shows its first.
 */
export const ERROR_PRIORITY = ['required', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'regexp'] as const;

/** The keyword an error stands for (an errorMessage error stands for the keyword it replaced). */
export function keywordOf(e: { keyword?: string; name?: string; params?: unknown }): string {
  const k = e.keyword ?? e.name ?? '';
  if (k !== 'errorMessage') return k;
  return (e.params as { errors?: { keyword: string }[] } | undefined)?.errors?.[0]?.keyword ?? k;
}

export function errorRank(e: { keyword?: string; name?: string; params?: unknown }): number {
  const i = (ERROR_PRIORITY as readonly string[]).indexOf(keywordOf(e));
  return i < 0 ? ERROR_PRIORITY.length : i;
}

/** Errors in priority order, stable otherwise (Array.prototype.sort is stable). */
export function byPriority<T extends { keyword?: string; name?: string; params?: unknown }>(errors: readonly T[]): T[] {
  return [...errors].sort((a, b) => errorRank(a) - errorRank(b));
}

export function toFieldErrors(errors: ErrorObject[] | null | undefined): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of byPriority(errors ?? [])) {
    // "must match then" only repeats the errors of the `then` branch, reported on their own
    if (e.keyword === 'if') continue;
    let path = e.instancePath;
    let message = e.message ?? MISSING_MESSAGE;
    if (e.keyword === 'errorMessage') {
      const inner = (e.params as { errors?: ErrorObject[] }).errors ?? [];
      const req = inner.find((i) => i.keyword === 'required');
      if (req && inner.every((i) => i.keyword === 'required')) {
        path = childPath(path, (req.params as { missingProperty: string }).missingProperty);
      }
    } else if (e.keyword === 'required') {
      path = childPath(path, (e.params as { missingProperty: string }).missingProperty);
      message = MISSING_MESSAGE;
    } else {
      // ajv's own English text is never shown to a person
      message = MISSING_MESSAGE;
    }
    const key = `${path}\u0000${message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ path, message });
    }
  }
  return out;
}
