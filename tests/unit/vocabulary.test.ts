/**
 * The project's JSON Schema vocabulary (schemas/vocabulary.ts), the field errors built from it
 * (schemas/errors.ts) and the declaration checks that rely on it (schemas/check.ts).
 */
import Ajv from 'ajv';
import { addVocabulary, createAjv, PROJECT_KEYWORDS } from '../../schemas/vocabulary';
import { MISSING_MESSAGE, toFieldErrors } from '../../schemas/errors';
import { checkAll, missingMessages, unknownUiFields } from '../../schemas/check';
import type { Declaration, JsonSchema } from '../../schemas/types';

const ajv = createAjv();

function accepts(schema: JsonSchema, value: unknown): boolean {
  return ajv.validate(schema, value) as boolean;
}

/** Field errors of a value against a schema, as the server would send them. */
function fieldErrors(schema: JsonSchema, value: unknown) {
  const validate = ajv.compile(schema);
  return validate(value) ? [] : toFieldErrors(validate.errors);
}

describe('dnsName and punycode (issue 34 item 13: names the node can hold)', () => {
  const name = { type: 'string', dnsName: {} };
  const wild = { type: 'string', dnsName: { wildcard: true } };
  const l63 = 'a'.repeat(63);

  it.each(['www.example.com', 'a.b', 'xn--fiqs8s.cn', 'www.xn--fsqu00a.xn--fiqs8s', 'A-1.Example.COM', `${l63}.${l63}.${l63}.${'b'.repeat(61)}`, ''])('accepts %p', (v) => {
    expect(accepts(name, v)).toBe(true);
  });

  it.each([
    `${'a'.repeat(64)}.com`, // a label of 64
    `${l63}.${l63}.${l63}.${'b'.repeat(62)}`, // 254 characters
    'localhost', '-a.example.com', 'a-.example.com', 'a..example.com', 'a_b.example.com', 'a.example.com.', 'a.example.123',
    'http://a.example.com', 'a.example.com/x', 'a.example.com:80', 'a b.example.com', '*.example.com', '例子.中国', 'www.例子.com',
  ])('refuses %p', (v) => {
    expect(accepts(name, v)).toBe(false);
  });

  it('allows a leading *. only with wildcard, and only there', () => {
    expect(accepts(wild, '*.example.com')).toBe(true);
    expect(accepts(wild, 'a.*.example.com')).toBe(false);
    expect(accepts(wild, '*.com.')).toBe(false);
    expect(accepts(wild, `*.${'a'.repeat(64)}.com`)).toBe(false);
  });

  it('with lowercase, refuses capitals', () => {
    expect(accepts({ type: 'string', dnsName: { lowercase: true } }, 'Www.example.com')).toBe(false);
    expect(accepts({ type: 'string', dnsName: { lowercase: true } }, 'www.example.com')).toBe(true);
  });

  it('leaves a Chinese name to punycode, and a long one to maxLength, so one mistake has one message', () => {
    const schema = {
      type: 'string', maxLength: 253, dnsName: {}, punycode: true,
      errorMessage: { maxLength: '太长', dnsName: '格式', punycode: '用 punycode' },
    };
    expect(fieldErrors(schema, '例子.中国').map((e) => e.message)).toEqual(['用 punycode']);
    expect(fieldErrors(schema, `${'a.'.repeat(130)}com`).map((e) => e.message)).toEqual(['太长']);
    expect(fieldErrors(schema, 'a..com').map((e) => e.message)).toEqual(['格式']);
    // without punycode beside it, dnsName refuses a name that is not ASCII itself
    expect(accepts({ type: 'string', dnsName: {} }, '例子.中国')).toBe(false);
  });
});

describe('notAllDigits', () => {
  const schema = { type: 'string', notAllDigits: true };

  it.each(['abc123', '123abc', '12 34', 'a', '', '１２３'])('accepts %p', (v) => {
    expect(accepts(schema, v)).toBe(true);
  });

  it.each(['0', '123456', '00000000'])('refuses %p', (v) => {
    expect(accepts(schema, v)).toBe(false);
  });

  it('does nothing when set to false', () => {
    expect(accepts({ type: 'string', notAllDigits: false }, '123456')).toBe(true);
  });

  it('applies to strings only', () => {
    expect(accepts({ notAllDigits: true }, 123456)).toBe(true);
  });
});

