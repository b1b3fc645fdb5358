/**
 * The generic form engine: RJSF with the Blueprint theme and the project's ajv vocabulary,
 * so a form shows exactly the Chinese messages the server sends.
 */
import { withTheme } from '@rjsf/core';
import { customizeValidator } from '@rjsf/validator-ajv8';
import type { RJSFValidationError } from '@rjsf/utils';
import { addVocabulary, AJV_OPTIONS } from '../../schemas/vocabulary';
import { MISSING_MESSAGE } from '../../schemas/errors';
import { templates } from './templates';
import { widgets } from './widgets';

export const validator = customizeValidator({
  ajvOptionsOverrides: AJV_OPTIONS,
  extenderFn: (ajv) => addVocabulary(ajv, { formats: false }),
});

export const ThemedForm = withTheme({ templates, widgets });

/**
 * ajv-errors reports a missing required field on its parent object; move it to the field,
 * and never show ajv's own English text.
 */
export function transformErrors(errors: RJSFValidationError[]): RJSFValidationError[] {
  return errors.map((e) => {
    if (e.name === 'errorMessage') {
      const inner = (e.params as { errors?: { keyword: string; params: { missingProperty?: string } }[] })?.errors ?? [];
      if (inner.length && inner.every((i) => i.keyword === 'required')) {
        const prop = inner[0].params.missingProperty!;
        return { ...e, property: `${e.property === '.' || !e.property ? '' : e.property}.${prop}` };
      }
      return e;
    }
    return { ...e, message: MISSING_MESSAGE, stack: MISSING_MESSAGE };
  });
}
