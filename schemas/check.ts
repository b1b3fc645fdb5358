/**
 * The checks of a declaration that the CLI (`npm run schemas -- check`) and jest share.
 */
import type { FieldError } from '../src/shared/errors';
import { KINDS, isServiceKind, TAB_FAMILIES } from '../src/shared/services';
import { SettingRegistry } from './registry';
import { placeholdersOf } from './summary';
import type { Declaration, JsonSchema } from './types';

export interface CheckFailure {
  file: string;
  path: string;
  problem: string;
}

export function sortErrors(errors: FieldError[]): FieldError[] {
  return [...errors].sort((a, b) => a.path.localeCompare(b.path) || a.message.localeCompare(b.message));
}

const CJK = /[\u4e00-\u9fff]/;
/** Keywords that can fail and so need a Chinese message. */
const FAILING_KEYWORDS = ['type', 'enum', 'const', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'pattern', 'format', 'minItems', 'maxItems', 'uniqueItems', 'multipleOf', 'notAllDigits', 'regexp', 'uniqueLines', 'pemCertificate', 'pemChainBalanced', 'pemNoPrivateKey', 'pemPrivateKey', 'pemNoCertificate', 'dnsName', 'punycode', 'additionalProperties'];

function walkSchema(schema: JsonSchema, ptr: string, visit: (s: JsonSchema, ptr: string) => void): void {
  visit(schema, ptr);
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  for (const [k, s] of Object.entries(props ?? {})) walkSchema(s, `${ptr}/properties/${k}`, visit);
  if (schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items)) walkSchema(schema.items as JsonSchema, `${ptr}/items`, visit);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = schema[key] as JsonSchema[] | undefined;
    list?.forEach((s, i) => walkSchema(s, `${ptr}/${key}/${i}`, visit));
  }
  // an `if` only selects; its constraints never reach a person
  for (const key of ['then', 'else'] as const) {
    if (schema[key] && typeof schema[key] === 'object') walkSchema(schema[key] as JsonSchema, `${ptr}/${key}`, visit);
  }
}

/** Every constraint that can fail carries a Chinese message (in its own or a parent's errorMessage). */
export function missingMessages(d: Declaration): CheckFailure[] {
  const out: CheckFailure[] = [];
  const file = `${d.dir ?? d.meta.id}/schema.json`;
  walkSchema(d.schema, '', (s, ptr) => {
    const em = (s.errorMessage ?? {}) as Record<string, unknown>;
    for (const kw of FAILING_KEYWORDS) {
      if (!(kw in s)) continue;
      if (kw === 'additionalProperties' && s[kw] !== false) continue;
      if (kw === 'type' && ptr === '') continue; // the root's type is checked by the route, not the person
      const msg = typeof s.errorMessage === 'string' ? s.errorMessage : em[kw];
      if (typeof msg !== 'string' || !CJK.test(msg)) out.push({ file, path: ptr || '/', problem: `约束 ${kw} 缺少中文错误信息 (errorMessage.${kw})` });
    }
    const required = (s.required ?? []) as string[];
    const reqMsgs = (em.required ?? {}) as Record<string, unknown>;
    for (const r of required) {
      const msg = typeof reqMsgs === 'string' ? reqMsgs : reqMsgs[r];
      if (typeof msg !== 'string' || !CJK.test(msg)) out.push({ file, path: `${ptr || ''}/required/${r}`, problem: `必填字段 ${r} 缺少中文错误信息 (errorMessage.required.${r})` });
    }
  });
  return out;
}

/** The UI schema names only fields that exist in the schema. */
export function unknownUiFields(d: Declaration): CheckFailure[] {
  const out: CheckFailure[] = [];
  const file = `${d.dir ?? d.meta.id}/ui.json`;
  const walk = (ui: Record<string, unknown>, schema: JsonSchema, ptr: string) => {
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const [k, v] of Object.entries(ui)) {
      if (k.startsWith('ui:')) {
        if (k === 'ui:order') {
          for (const name of v as string[]) if (name !== '*' && !(name in props)) out.push({ file, path: `${ptr}/ui:order`, problem: `ui:order 中的字段 ${name} 不存在` });
        }
        continue;
      }
      if (k === 'items' && schema.type === 'array') {
        walk(v as Record<string, unknown>, (schema.items ?? {}) as JsonSchema, `${ptr}/items`);
        continue;
      }
      if (!(k in props)) {
        out.push({ file, path: `${ptr}/${k}`, problem: `UI 模式中的字段 ${k} 在 schema.json 中不存在` });
        continue;
      }
      if (v && typeof v === 'object') walk(v as Record<string, unknown>, props[k], `${ptr}/${k}`);
    }
  };
  walk(d.ui, d.schema, '');
  return out;
}