describe('regexp', () => {
  const schema = { type: 'string', regexp: true };

  it.each(['^/images/.*\\.png$', 'abc', '', '(a|b)+', '[0-9]{3}'])('accepts %p', (v) => {
    expect(accepts(schema, v)).toBe(true);
  });

  it.each(['(', '[a-z', '*abc', 'a{2,1}', '(?<n>a)(?<n>b)'])('refuses %p', (v) => {
    expect(accepts(schema, v)).toBe(false);
  });

  it('does nothing when set to false', () => {
    expect(accepts({ type: 'string', regexp: false }, '(')).toBe(true);
  });
});

describe('uniqueLines', () => {
  const schema = { type: 'array', items: { type: 'string' }, uniqueLines: true };

  it.each([[[]], [['a']], [['a', 'b', 'c']], [['a', 'A']], [['/x', '/x/']]])('accepts %j', (v) => {
    expect(accepts(schema, v)).toBe(true);
  });

  it.each([[['a', 'a']], [['a', ' a']], [['a\t', 'b', '  a  ']], [['x', 'y', 'x']]])('refuses %j', (v) => {
    expect(accepts(schema, v)).toBe(false);
  });

  it('compares non-string items by value', () => {
    expect(accepts({ type: 'array', uniqueLines: true }, [1, 2])).toBe(true);
    expect(accepts({ type: 'array', uniqueLines: true }, [1, 1])).toBe(false);
    expect(accepts({ type: 'array', uniqueLines: true }, [{ a: 1 }, { a: 1 }])).toBe(false);
  });

  it('does nothing when set to false', () => {
    expect(accepts({ type: 'array', uniqueLines: false }, ['a', 'a'])).toBe(true);
  });
});

describe('the vocabulary itself', () => {
  it('names the keywords it adds, and every ajv made with it knows them', () => {
    expect([...PROJECT_KEYWORDS]).toEqual(['notAllDigits', 'regexp', 'uniqueLines', 'x-summary', 'pemCertificate', 'pemChainBalanced', 'pemNoPrivateKey', 'pemPrivateKey', 'pemNoCertificate', 'dnsName', 'punycode']);
    for (const kw of PROJECT_KEYWORDS) expect(ajv.getKeyword(kw)).toBeTruthy();
    const plain = addVocabulary(new Ajv({ allErrors: true, strict: false }), { formats: false });
    for (const kw of PROJECT_KEYWORDS) expect(plain.getKeyword(kw)).toBeTruthy();
    // createAjv adds ajv-formats
    expect(accepts({ type: 'string', format: 'uri' }, 'https://example.com/a')).toBe(true);
    expect(accepts({ type: 'string', format: 'uri' }, 'not a uri')).toBe(false);
  });

  it('accepts x-summary as an annotation that never fails', () => {
    expect(accepts({ type: 'object', 'x-summary': [{ label: '已开启' }] }, {})).toBe(true);
  });

  it('supports errorMessage (ajv-errors) on the standard keywords', () => {
    expect(fieldErrors({ type: 'object', properties: { n: { type: 'integer', minimum: 1, errorMessage: { minimum: '至少为 1' } } } }, { n: 0 })).toEqual([
      { path: '/n', message: '至少为 1' },
    ]);
  });
});

