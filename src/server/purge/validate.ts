import purgeUrlSchema from '../../../schemas/forms/purge_url/schema.json';
import { createAjv } from '../../../schemas/vocabulary';
import { toFieldErrors } from '../../../schemas/errors';
import type { FieldError } from '../../shared/errors';

const ajv = createAjv();
const validators = { purge_url: ajv.compile(purgeUrlSchema) };

/** Validates with a purge declaration where a route cannot (the batch call splits its text first). */
export function validate(form: keyof typeof validators, value: unknown): FieldError[] {
  const v = validators[form];
  return v(value) ? [] : toFieldErrors(v.errors);
}