/** setting.json names known kinds, a known tab, and a tab each kind has. */
export function badMeta(d: Declaration, folderName?: string): CheckFailure[] {
  const out: CheckFailure[] = [];
  const file = `${d.dir ?? d.meta.id}/setting.json`;
  const m = d.meta;
  if (!m.id || !/^[a-z][a-z0-9_]*$/.test(m.id)) out.push({ file, path: '/id', problem: 'id 须为小写字母开头的小写字母、数字或下划线' });
  if (folderName && m.id !== folderName) out.push({ file, path: '/id', problem: `id ${m.id} 与目录名 ${folderName} 不一致` });
  if (!m.title || !CJK.test(m.title)) {
    if (!m.title) out.push({ file, path: '/title', problem: '缺少标题' });
  }
  if (!Array.isArray(m.kinds) || m.kinds.length === 0) out.push({ file, path: '/kinds', problem: '至少适用于一种服务类型' });
  if (!(TAB_FAMILIES as readonly string[]).includes(m.tab)) out.push({ file, path: '/tab', problem: `未知的标签页 ${m.tab}` });
  for (const k of m.kinds ?? []) {
    if (!isServiceKind(k)) out.push({ file, path: '/kinds', problem: `未知的服务类型 ${k}` });
    else if (!KINDS[k].tabs.includes(m.tab)) out.push({ file, path: '/kinds', problem: `${k} 类服务没有 ${m.tab} 标签页` });
  }
  if (!['dialog', 'switch'].includes(m.panel)) out.push({ file, path: '/panel', problem: 'panel 须为 dialog 或 switch' });
  if (m.panel === 'switch') {
    const props = (d.schema.properties ?? {}) as Record<string, JsonSchema>;
    if (!m.switchField || props[m.switchField]?.type !== 'boolean') out.push({ file, path: '/switchField', problem: 'switch 面板须指定一个布尔字段' });
    if (!m.confirm?.on || !m.confirm?.off) out.push({ file, path: '/confirm', problem: 'switch 面板须提供开启与关闭的确认文字（confirm.on / confirm.off）' });
  }
  if (m.checkBeforeConfirm !== undefined && (typeof m.checkBeforeConfirm !== 'boolean' || m.panel !== 'switch')) out.push({ file, path: '/checkBeforeConfirm', problem: 'checkBeforeConfirm 须为布尔值，且只用于 switch 面板' });
  if (m.networkFailure !== undefined && (typeof m.networkFailure !== 'string' || !CJK.test(m.networkFailure))) out.push({ file, path: '/networkFailure', problem: 'networkFailure 须为中文提示' });
  if (!m.success || !CJK.test(m.success)) out.push({ file, path: '/success', problem: '缺少中文成功提示' });
  if (!Array.isArray(m.summary) || m.summary.length === 0) out.push({ file, path: '/summary', problem: '缺少摘要标签' });
  else {
    if (m.summary[m.summary.length - 1].when || m.summary[m.summary.length - 1].kinds) out.push({ file, path: '/summary', problem: '最后一条摘要标签须不带条件（兜底）' });
    m.summary.forEach((rule, i) => {
      if (rule.kinds !== undefined && (!Array.isArray(rule.kinds) || !rule.kinds.length || rule.kinds.some((k) => !m.kinds.includes(k))))
        out.push({ file, path: `/summary/${i}/kinds`, problem: '摘要标签的 kinds 须是该设置适用的服务类型' });
    });
  }
  return out;
}