describe('messages of the custom keywords through toFieldErrors', () => {
  const schema = {
    type: 'object',
    properties: {
      password: { type: 'string', notAllDigits: true, errorMessage: { notAllDigits: '密码不能全为数字' } },
      rule: { type: 'string', regexp: true, errorMessage: { regexp: '请填写正确的正则表达式' } },
      hosts: { type: 'array', items: { type: 'string' }, uniqueLines: true, errorMessage: { uniqueLines: '每行内容不能重复' } },
      nested: {
        type: 'object',
        properties: { list: { type: 'array', items: { type: 'string' }, uniqueLines: true, errorMessage: { uniqueLines: '来源不能重复' } } },
      },
      bare: { type: 'string', notAllDigits: true },
    },
  };

  it('has no errors for good values', () => {
    expect(fieldErrors(schema, { password: 'abc123', rule: '^a', hosts: ['a', 'b'], nested: { list: ['x'] }, bare: 'x1' })).toEqual([]);
  });

  it('puts each message at its field', () => {
    expect(fieldErrors(schema, { password: '123456' })).toEqual([{ path: '/password', message: '密码不能全为数字' }]);
    expect(fieldErrors(schema, { rule: '(' })).toEqual([{ path: '/rule', message: '请填写正确的正则表达式' }]);
    expect(fieldErrors(schema, { hosts: ['a.com', ' a.com '] })).toEqual([{ path: '/hosts', message: '每行内容不能重复' }]);
    expect(fieldErrors(schema, { nested: { list: ['x', 'x'] } })).toEqual([{ path: '/nested/list', message: '来源不能重复' }]);
  });

  it('reports every failing field at once', () => {
    const errors = fieldErrors(schema, { password: '111', rule: '[', hosts: ['a', 'a'] });
    expect([...errors].sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: '/hosts', message: '每行内容不能重复' },
      { path: '/password', message: '密码不能全为数字' },
      { path: '/rule', message: '请填写正确的正则表达式' },
    ]);
  });

  it('never shows ajv\'s English text for a keyword without a message', () => {
    expect(fieldErrors(schema, { bare: '42' })).toEqual([{ path: '/bare', message: MISSING_MESSAGE }]);
    expect(MISSING_MESSAGE).toBe('填写的内容不符合要求');
  });

  it('escapes ~ and / in the path of a missing property', () => {
    const s = { type: 'object', required: ['a/b', 'c~d'], errorMessage: { required: { 'a/b': '请填写 A', 'c~d': '请填写 C' } } };
    expect(fieldErrors(s, {})).toEqual([
      { path: '/a~1b', message: '请填写 A' },
      { path: '/c~0d', message: '请填写 C' },
    ]);
  });

  it('points a required error without a message at the missing field', () => {
    expect(fieldErrors({ type: 'object', required: ['name'] }, {})).toEqual([{ path: '/name', message: MISSING_MESSAGE }]);
  });

  it('returns [] for no errors', () => {
    expect(toFieldErrors(null)).toEqual([]);
    expect(toFieldErrors(undefined)).toEqual([]);
    expect(toFieldErrors([])).toEqual([]);
  });
});

function declaration(schema: JsonSchema, ui: Record<string, unknown> = {}): Declaration {
  return {
    meta: {
      id: 'sample',
      title: '样例',
      kinds: ['cdn'],
      tab: 'https',
      panel: 'dialog',
      success: '配置成功',
      summary: [{ label: '已配置' }],
    },
    schema,
    ui,
    rules: {},
    fixtures: { valid: [], invalid: [] },
    dir: '/virtual/sample',
  };
}

