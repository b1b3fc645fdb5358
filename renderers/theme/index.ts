/**
 * The generic form engine: RJSF with the Blueprint theme and the project's ajv vocabulary,
 * so a form shows exactly the Chinese messages the server sends.
 */
import { withTheme } from '@rjsf/core';
import { customizeValidator } from '@rjsf/validator-ajv8';
import type { RJSFValidationError, UiSchema } from '@rjsf/utils';
import { addVocabulary, AJV_OPTIONS } from '../../schemas/vocabulary';
import { MISSING_MESSAGE, byPriority, errorRank } from '../../schemas/errors';
import { boundNumbers } from '../../schemas/bounds';
import { templates } from './templates';
import { widgets } from './widgets';

export const validator = customizeValidator({
  ajvOptionsOverrides: AJV_OPTIONS,
  extenderFn: (ajv) => addVocabulary(ajv, { formats: false }),
});

/**
 * The validator of one form: RJSF validates against the schema it resolved for the current data, and
 * resolving an allOf of if/then branches (json-schema-merge-allof) keeps a field's own errorMessage
 * and drops the branch's — so a branch's pattern would fail with no message. This validator checks the
 * form's own (unresolved) schema instead, as the server does, with the same bounds on every number
 * (`boundNumbers`: what the server adds to each route's schema); everything else is the shared validator.
 */
const rootValidators = new WeakMap<object, typeof validator>();
/**
 * The form engine's own timings, for `npm run bench` (tests/bench/forms.ts): recorded only when the page
 * set `window.__formTimings` (the bench does, before the console loads); nothing is kept otherwise.
 */
export function formTiming(kind: 'validate' | 'open', ms: number, what = ''): void {
  const sink = (globalThis as { __formTimings?: { kind: string; ms: number; what: string }[] }).__formTimings;
  if (sink && sink.length < 10_000) sink.push({ kind, ms, what });
}

export function validatorFor(root: object): typeof validator {
  let v = rootValidators.get(root);
  if (!v) {
    const bounded = boundNumbers(root);
    v = new Proxy(validator, {
      get(target, prop) {
        if (prop === 'validateFormData')
          return (formData: unknown, _resolved: unknown, ...rest: unknown[]) => {
            const t0 = performance.now();
            const result = (target.validateFormData as (...a: unknown[]) => unknown)(formData, bounded, ...rest);
            formTiming('validate', performance.now() - t0);
            return result;
          };
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    rootValidators.set(root, v);
  }
  return v;
}

export const ThemedForm = withTheme({ templates, widgets });

/** The UI schema node at a property path such as ".server_push_options.url_patterns.3". */
function uiAt(uiSchema: UiSchema | undefined, parts: string[]): UiSchema | undefined {
  let node: any = uiSchema;
  for (const p of parts) node = /^\d+$/.test(p) ? node?.items : node?.[p];
  return node;
}

/**
 * A list edited as lines shows the errors of its items on itself: "第 4 行：…".
 */
export function collapseLines(e: RJSFValidationError, uiSchema?: UiSchema): RJSFValidationError {
  const parts = (e.property ?? '').split('.').filter(Boolean);
  const last = parts[parts.length - 1];
  if (!last || !/^\d+$/.test(last)) return e;
  const listUi = uiAt(uiSchema, parts.slice(0, -1));
  if (listUi?.['ui:widget'] !== 'lines') return e;
  const message = `第 ${Number(last) + 1} 行：${e.message}`;
  return { ...e, property: '.' + parts.slice(0, -1).join('.'), message, stack: message };
}

/**
 * ajv-errors reports a missing required field on its parent object; move it to the field,
 * and never show ajv's own English text.
 */
/**
 * ajv's errors as the fields show them: the project's messages; a field shows only its errors of the
 * first kind in the form helper's priority order (required, min, max, minlength, maxlength, pattern, regexp).
 */
export function transformErrors(errors: RJSFValidationError[], uiSchema?: UiSchema): RJSFValidationError[] {
  const best = new Map<string, number>();
  const out: RJSFValidationError[] = [];
  for (const e of byPriority(errors.filter((e) => e.name !== 'if'))) {
    const fixed = collapseLines(fix(e), uiSchema);
    const key = fixed.property ?? '';
    const rank = errorRank(e);
    // a field keeps the errors of its most important kind (several lines of a list may each have one)
    if ((best.get(key) ?? rank) < rank) continue;
    best.set(key, rank);
    out.push(fixed);
  }
  return out;
}

function fix(e: RJSFValidationError): RJSFValidationError {
  if (e.name === 'errorMessage') {
    const inner = (e.params as { errors?: { keyword: string; params: { missingProperty?: string } }[] })?.errors ?? [];
    if (inner.length && inner.every((i) => i.keyword === 'required')) {
      const prop = inner[0].params.missingProperty!;
      return { ...e, property: `${e.property === '.' || !e.property ? '' : e.property}.${prop}` };
    }
    return e;
  }
  return { ...e, message: MISSING_MESSAGE, stack: MISSING_MESSAGE };
}
