/**
 * Spec 001 §4: the selector components fail when their required inputs are missing — 'type is
 * required', 'selected is required', 'active is required', 'level is required', 'currentLevel is
 * required' — so that a page that forgets one breaks in development instead of querying nothing.
 */
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { LevelPicker, MultiSelector, SingleSelector } from '../../src/console/stats/selectors';

const render = (el: any) => () => renderToString(el);
const noop = () => undefined;

test('the multi-selector needs its flow type and its selection', () => {
  expect(render(createElement(MultiSelector, { flowType: undefined as any, value: { type: 'bucket', values: [] }, onChange: noop }))).toThrow('type is required');
  expect(render(createElement(MultiSelector, { flowType: 'cdn', value: undefined as any, onChange: noop }))).toThrow('selected is required');
  expect(render(createElement(MultiSelector, { flowType: 'cdn', value: { type: 'bucket', values: [] }, onChange: noop }))).not.toThrow();
});

test('the single selector needs its flow type and its active tab', () => {
  expect(render(createElement(SingleSelector, { flowType: undefined as any, tab: 'bucket', value: '', onChange: noop }))).toThrow('type is required');
  expect(render(createElement(SingleSelector, { flowType: 'scdn', tab: undefined as any, value: '', onChange: noop }))).toThrow('active is required');
  expect(render(createElement(SingleSelector, { flowType: 'scdn', tab: 'bucket', value: '', onChange: noop }))).not.toThrow();
});

test('the level picker needs its level and the current level', () => {
  expect(render(createElement(LevelPicker, { level: 0, current: 1, onChange: noop }))).toThrow('level is required');
  expect(render(createElement(LevelPicker, { level: 3, current: 0, onChange: noop }))).toThrow('currentLevel is required');
});
