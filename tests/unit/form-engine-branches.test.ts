/**
 * The form engine checks a form's own schema, not the one RJSF resolves for the data: resolving an
 * allOf of if/then branches keeps a field's own errorMessage and drops the branch's, so the branch's
 * constraint would fail with no message in the console while the server names it (renderers/theme
 * validatorFor).
 */
import { retrieveSchema } from '@rjsf/utils';
import ddosL4 from '../../schemas/forms/ddos_l4/schema.json';
import coin from '../../schemas/forms/coin_address/schema.json';
import { transformErrors, validator, validatorFor } from '../../renderers/theme';

const messages = (v: typeof validator, schema: object, data: object) => {
  const resolved = retrieveSchema(validator, schema as any, schema as any, data);
  return transformErrors(v.validateFormData(data, resolved as any).errors).map((e) => e.message);
};

it('shows a branch pattern\'s message (ddos_l4: ports) where the resolved schema would lose it', () => {
  const data = { type: 'port_block', values: ['abc'] };
  expect(messages(validator, ddosL4, data).join()).not.toContain('请填写端口或端口范围');
  expect(messages(validatorFor(ddosL4), ddosL4, data)).toEqual(expect.arrayContaining([expect.stringContaining('请填写端口或端口范围，如 8080 或 1000-2000')]));
});

it('gives the coin address its message per coin', () => {
  expect(messages(validatorFor(coin), coin, { type: 'ETH', address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2' })).toEqual(['请填写正确的以太坊地址（0x 加 40 位十六进制）']);
  expect(messages(validatorFor(coin), coin, { type: 'BTC', address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2' })).toEqual([]);
});

it('keeps one validator per schema and delegates everything else', () => {
  expect(validatorFor(coin)).toBe(validatorFor(coin));
  expect(validatorFor(coin).isValid({ type: 'string' }, 'x', {})).toBe(true);
});