/** Every valid fixture passes, every invalid one fails with exactly the listed messages. */
export function fixtureFailures(registry: SettingRegistry, d: Declaration): CheckFailure[] {
  const out: CheckFailure[] = [];
  const fx = d.fixtures ?? { valid: [], invalid: [] };
  if (fx.valid.length === 0) out.push({ file: `${d.dir}/fixtures/valid`, path: '/', problem: '至少需要一个有效样例' });
  if (fx.invalid.length === 0) out.push({ file: `${d.dir}/fixtures/invalid`, path: '/', problem: '至少需要一个无效样例' });
  for (const f of fx.valid) {
    for (const e of registry.check(d.meta.id, f.payload)) out.push({ file: f.file, path: e.path || '/', problem: `有效样例未通过：${e.message}` });
  }
  for (const f of fx.invalid) {
    const expected = sortErrors(f.errors ?? []);
    if (expected.length === 0) out.push({ file: f.file, path: '/errors', problem: '无效样例须列出预期的错误' });
    const actual = sortErrors(registry.check(d.meta.id, f.payload));
    const key = (e: FieldError) => `${e.path}\u0000${e.message}`;
    const a = new Set(actual.map(key));
    const x = new Set(expected.map(key));
    for (const e of expected) if (!a.has(key(e))) out.push({ file: f.file, path: e.path || '/', problem: `缺少预期的错误：${e.message}` });
    for (const e of actual) if (!x.has(key(e))) out.push({ file: f.file, path: e.path || '/', problem: `出现未列出的错误：${e.message}` });
  }
  return out;
}

/** All checks of all declarations. */
export function checkAll(declarations: Declaration[]): CheckFailure[] {
  const out: CheckFailure[] = [];
  let registry: SettingRegistry;
  try {
    registry = new SettingRegistry(declarations);
  } catch (e) {
    return [{ file: 'schemas/settings', path: '/', problem: (e as Error).message }];
  }
  for (const d of declarations) {
    const folder = d.dir ? d.dir.split(/[\\/]/).pop() : undefined;
    out.push(...badMeta(d, folder));
    try {
      registry.validator(d.meta.id);
    } catch (e) {
      out.push({ file: `${d.dir}/schema.json`, path: '/', problem: `模式无法编译：${(e as Error).message}` });
      continue;
    }
    out.push(...missingMessages(d), ...unknownUiFields(d), ...fixtureFailures(registry, d), ...badReferences(registry, d));
  }
  return out;
}

/** Names of other settings and fixed values in setting.json point at something real. */
export function badReferences(registry: SettingRegistry, d: Declaration): CheckFailure[] {
  const out: CheckFailure[] = [];
  const file = `${d.dir ?? d.meta.id}/setting.json`;
  for (const key of ['summaryWith', 'reloadOn'] as const) {
    for (const other of d.meta[key] ?? []) {
      if (!registry.get(other)) out.push({ file, path: `/${key}`, problem: `引用的设置 ${other} 不存在` });
    }
  }
  for (const [kind, value] of Object.entries(d.meta.fixed ?? {})) {
    if (!d.meta.kinds.includes(kind as never)) out.push({ file, path: `/fixed/${kind}`, problem: `固定值的服务类型 ${kind} 不在 kinds 中` });
    for (const e of registry.check(d.meta.id, value)) out.push({ file, path: `/fixed/${kind}${e.path}`, problem: `固定值不符合模式：${e.message}` });
  }
  const fields = (d.schema.properties ?? {}) as Record<string, unknown>;
  for (const [alias, field] of Object.entries(d.meta.fieldAliases ?? {})) {
    if (!(field in fields)) out.push({ file, path: `/fieldAliases/${alias}`, problem: `别名指向的字段 ${field} 不存在` });
    if (alias in fields) out.push({ file, path: `/fieldAliases/${alias}`, problem: `别名 ${alias} 与已有字段同名` });
  }
  if (d.meta.partOf) {
    const parent = registry.get(d.meta.partOf.setting);
    if (!parent) out.push({ file, path: '/partOf/setting', problem: `引用的设置 ${d.meta.partOf.setting} 不存在` });
    else if (parent.meta.panel !== 'dialog') out.push({ file, path: '/partOf/setting', problem: `设置 ${d.meta.partOf.setting} 没有对话框，不能包含其他设置` });
    else if (parent.meta.partOf) out.push({ file, path: '/partOf/setting', problem: `设置 ${d.meta.partOf.setting} 本身属于其他设置` });
    if (d.meta.partOf.whenHidden) {
      for (const e of registry.check(d.meta.id, { ...(registry.defaults(d.meta.id) as object), ...d.meta.partOf.whenHidden }).filter((e) => e.path !== '' && Object.keys(d.meta.partOf!.whenHidden!).some((k) => e.path.startsWith(`/${k}`))))
        out.push({ file, path: `/partOf/whenHidden${e.path}`, problem: `隐藏时的值不符合模式：${e.message}` });
    }
  }
  if (d.meta.confirmChange) {
    const props = (d.schema.properties ?? {}) as Record<string, unknown>;
    if (!(d.meta.confirmChange.field in props)) out.push({ file, path: '/confirmChange/field', problem: `字段 ${d.meta.confirmChange.field} 不存在` });
  }
  out.push(...badSummaryPlaceholders(registry, d));
  return out;
}

