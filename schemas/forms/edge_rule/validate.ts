/**
 * The edge-rule form's validation, as the server and the console run it: the schema first (with
 * the project's vocabulary and its Chinese messages); when it accepts, the rules of rules.ts.
 * Also the tester's sample request. Browser-safe (no Node APIs): the console bundles it.
 */
import type { ValidateFunction } from 'ajv';
import type { FieldError } from '../../../src/shared/errors';
import { createAjv } from '../../vocabulary';
import { toFieldErrors } from '../../errors';
import { ruleErrors, type EdgeRuleContext } from './rules';
import schema from './schema.json';
import requestSchema from './request.schema.json';

export { schema as edgeRuleSchema, requestSchema };

let ajv: ReturnType<typeof createAjv> | null = null;
const validators = new Map<object, ValidateFunction>();

function validator(s: object): ValidateFunction {
  let v = validators.get(s);
  if (!v) {
    ajv ??= createAjv();
    v = ajv.compile(s);
    validators.set(s, v);
  }
  return v;
}

/** The compiled schema alone (a plain ajv validate, for the bench's ratio: tests/bench/forms.ts). */
export function edgeRuleSchemaValidator(): ValidateFunction {
  return validator(schema);
}

/** The schema's errors of a rule. */
export function edgeRuleSchemaErrors(value: unknown): FieldError[] {
  const v = validator(schema);
  return v(value) ? [] : toFieldErrors(v.errors);
}

/** The schema's errors, or when there are none, the errors of rules.ts (priority maximum, program, lengths). */
export function edgeRuleErrors(value: unknown, context: EdgeRuleContext = {}): FieldError[] {
  const errors = edgeRuleSchemaErrors(value);
  return errors.length ? errors : ruleErrors(value as Parameters<typeof ruleErrors>[0], context);
}

/** The errors of a tester's sample request. */
export function requestErrors(value: unknown): FieldError[] {
  const v = validator(requestSchema);
  return v(value) ? [] : toFieldErrors(v.errors);
}
