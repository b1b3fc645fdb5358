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
import { timedValidation } from '../timing';

// the engine's timings (npm run bench, tests/bench/forms.ts) live in renderers/timing.ts
export { formTiming } from '../timing';

export const validator = customizeValidator({
  ajvOptionsOverrides: AJV_OPTIONS,
  extenderFn: (ajv) => addVocabulary(ajv, { formats: false }),
});

/** A form's `customValidate` that carries the rules it runs (DeclarationForm's `rules`). */
export type RulesValidate = ((data: any, handler: any) => any) & { rules: (data: any) => unknown[] };

/**
 * Whether a form's rules have nothing to say about this value. RJSF's custom validation first builds a
 * copy of the value with every field of the schema (getDefaultFormState over the whole declaration:
 * milliseconds on a large one, on every keystroke) so the rules' errors have a place to land; when the
 * rules find nothing there is nothing to place, and the result is the schema's alone.
 */
function quietRules(customValidate: unknown, formData: unknown): boolean {
  const rules = (customValidate as Partial<RulesValidate> | undefined)?.rules;
  return typeof rules === 'function' && rules(formData).length === 0;
}

/**
 * The validator of one form: RJSF validates against the schema it resolved for the current data, and
 * resolving an allOf of if/then branches (json-schema-merge-allof) keeps a field's own errorMessage
 * and drops the branch's — so a branch's pattern would fail with no message. This validator checks the
 * form's own (unresolved) schema instead, as the server does, with the same bounds on every number
 * (`boundNumbers`: what the server adds to each route's schema); everything else is the shared validator.
 */
const rootValidators = new WeakMap<object, typeof validator>();
export function validatorFor(root: object): typeof validator {
  let v = rootValidators.get(root);
  if (!v) {
    const bounded = boundNumbers(root);
    let plain: ((data: unknown) => unknown) | undefined;
    // ajv compiles the form's schema once; in the browser that happens while it is idle after the form
    // shows, not on the first keystroke (10–12 ms for the origin and sub-account dialogs, tests/bench/forms.ts)
    const idle = (globalThis as { requestIdleCallback?: (cb: () => void, o: { timeout: number }) => number }).requestIdleCallback;
    idle?.(
      () => {
        try {
          plain ??= validator.ajv.compile(bounded);
        } catch {
          // a schema that does not compile is RJSF's to report, on the first validation, as before
          validator.ajv.removeSchema(bounded);
        }
      },
      { timeout: 2000 },
    );
    v = new Proxy(validator, {
      get(target, prop) {
        if (prop === 'validateFormData')
          return (formData: unknown, _resolved: unknown, customValidate?: unknown, ...rest: unknown[]) =>
            timedValidation(
              () =>
                (target.validateFormData as (...a: unknown[]) => unknown)(formData, bounded, quietRules(customValidate, formData) ? undefined : customValidate, ...rest),
              // for the bench's ratio: the same ajv's compiled validate of the same schema and data
              () => (plain ??= target.ajv.compile(bounded))(formData),
            );
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
