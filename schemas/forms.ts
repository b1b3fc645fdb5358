/**
 * Forms (schemas/forms/<id>/): validating a value as the console and the server do, and the checks
 * jest runs on every form that has fixtures (tests/unit/forms.test.ts): messages, UI schema, fixtures.
 *
 * An invalid fixture lists the errors of the schema; when the schema accepts the payload, the
 * errors of the form's rules (rules.ts `ruleErrors(value, context)`, with the fixture's `context`).
 */
import type { ValidateFunction } from 'ajv';
import type { FieldError } from '../src/shared/errors';
import { createAjv } from './vocabulary';
import { toFieldErrors } from './errors';
import { missingMessages, sortErrors, unknownUiFields, type CheckFailure } from './check';
import type { Declaration, FormDeclaration } from './types';

const ajv = createAjv();
const compiled = new WeakMap<object, ValidateFunction>();

export function formValidator(form: Pick<FormDeclaration, 'schema'>): ValidateFunction {
  let v = compiled.get(form.schema);
  if (!v) {
    v = ajv.compile(form.schema);
    compiled.set(form.schema, v);
  }
  return v;
}

/** The schema's errors of a value. */
export function formSchemaErrors(form: Pick<FormDeclaration, 'schema'>, value: unknown): FieldError[] {
  const v = formValidator(form);
  return v(value) ? [] : toFieldErrors(v.errors);
}

/** The schema's errors, or when there are none, the errors of the form's rules. */
export function formErrors(form: Pick<FormDeclaration, 'schema' | 'rules'>, value: unknown, context?: unknown): FieldError[] {
  const errors = formSchemaErrors(form, value);
  if (errors.length || typeof form.rules.ruleErrors !== 'function') return errors;
  return (form.rules.ruleErrors(value, context) ?? []).map(({ path, message }) => ({ path, message }));
}

/** The form seen as a declaration by the checks that settings and forms share. */
function asDeclaration(form: FormDeclaration): Declaration {
  return { meta: { id: form.id } as Declaration['meta'], schema: form.schema, ui: form.ui, rules: {}, dir: form.dir };
}

/** Every check of one form: messages, UI schema and fixtures. A form without fixtures is left alone. */
export function checkForm(form: FormDeclaration): CheckFailure[] {
  if (!form.hasFixtures) return [];
  try {
    formValidator(form);
  } catch (e) {
    return [{ file: `${form.dir}/schema.json`, path: '/', problem: `模式无法编译：${(e as Error).message}` }];
  }
  const out: CheckFailure[] = [...missingMessages(asDeclaration(form)), ...unknownUiFields(asDeclaration(form))];
  const { valid, invalid } = form.fixtures;
  if (valid.length === 0) out.push({ file: `${form.dir}/fixtures/valid`, path: '/', problem: '至少需要一个有效样例' });
  if (invalid.length === 0) out.push({ file: `${form.dir}/fixtures/invalid`, path: '/', problem: '至少需要一个无效样例' });
  for (const f of valid) {
    for (const e of formErrors(form, f.payload, f.context)) out.push({ file: f.file, path: e.path || '/', problem: `有效样例未通过：${e.message}` });
  }
  const key = (e: FieldError) => `${e.path}\u0000${e.message}`;
  for (const f of invalid) {
    const expected = sortErrors(f.errors ?? []);
    if (expected.length === 0) out.push({ file: f.file, path: '/errors', problem: '无效样例须列出预期的错误' });
    const actual = sortErrors(formErrors(form, f.payload, f.context));
    const a = new Set(actual.map(key));
    const x = new Set(expected.map(key));
    for (const e of expected) if (!a.has(key(e))) out.push({ file: f.file, path: e.path || '/', problem: `缺少预期的错误：${e.message}` });
    for (const e of actual) if (!x.has(key(e))) out.push({ file: f.file, path: e.path || '/', problem: `出现未列出的错误：${e.message}` });
  }
  return out;
}

export function checkForms(forms: FormDeclaration[]): CheckFailure[] {
  return forms.flatMap(checkForm);
}
