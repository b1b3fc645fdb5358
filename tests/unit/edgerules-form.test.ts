/**
 * The edge-rule form declaration (schemas/forms/edge_rule/): every fixture, read by a small loader
 * of its own like tests/unit/fixtures.test.ts reads the settings'; every constraint has its Chinese
 * message; the lists in the schema agree with the language's catalogue; normalisation.
 */
import fs from 'node:fs';
import path from 'node:path';
import { edgeRuleErrors, edgeRuleSchema, requestErrors } from '../../schemas/forms/edge_rule/validate';
import { normalizeRule, priorityMessage } from '../../schemas/forms/edge_rule/rules';
import { missingMessages, sortErrors, unknownUiFields } from '../../schemas/check';
import type { Declaration } from '../../schemas/types';
import type { FieldError } from '../../src/shared/errors';
import { COUNTRY_CODES, FORBIDDEN_REQUEST_HEADERS, METHODS, PROTECTED_RESPONSE_HEADERS, type EdgeRuleInput } from '../../src/shared/edgerules';
import ui from '../../schemas/forms/edge_rule/ui.json';
import requestSchema from '../../schemas/forms/edge_rule/request.schema.json';

const DIR = path.join(__dirname, '../../schemas/forms/edge_rule');

interface EdgeFixture {
  name: string;
  description: string;
  payload: any;
  errors?: FieldError[];
  context?: { count?: number };
}

/** fixtures/{valid,invalid}/*.json: { description, context?, payload, errors? } */
function fixtures(kind: 'valid' | 'invalid'): EdgeFixture[] {
  const dir = path.join(DIR, 'fixtures', kind);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: f, ...JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) }));
}

const plain = (errors: FieldError[]) => sortErrors(errors.map(({ path: p, message }) => ({ path: p, message })));
const schema = edgeRuleSchema as any;
const action = schema.properties.content.properties.actions.items;
const condition = schema.properties.content.properties.conditions.items;

describe('fixtures', () => {
  const valid = fixtures('valid');
  const invalid = fixtures('invalid');

  it('has valid and invalid fixtures, each described', () => {
    expect(valid.length).toBeGreaterThan(5);
    expect(invalid.length).toBeGreaterThan(20);
    for (const f of [...valid, ...invalid]) expect(f.description).toMatch(/[\u4e00-\u9fff]/);
  });

  it.each(valid.map((f) => [f.name, f] as const))('valid %s passes', (_n, f) => {
    expect(edgeRuleErrors(f.payload, f.context)).toEqual([]);
  });

  it.each(invalid.map((f) => [f.name, f] as const))('invalid %s fails with exactly its messages', (_n, f) => {
    expect(f.errors?.length).toBeTruthy();
    expect(plain(edgeRuleErrors(f.payload, f.context))).toEqual(plain(f.errors!));
  });
});

