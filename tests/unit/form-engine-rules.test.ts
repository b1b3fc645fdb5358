/**
 * A form's rules (DeclarationForm `rules`, e.g. the rebate's maximum) run in the same validation as the
 * schema. RJSF's custom validation first copies the value with every field of the schema (getDefaultFormState
 * over the whole declaration: milliseconds on a large form, on every keystroke); the engine's validator runs
 * the rules first and takes that path only when they find something (renderers/theme quietRules) — the result
 * is the same either way.
 */
import { transformErrors, validatorFor, type RulesValidate } from '../../renderers/theme';

const schema = {
  type: 'object',
  properties: {
    sum: { type: 'number', minimum: 20, errorMessage: { minimum: '单笔申请，金额 20 元起提交' } },
    note: { type: 'string', maxLength: 5, errorMessage: { maxLength: '备注不超过 5 个字符' } },
    nested: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } },
  },
};
const rules = (v: any) => (typeof v?.sum === 'number' && v.sum > 100 ? [{ path: '/sum', message: '最大提现金额为 100.00' }] : []);

/** What DeclarationForm passes as customValidate: the rules' errors added at their paths, and the rules themselves. */
function customValidate(calls: { n: number }): RulesValidate {
  return Object.assign(
    (data: any, handler: any) => {
      calls.n++;
      for (const e of rules(data)) handler[e.path.slice(1)].addError(e.message);
      return handler;
    },
    { rules },
  );
}

/** The messages each field shows: path → its errors, fields without any left out. */
function shown(errorSchema: any, path = ''): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(errorSchema ?? {})) {
    if (k === '__errors') {
      if ((v as string[]).length) out[path || '/'] = v as string[];
    } else Object.assign(out, shown(v, `${path}/${k}`));
  }
  return out;
}

/** RJSF's own path, always taken: the same customValidate without the rules attached. */
const fullPath = (data: object) => {
  const cv = customValidate({ n: 0 });
  return validatorFor(schema).validateFormData(data, schema as any, ((d: unknown, h: unknown) => cv(d, h)) as any, transformErrors);
};

it('skips RJSF\'s custom validation when the rules find nothing, with the same result', () => {
  const calls = { n: 0 };
  for (const data of [{ sum: 50 }, { sum: 10, note: 'too long note' }, { sum: 50, nested: { a: 1 } }]) {
    const fast = validatorFor(schema).validateFormData(data, schema as any, customValidate(calls) as any, transformErrors);
    const full = fullPath(data);
    expect(fast.errors).toEqual(full.errors);
    // RJSF's path leaves an empty __errors on every field; a field shows the same either way
    expect(shown(fast.errorSchema)).toEqual(shown(full.errorSchema));
  }
  expect(calls.n).toBe(0);
});

it('takes it when they do: the rule\'s message under its field, beside the schema\'s', () => {
  const calls = { n: 0 };
  const result = validatorFor(schema).validateFormData({ sum: 500, note: 'too long note' }, schema as any, customValidate(calls) as any, transformErrors);
  expect(calls.n).toBe(1);
  expect(result.errorSchema.sum?.__errors).toEqual(['最大提现金额为 100.00']);
  expect(result.errorSchema.note?.__errors).toEqual(['备注不超过 5 个字符']);
});

it('a customValidate without rules attached is always run', () => {
  let n = 0;
  validatorFor(schema).validateFormData({ sum: 50 }, schema as any, ((_d: unknown, h: unknown) => (n++, h)) as any, transformErrors);
  expect(n).toBe(1);
});
