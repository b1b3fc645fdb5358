/**
 * Every enum a declaration names in its schema (`enumNames` beside `enum`) shows those names in the
 * console's radios, selects and checkboxes: RJSF 6 reads only `ui:enumNames`, and 新建告警任务 showed
 * bandwidth / gt, URL 刷新's 完成通知 showed 0 / 1 (renderers/theme/widgets.tsx enumOptionsOf).
 */
import fs from 'node:fs';
import path from 'node:path';
import { getUiOptions, optionsList } from '@rjsf/utils';
import { enumOptionsOf } from '../../renderers/theme/widgets';

const ROOT = path.join(__dirname, '../../schemas');

/** Every enum with schema-level names in the declarations, with its UI schema node. */
function namedEnums(): { where: string; schema: any; ui: any }[] {
  const out: { where: string; schema: any; ui: any }[] = [];
  const walk = (node: any, ui: any, where: string) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node.enum) && Array.isArray(node.enumNames)) out.push({ where, schema: node, ui: ui ?? {} });
    for (const [k, v] of Object.entries(node.properties ?? {})) walk(v, ui?.[k], `${where}.${k}`);
    if (node.items) {
      if (Array.isArray(node.items.enum) && Array.isArray(node.items.enumNames)) out.push({ where: `${where}[]`, schema: node, ui: ui ?? {} });
      else walk(node.items, ui?.items, `${where}[]`);
    }
    for (const key of ['allOf', 'oneOf', 'anyOf']) (node[key] ?? []).forEach((sub: any, i: number) => walk(sub, ui, `${where}.${key}${i}`));
    for (const key of ['if', 'then', 'else']) if (node[key]) walk(node[key], ui, `${where}.${key}`);
  };
  for (const group of ['forms', 'settings']) {
    const dir = path.join(ROOT, group);
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir)) {
      const file = path.join(dir, name, 'schema.json');
      if (!fs.existsSync(file)) continue;
      const uiFile = path.join(dir, name, 'ui.json');
      const ui = fs.existsSync(uiFile) ? JSON.parse(fs.readFileSync(uiFile, 'utf8')) : {};
      walk(JSON.parse(fs.readFileSync(file, 'utf8')), ui, `${group}/${name}`);
    }
  }
  return out;
}

const labelsOf = (schema: any, ui: any) => {
  const options = { ...getUiOptions(ui), enumOptions: optionsList(schema.enum ? schema : schema.items, ui) };
  return enumOptionsOf({ options, schema } as any).map((o) => o.label);
};

it('finds the declarations that name their values in the schema', () => {
  const where = namedEnums().map((e) => e.where);
  expect(where).toEqual(expect.arrayContaining(['forms/monitor_task.metric', 'forms/purge_url.nofi', 'forms/work_order.type', 'forms/third_backup.platform']));
});

it.each(namedEnums().map((e) => [e.where, e] as const))('%s shows its names, not its values', (_where, { schema, ui }) => {
  const own = schema.enum ? schema : schema.items;
  const expected = ui['ui:enumNames'] ?? own.enumNames;
  expect(labelsOf(schema, ui)).toEqual(own.enum.map((v: unknown, i: number) => expected[i] ?? String(v)));
});

it('keeps ui:enumNames first and values without a name as they are', () => {
  const schema = { type: 'string', enum: ['a', 'b'], enumNames: ['甲'] };
  expect(labelsOf(schema, {})).toEqual(['甲', 'b']);
  expect(labelsOf(schema, { 'ui:enumNames': ['一', '二'] })).toEqual(['一', '二']);
  expect(labelsOf({ type: 'integer', enum: [0, 1], enumNames: ['不通知', '任务全部结束后发送站内信'] }, {})).toEqual(['不通知', '任务全部结束后发送站内信']);
});