describe('the declaration', () => {
  const asDeclaration = (s: object, u: object): Declaration => ({ meta: { id: 'edge_rule' } as Declaration['meta'], schema: s as Declaration['schema'], ui: u as Declaration['ui'], rules: {}, dir: DIR });

  it('gives every constraint and every required field a Chinese message', () => {
    expect(missingMessages(asDeclaration(schema, ui))).toEqual([]);
    expect(missingMessages(asDeclaration(requestSchema, {}))).toEqual([]);
  });

  it('names only fields of the schema in ui.json', () => {
    expect(unknownUiFields(asDeclaration(schema, ui))).toEqual([]);
  });

  it('carries the messages of spec 002 §5', () => {
    const text = JSON.stringify(schema);
    for (const m of ['请填写规则名称', '请填写参数值', '请填写匹配值', '请填写合法的 IP', '请填写正则表达式', '不支持自定义国家', '请填写 Header 域名', 'Header 域名不符合规范', '请填写 Header 域值', 'URI 字符串提取需要填写正则', '请填写重定向地址', '请填写错误页面地址', '请填写改写规则', '不符合限速策略的填写规范', '请填写限速值', '不符合限速值的填写规范', '规则编辑器不能为空！', '请填写优先级', '优先级最小为 1', '优先级最大为 {max}', '请填写 IP']) {
      expect(text).toContain(m);
    }
    expect(priorityMessage(7)).toBe('优先级最大为 7');
  });

  it('lists exactly the supported countries and the methods', () => {
    const countryThen = condition.allOf.find((b: any) => b.if.properties.lvalue?.properties?.value?.const === 'country_code').then;
    expect(countryThen.properties.rvalue.properties.value.enum).toEqual([...COUNTRY_CODES]);
    const methodThen = condition.allOf.find((b: any) => b.if.properties.lvalue?.properties?.value?.const === 'http_method').then;
    expect(methodThen.properties.rvalue.properties.value.enum).toEqual([...METHODS]);
    expect(requestSchema.properties.method.enum).toEqual([...METHODS]);
  });

  const header = (kind: string, name: string) => ({
    describe: 'h',
    type: 'general',
    priority: 1,
    break: false,
    status: 'ON',
    content: { conditions: [], actions: [{ type: 'header', kind, operate: 'delete', name }] },
  });
  const refused = (kind: string, name: string) => edgeRuleErrors(header(kind, name)).some((e) => e.message === 'Header 域名不符合规范');

  it('refuses the forbidden request headers in any case (spec 002 §5, issue 19 item 20)', () => {
    for (const h of FORBIDDEN_REQUEST_HEADERS) {
      for (const v of [h, h.toLowerCase(), h.toUpperCase()]) expect(refused('request', v)).toBe(true);
    }
    expect(refused('request', 'X-Forwarded-For')).toBe(false);
    expect(refused('request', 'Content-Length-X')).toBe(false);
  });

  it('reads an empty 限速策略 (after: "") as omitted; a present one must be a rate (spec 002 §5)', () => {
    const limit = (after?: string) => ({
      describe: 'l',
      type: 'general',
      priority: 1,
      break: false,
      status: 'ON',
      content: { conditions: [], actions: [{ type: 'limit_rate', rate: '10MB', ...(after === undefined ? {} : { after }) }] },
    });
    expect(edgeRuleErrors(limit(''))).toEqual([]);
    expect(edgeRuleErrors(limit())).toEqual([]);
    expect(edgeRuleErrors(limit('1MB'))).toEqual([]);
    for (const bad of ['0KB', '5', 'abc']) expect(edgeRuleErrors(limit(bad)).map((e) => e.message)).toContain('不符合限速策略的填写规范');
  });

  it('refuses the forbidden response headers in any case', () => {
    for (const h of PROTECTED_RESPONSE_HEADERS) {
      for (const v of [h, h.toUpperCase(), h.replace(/(^|-)([a-z])/g, (_m, a: string, b: string) => a + b.toUpperCase())]) expect(refused('response', v)).toBe(true);
    }
    expect(refused('response', 'X-Powered-By')).toBe(false);
    expect(refused('response', 'via-proxy')).toBe(false);
  });

  it('describes the seven features of general mode and the condition variables in ui.json', () => {
    const features = (ui.content.actions.items['ui:options'] as any).features as { id: string; type: string; kind?: string; codes?: number[] }[];
    expect(features.map((f) => f.id)).toEqual(['add_header', 'delete_header', 'redirect', 'uri_rewrite', 'limit_rate', 'access_control', 'errorpage']);
    for (const f of features) expect(action.properties.type.enum).toContain(f.type);
    const codes = (kind: string) => action.allOf.find((b: any) => b.if.properties.kind?.const === kind || (kind === 'access_control' && b.if.properties.type.const === kind)).then.properties.code.enum;
    expect(features.find((f) => f.id === 'redirect')!.codes).toEqual(codes('redirect'));
    expect(features.find((f) => f.id === 'errorpage')!.codes).toEqual(codes('errorpage'));
    expect(features.find((f) => f.id === 'access_control')!.codes).toEqual(codes('access_control'));
    const variables = (ui.content.conditions.items.lvalue.value['ui:options'] as any).variables as { value: string }[];
    expect(variables.map((v) => v.value)).toEqual(['http_uri', 'http_method', 'http_scheme', 'country_code', 'remote_ip', 'http_header_', 'http_args_', 'http_post_', 'http_cookie_']);
  });

  it('validates the tester\'s sample request', () => {
    expect(requestErrors({ uri: '/a', method: 'GET', ip: '2001:db8::1', headers: { a: 'b' }, time: 1 })).toEqual([]);
    expect(plain(requestErrors({ uri: 'a', method: 'FETCH', ip: '1.2.3', country: 'CHN' }))).toEqual(
      plain([
        { path: '/uri', message: '请填写以 / 开头的 URI' },
        { path: '/method', message: '请选择请求方法' },
        { path: '/ip', message: '请填写合法的 IP' },
        { path: '/country', message: '国家/地区代码须为两个字母' },
      ]),
    );
  });
});

describe('normalizeRule', () => {
  const base: EdgeRuleInput = { describe: ' 名称 ', type: 'general', priority: 2, break: true, status: 'ON', ip: '1.2.3.4', pattern: '^/x', rule: '$EXIT(403)', content: { conditions: [], actions: [] } };

  it('drops ip unless DEBUG (spec 002 §4) and keeps only the fields of the mode', () => {
    expect(normalizeRule({ ...base, content: { conditions: [], actions: [{ type: 'access_control', code: 403 }] } })).toEqual({
      describe: '名称',
      type: 'general',
      priority: 2,
      break: true,
      status: 'ON',
      content: { conditions: [], actions: [{ type: 'access_control', code: 403 }] },
    });
    expect(normalizeRule({ ...base, type: 'custom', status: 'DEBUG' })).toEqual({ describe: '名称', type: 'custom', priority: 2, break: true, status: 'DEBUG', ip: '1.2.3.4', pattern: '^/x', rule: '$EXIT(403)' });
  });

  it('joins conditions with "and" and keeps only the fields of each feature', () => {
    const c = { lvalue: { type: 'variable' as const, value: 'http_uri' }, rvalue: { type: 'literal' as const, value: '/a' }, operator: 'equal' as const, case_sensitive: true, combination: 'and' as const };
    const out = normalizeRule({
      ...base,
      content: {
        conditions: [c, { ...c, combination: undefined }],
        actions: [{ type: 'header', kind: 'response', operate: 'delete', name: 'X-A', value: 'stale', cover: true, code: 301, target: '/t', rate: '1KB' }],
      },
    });
    expect(out.content!.conditions.map((x) => x.combination)).toEqual([undefined, 'and']);
    expect(out.content!.actions).toEqual([{ type: 'header', kind: 'response', operate: 'delete', name: 'X-A' }]);
    const limit = normalizeRule({ ...base, content: { conditions: [], actions: [{ type: 'limit_rate', rate: '10MB', after: '', name: 'x' }] } });
    expect(limit.content!.actions).toEqual([{ type: 'limit_rate', rate: '10MB' }]);
    const redirect = normalizeRule({ ...base, content: { conditions: [], actions: [{ type: 'movement', kind: 'redirect', code: 301, capture: '', target: '/n', newuri: 'x' }] } });
    expect(redirect.content!.actions).toEqual([{ type: 'movement', kind: 'redirect', code: 301, target: '/n' }]);
  });
});
