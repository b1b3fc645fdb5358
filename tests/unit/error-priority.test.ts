/** The form helper's priority (spec 001 §5): required, min, max, minlength, maxlength, pattern, regexp. */
import Ajv from 'ajv';
import ajvErrors from 'ajv-errors';
import { byPriority, errorRank, toFieldErrors } from '../../schemas/errors';
import { transformErrors } from '../../renderers/theme';
import type { RJSFValidationError } from '@rjsf/utils';

test('keywords rank in the spec’s order, errorMessage by the keyword it replaced, others last', () => {
  const names = ['pattern', 'required', 'maxLength', 'minimum', 'regexp', 'type', 'minLength', 'maximum'];
  expect(byPriority(names.map((keyword) => ({ keyword }))).map((e) => e.keyword)).toEqual(['required', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'regexp', 'type']);
  expect(errorRank({ keyword: 'errorMessage', params: { errors: [{ keyword: 'minLength' }] } })).toBe(3);
});

test('the server lists a field’s errors most important first', () => {
  const ajv = new Ajv({ allErrors: true });
  ajvErrors(ajv);
  const validate = ajv.compile({
    type: 'object',
    properties: { name: { type: 'string', pattern: '^[a-z]', minLength: 5, errorMessage: { pattern: '以小写字母开头', minLength: '至少 5 个字符' } } },
  });
  validate({ name: '1a' });
  expect(toFieldErrors(validate.errors).map((e) => e.message)).toEqual(['至少 5 个字符', '以小写字母开头']);
});

test('a field in the console shows its errors of the first kind only', () => {
  const err = (property: string, name: string, message: string): RJSFValidationError => ({ property, name, message, stack: message, params: {} });
  const out = transformErrors([err('.name', 'errorMessage', '以小写字母开头'), err('.name', 'required', '请填写名称'), err('.mail', 'pattern', '邮箱格式不正确')]);
  expect(out.map((e) => [e.property, e.name])).toEqual([['.name', 'required'], ['.mail', 'pattern']]);
});