describe('missingMessages', () => {
  const complete = {
    type: 'object',
    required: ['password', 'hosts'],
    additionalProperties: false,
    properties: {
      password: { type: 'string', minLength: 8, notAllDigits: true, errorMessage: { type: '请填写密码', minLength: '密码至少 8 位', notAllDigits: '密码不能全为数字' } },
      hosts: { type: 'array', items: { type: 'string', regexp: true, errorMessage: '请填写正确的正则表达式' }, uniqueLines: true, errorMessage: { type: '格式不正确', uniqueLines: '每行内容不能重复' } },
    },
    errorMessage: { required: { password: '请填写密码', hosts: '请填写来源' }, additionalProperties: '包含不支持的配置项' },
  };

  it('finds nothing when every constraint has a Chinese message', () => {
    expect(missingMessages(declaration(complete))).toEqual([]);
  });

  it('reports a custom keyword without a message', () => {
    const schema = structuredClone(complete) as any;
    delete schema.properties.password.errorMessage.notAllDigits;
    expect(missingMessages(declaration(schema))).toEqual([
      { file: '/virtual/sample/schema.json', path: '/properties/password', problem: '约束 notAllDigits 缺少中文错误信息 (errorMessage.notAllDigits)' },
    ]);
  });

  it('reports a message that is not Chinese', () => {
    const schema = structuredClone(complete) as any;
    schema.properties.hosts.errorMessage.uniqueLines = 'lines must be unique';
    expect(missingMessages(declaration(schema))).toEqual([
      { file: '/virtual/sample/schema.json', path: '/properties/hosts', problem: '约束 uniqueLines 缺少中文错误信息 (errorMessage.uniqueLines)' },
    ]);
  });

  it('reports constraints inside items, a required field and additionalProperties without messages', () => {
    const schema = structuredClone(complete) as any;
    schema.properties.hosts.items = { type: 'string', regexp: true };
    delete schema.errorMessage.required.hosts;
    delete schema.errorMessage.additionalProperties;
    const problems = missingMessages(declaration(schema)).map((f) => `${f.path} ${f.problem}`).sort();
    expect(problems).toEqual(
      [
        '/ 约束 additionalProperties 缺少中文错误信息 (errorMessage.additionalProperties)',
        '/properties/hosts/items 约束 regexp 缺少中文错误信息 (errorMessage.regexp)',
        '/properties/hosts/items 约束 type 缺少中文错误信息 (errorMessage.type)',
        '/required/hosts 必填字段 hosts 缺少中文错误信息 (errorMessage.required.hosts)',
      ].sort(),
    );
  });

  it('is part of checkAll', () => {
    const schema = structuredClone(complete) as any;
    delete schema.properties.password.errorMessage.minLength;
    const d = declaration(schema);
    d.fixtures = {
      valid: [{ file: '/virtual/sample/fixtures/valid/a.json', payload: { password: 'abcdefgh', hosts: ['^a'] } }],
      invalid: [{ file: '/virtual/sample/fixtures/invalid/a.json', payload: { password: '12345678', hosts: ['^a'] }, errors: [{ path: '/password', message: '密码不能全为数字' }] }],
    };
    const failures = checkAll([d]);
    expect(failures).toEqual(missingMessages(d));
    expect(failures).toEqual([
      { file: '/virtual/sample/schema.json', path: '/properties/password', problem: '约束 minLength 缺少中文错误信息 (errorMessage.minLength)' },
    ]);
  });
});

describe('unknownUiFields', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string', errorMessage: { type: '请填写名称' } },
      rules: {
        type: 'array',
        errorMessage: { type: '格式不正确' },
        items: { type: 'object', properties: { url: { type: 'string', errorMessage: { type: '请填写地址' } } }, errorMessage: { type: '规则格式不正确' } },
      },
    },
  };

  it('accepts a UI schema that names existing fields only', () => {
    const ui = { 'ui:order': ['name', 'rules', '*'], name: { 'ui:widget': 'text' }, rules: { items: { 'ui:order': ['url'], url: { 'ui:placeholder': '/a' } } } };
    expect(unknownUiFields(declaration(schema, ui))).toEqual([]);
  });

  it('reports an unknown field, an unknown field in ui:order and one inside items', () => {
    const ui = { 'ui:order': ['name', 'ghost'], ghost: { 'ui:widget': 'text' }, rules: { items: { uri: { 'ui:placeholder': '/a' } } } };
    expect(unknownUiFields(declaration(schema, ui))).toEqual([
      { file: '/virtual/sample/ui.json', path: '/ui:order', problem: 'ui:order 中的字段 ghost 不存在' },
      { file: '/virtual/sample/ui.json', path: '/ghost', problem: 'UI 模式中的字段 ghost 在 schema.json 中不存在' },
      { file: '/virtual/sample/ui.json', path: '/rules/items/uri', problem: 'UI 模式中的字段 uri 在 schema.json 中不存在' },
    ]);
  });

  it('is part of checkAll', () => {
    const d = declaration(schema, { nmae: { 'ui:widget': 'text' } });
    d.fixtures = {
      valid: [{ file: '/virtual/sample/fixtures/valid/a.json', payload: { name: 'x' } }],
      invalid: [{ file: '/virtual/sample/fixtures/invalid/a.json', payload: { name: 1 }, errors: [{ path: '/name', message: '请填写名称' }] }],
    };
    expect(checkAll([d])).toEqual([{ file: '/virtual/sample/ui.json', path: '/nmae', problem: 'UI 模式中的字段 nmae 在 schema.json 中不存在' }]);
  });
});