/**
 * The placeholders of the summary labels (schemas/summary.ts fillLabel) name a field the schema has:
 * `{/a/0/b}` a string or number field, `{/a#count}` an array; `$<id>` only a setting of `summaryWith`.
 */
export function badSummaryPlaceholders(registry: SettingRegistry, d: Declaration): CheckFailure[] {
  const out: CheckFailure[] = [];
  const file = `${d.dir ?? d.meta.id}/setting.json`;
  (Array.isArray(d.meta.summary) ? d.meta.summary : []).forEach((rule, i) => {
    if (typeof rule.label !== 'string') return;
    for (const p of placeholdersOf(rule.label)) {
      let [schema, tokens] = [d.schema, p.pointer];
      if (tokens[0]?.startsWith('$')) {
        const other = tokens[0].slice(1);
        const related = (d.meta.summaryWith ?? []).includes(other) ? registry.get(other) : undefined;
        if (!related) {
          out.push({ file, path: `/summary/${i}/label`, problem: `摘要标签的占位符 ${p.text} 引用的设置 ${other} 不在 summaryWith 中` });
          continue;
        }
        [schema, tokens] = [related.schema, tokens.slice(1)];
      }
      const found = tokens.reduce<JsonSchema[]>((at, token) => at.flatMap((s) => childrenAt(s, token)), [schema]);
      const types = new Set(found.flatMap((s) => typesOf(s)));
      if (found.length === 0) out.push({ file, path: `/summary/${i}/label`, problem: `摘要标签的占位符 ${p.text} 指向的字段在 schema.json 中不存在` });
      else if (p.count ? !types.has('array') : !['string', 'number', 'integer'].some((t) => types.has(t)))
        out.push({ file, path: `/summary/${i}/label`, problem: p.count ? `摘要标签的占位符 ${p.text} 须指向数组字段` : `摘要标签的占位符 ${p.text} 须指向字符串或数字字段` });
    }
  });
  return out;
}

/** A schema and the schemas of its branches (allOf/anyOf/oneOf, then/else): where a field may be declared. */
function branchesOf(s: JsonSchema): JsonSchema[] {
  const out = [s];
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) for (const b of (s[key] as JsonSchema[] | undefined) ?? []) out.push(...branchesOf(b));
  for (const key of ['then', 'else'] as const) if (s[key] && typeof s[key] === 'object') out.push(...branchesOf(s[key] as JsonSchema));
  return out;
}

/** The schemas of a property or an array item (a pointer token) of a schema. */
function childrenAt(s: JsonSchema, token: string): JsonSchema[] {
  return branchesOf(s).flatMap((b) => {
    const props = b.properties as Record<string, JsonSchema> | undefined;
    if (props && Object.hasOwn(props, token)) return [props[token]!];
    if (/^(0|[1-9]\d*)$/.test(token) && b.items && typeof b.items === 'object') return [Array.isArray(b.items) ? (b.items[Number(token)] as JsonSchema | undefined) : (b.items as JsonSchema)].filter((x): x is JsonSchema => !!x);
    return [];
  });
}

/** The declared types of a schema and its branches (`enum`/`const` values count by their type). */
function typesOf(s: JsonSchema): string[] {
  return branchesOf(s).flatMap((b) => {
    const listed = Array.isArray(b.type) ? (b.type as string[]) : typeof b.type === 'string' ? [b.type] : [];
    const values = [...((b.enum as unknown[] | undefined) ?? []), ...('const' in b ? [b.const] : [])];
    return [...listed, ...values.map((v) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v))];
  });
}
