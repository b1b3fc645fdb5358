/**
 * Issue 21 items 1 and 2, the rules themselves: boundNumbers (schemas/bounds.ts) gives every number
 * without bounds the `integer` column's, keeping a field's own bounds and messages, and the console's
 * form validator applies it as the server does; findUnsafeText (schemas/vocabulary.ts) finds NUL and
 * lone surrogates in values and property names, and leaves surrogate pairs alone.
 */
import edgeRule from '../../schemas/forms/edge_rule/schema.json';
import { retrieveSchema } from '@rjsf/utils';
import { boundNumbers, unboundedNumbers } from '../../schemas/bounds';
import { findUnsafeText, isUnsafeText } from '../../schemas/vocabulary';
import { INT_MAX, INT_MIN, OUT_OF_RANGE_MESSAGE } from '../../src/shared/limits';
import { transformErrors, validator, validatorFor } from '../../renderers/theme';

describe('boundNumbers', () => {
  const schema = {
    type: 'object',
    properties: {
      id: { type: 'integer', minimum: 1, errorMessage: { type: '请指定任务', minimum: '请指定任务' } },
      size: { type: ['integer', 'null'] },
      ratio: { type: 'number', minimum: 0, maximum: 1 },
      mode: { type: 'integer', enum: [0, 1] },
      list: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer', errorMessage: '须为整数' } } } },
    },
    allOf: [{ if: { properties: { id: { const: 1 } } }, then: { properties: { size: { type: 'integer', minimum: 5 } } } }],
  };

  it('bounds what is open, keeps what is bounded, and leaves the input as it was', () => {
    const before = JSON.stringify(schema);
    const b = boundNumbers(schema) as any;
    expect(JSON.stringify(schema)).toBe(before);
    expect(b.properties.id).toMatchObject({ minimum: 1, maximum: INT_MAX, errorMessage: { type: '请指定任务', minimum: '请指定任务', maximum: OUT_OF_RANGE_MESSAGE } });
    expect(b.properties.size).toMatchObject({ minimum: INT_MIN, maximum: INT_MAX, errorMessage: { minimum: OUT_OF_RANGE_MESSAGE, maximum: OUT_OF_RANGE_MESSAGE } });
    expect(b.properties.ratio).toEqual({ type: 'number', minimum: 0, maximum: 1 });
    expect(b.properties.mode).toEqual({ type: 'integer', enum: [0, 1] });
    expect(b.properties.list.items.properties.n).toMatchObject({ maximum: INT_MAX, errorMessage: '须为整数' });
    expect(b.allOf[0].then.properties.size).toMatchObject({ minimum: 5, maximum: INT_MAX });
    expect(unboundedNumbers(schema).length).toBeGreaterThan(0);
    expect(unboundedNumbers(b)).toEqual([]);
  });

  it('is what the console checks too: a priority of 2³¹ is refused in the edge-rule form', () => {
    const data = { describe: 'a', type: 'general', priority: 2147483648, break: false, status: 'ON', content: { conditions: [], actions: [] } };
    const resolved = retrieveSchema(validator, edgeRule as any, edgeRule as any, data);
    const errors = transformErrors(validatorFor(edgeRule).validateFormData(data, resolved as any).errors);
    expect(errors.map((e) => e.message)).toContain(OUT_OF_RANGE_MESSAGE);
  });
});

describe('findUnsafeText', () => {
  it.each([
    ['a\u0000b', ''],
    [{ a: ['ok', 'x\udc00'] }, '/a/1'],
    [{ ['k\u0000']: 1 }, '/k\u0000'],
    [{ 'a/b': { c: 'x\ud800' } }, '/a~1b/c'],
  ])('finds %j at %j', (value, at) => expect(findUnsafeText(value)).toBe(at));

  it('passes ordinary text, surrogate pairs, numbers, buffers, deep documents', () => {
    expect(findUnsafeText({ a: '规则😀', b: [1, true, null], c: Buffer.from([0, 0xed]) })).toBeNull();
    let deep: unknown = 'x';
    for (let i = 0; i < 50_000; i++) deep = [deep];
    expect(findUnsafeText(deep)).toBeNull();
    expect(isUnsafeText('\ud83d\ude00')).toBe(false);
    expect(isUnsafeText('\ude00\ud83d')).toBe(true);
  });
});
