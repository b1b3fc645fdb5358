/**
 * The differences the rule tester's "发送真实请求" shows (src/shared/edgerules/live.ts): each part of the
 * edge's result against the prediction, in Chinese.
 */
import { evaluate, type RunnableRule } from '../../src/shared/edgerules';
import { liveDifferences, type LiveEdgeResult } from '../../src/shared/edgerules/live';

const rule = (r: string, extra: Partial<RunnableRule> = {}): RunnableRule => ({ rewrite_id: 7, describe: 'x', type: 'custom', priority: 1, break: false, status: 'ON', pattern: '', rule: r, ...extra });
const edge = (e: Partial<LiveEdgeResult>): LiveEdgeResult => ({ status: 200, location: null, headers: {}, origin_uri: null, limit_rate: null, rules: [], body: '', ...e });

test('agreeing results have no differences', () => {
  const o = evaluate([rule('$ADD_RSP_HEADER(X-A, 1)$LIMIT_RATE(1, k)')], { uri: '/a' });
  expect(liveDifferences(o, edge({ headers: { 'x-a': '1' }, origin_uri: '/a', limit_rate: { rate: 1024, after: null }, rules: [{ rewrite_id: 7, outcome: 'matched' }] }))).toEqual([]);
});

test('each kind of difference is named with both values', () => {
  const o = evaluate([rule('$ADD_RSP_HEADER(X-A, 1, 1)$DEL_RSP_HEADER(X-B)/b$LIMIT_RATE(1, k)')], { uri: '/a' });
  expect(liveDifferences(o, edge({ status: 200, headers: { 'x-a': '2', 'x-b': 'still' }, origin_uri: '/a', limit_rate: { rate: null, after: null }, rules: [{ rewrite_id: 7, outcome: 'error' }] }))).toEqual([
    '回源 URI：预测 /b，实际 /a',
    '响应头 x-a：预测 1，实际 2',
    '响应头 x-b：预测 （无），实际 still',
    '限速：预测 1024 B/s，实际 （无）',
    '规则 7：预测 命中，实际 执行出错',
  ]);
  const r = evaluate([rule('$REDIRECT(/n, 301)')], { uri: '/a' });
  expect(liveDifferences(r, edge({ status: 200 }))).toEqual(['状态码：预测 301，实际 200', 'Location：预测 /n，实际 （无）']);
});
