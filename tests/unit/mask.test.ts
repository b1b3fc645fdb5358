import { maskAccount, maskMiddle, maskMobile, maskName } from '../../src/shared/mask';

test('a phone number hides its digits 4 to 7', () => {
  expect(maskMobile('13812345678')).toBe('138****5678');
  expect(maskMobile(null)).toBeNull();
  expect(maskMobile('12345')).toBe('***45');
});

test('an account id or card shows its first 4 and last 4 characters', () => {
  expect(maskMiddle('6222021234567890123')).toBe('6222***********0123');
  expect(maskMiddle('AB12CD34EF')).toBe('AB12**34EF');
  expect(maskMiddle('12345678')).toBe('12345678');
  expect(maskMiddle('')).toBeNull();
});

test('an Alipay account is a mobile or anything else', () => {
  expect(maskAccount('13912345678')).toBe('139****5678');
  expect(maskAccount('someone@example.com')).toBe('some***********.com');
});

test('a name shows only its last character', () => {
  expect(maskName('张三丰')).toBe('**丰');
  expect(maskName('李')).toBe('*李');
  expect(maskName(undefined)).toBeNull();
});
