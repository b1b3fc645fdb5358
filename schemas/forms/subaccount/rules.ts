/**
 * The sub-account form's logic (spec 000 §4–§6), written once:
 *
 *   guard(permissions, ctx)   the rules on a permission list. The server runs it on every create and
 *                             update (src/server/accounts/children.ts); the console runs it on the list
 *                             the form would send, to keep 确定 disabled and to show the same messages.
 *   behave(prev, next, ctx)   what a change does to the rest of the form (clearing, falling back).
 *   uiState / uiFor           what is disabled, read-only or hidden; uiFor applies it to ui.json.
 *   toPermissions / fromChild between the form value (schema.json) and the list the API carries.
 *   bindsDiff                 which grants to add and revoke after saving.
 *   ruleErrors                guard's refusals as field errors of the form (fixtures and console).
 *
 * The form value groups the permissions (buckets, create, data, other); the API sends
 * `permissions: string[]` (spec 000 §3). The kind permissions cdn, file and live are held exactly
 * when buckets of that kind are chosen; authorized_service "authorization" is the permission
 * `authorized_service`, "all" is data permissions without it, "none" is no data permission.
 */
import type { FieldError } from '../../../src/shared/errors';
import { errorText } from '../../../src/shared/errors';
import type { ChildBind, ChildInfo, KindPermission } from '../../../src/shared/permissions';
import { DATA_PERMISSIONS, KIND_PERMISSIONS, PERMISSIONS } from '../../../src/shared/permissions';

export type DataScope = 'none' | 'authorization' | 'all';

/** The form value (schema.json). */
export interface SubaccountForm {
  child_id?: number;
  child_name?: string;
  password?: string;
  nickname?: string;
  buckets?: { cdn?: string[]; file?: string[]; live?: string[] };
  create?: { create_cdn?: boolean; create_file?: boolean; create_live?: boolean };
  data?: { authorized_service?: DataScope; stats?: boolean; monitor?: boolean; cache?: boolean; log?: boolean };
  other?: { https?: boolean; forbidden_down_ssl?: boolean; bill?: boolean; monitor_alarm?: boolean; cloud_audit?: boolean };
}

/** What the rules need besides the value. */
export interface SubaccountContext {
  /** spec 000 §4 "Modal mode: new or update" */
  mode: 'new' | 'update';
  /** the permissions the sub-account holds before this edit */
  held?: readonly string[];
  /** the main account is one of the special accounts for which bill is hidden */
  billHidden?: boolean;
  /**
   * the account has content audit enabled (GET /api/audit/exists): "content audit must be enabled
   * before sub-accounts can be granted it" (spec 000 §6). Unknown (undefined) is not a refusal; the
   * server always knows.
   */
  auditEnabled?: boolean;
}

/** A refusal: the catalogue code and the form field it is about ('' for the whole form). */
export interface SubaccountRefusal {
  code: number;
  path: string;
}

/** Bucket types the form grants, in display order (spec 000 §6). */
export const BUCKET_TYPES = ['cdn', 'file', 'live'] as const;
export type BucketType = (typeof BUCKET_TYPES)[number];
const CREATE = ['create_cdn', 'create_file', 'create_live'] as const;
const DATA = DATA_PERMISSIONS;
const OTHER = ['https', 'forbidden_down_ssl', 'bill', 'monitor_alarm', 'cloud_audit'] as const;

/** The permission names the form shows; others a sub-account holds are kept as they are. */
export const FORM_PERMISSIONS: readonly string[] = [...BUCKET_TYPES, ...CREATE, 'authorized_service', ...DATA, ...OTHER];

/**
 * "At least one permission is ticked" (spec 000 §5) counts these names while data management is
 * none: the services, creating them, and the other permissions…
 */
export const BASE_NAMES: readonly string[] = PERMISSIONS.filter(
  (p) => !(DATA as readonly string[]).includes(p) && p !== 'authorized_service' && p !== 'forbidden_down_ssl',
);
/** …and these while it is authorization or all: a data scope needs at least one data permission. */
export const DATA_NAMES: readonly string[] = DATA;

export function scopeOf(permissions: readonly string[]): DataScope {
  if (permissions.includes('authorized_service')) return 'authorization';
  return DATA.some((d) => permissions.includes(d)) ? 'all' : 'none';
}

/** The form knows its scope even when no data permission is ticked; a bare list does not. */
export function anyPermission(permissions: readonly string[], scope: DataScope = scopeOf(permissions)): boolean {
  const names = scope === 'none' ? BASE_NAMES : DATA_NAMES;
  return names.some((n) => permissions.includes(n));
}

/** A complete form value: every group and field present. */
export function complete(form: SubaccountForm): Required<Pick<SubaccountForm, 'buckets' | 'create' | 'data' | 'other'>> & SubaccountForm {
  const b = form.buckets ?? {};
  const c = form.create ?? {};
  const d = form.data ?? {};
  const o = form.other ?? {};
  return {
    ...form,
    buckets: { cdn: [...(b.cdn ?? [])], file: [...(b.file ?? [])], live: [...(b.live ?? [])] },
    create: { create_cdn: Boolean(c.create_cdn), create_file: Boolean(c.create_file), create_live: Boolean(c.create_live) },
    data: { authorized_service: d.authorized_service ?? 'none', stats: Boolean(d.stats), monitor: Boolean(d.monitor), cache: Boolean(d.cache), log: Boolean(d.log) },
    other: {
      https: Boolean(o.https),
      forbidden_down_ssl: Boolean(o.forbidden_down_ssl),
      bill: Boolean(o.bill),
      monitor_alarm: Boolean(o.monitor_alarm),
      cloud_audit: Boolean(o.cloud_audit),
    },
  };
}

/** A new sub-account (spec 000 §6): every create_ on, stats, monitor, cache and log on, scope all. */
export function defaults(): SubaccountForm {
  return {
    child_name: undefined,
    password: undefined,
    nickname: undefined,
    buckets: { cdn: [], file: [], live: [] },
    create: { create_cdn: true, create_file: true, create_live: true },
    data: { authorized_service: 'all', stats: true, monitor: true, cache: true, log: true },
    other: { https: false, forbidden_down_ssl: false, bill: false, monitor_alarm: false, cloud_audit: false },
  };
}

export function bucketCount(form: SubaccountForm): number {
  const b = form.buckets ?? {};
  return BUCKET_TYPES.reduce((n, t) => n + (b[t]?.length ?? 0), 0);
}

/** Only live buckets are chosen (spec 000 §4: monitor and cache do not apply). */
export function onlyLive(form: SubaccountForm): boolean {
  const b = form.buckets ?? {};
  return (b.live?.length ?? 0) > 0 && !(b.cdn?.length ?? 0) && !(b.file?.length ?? 0);
}

/** The list the API carries. Permissions the form does not show (scdn, ws, …) are kept from `held`. */
export function toPermissions(form: SubaccountForm, held: readonly string[] = []): string[] {
  const f = complete(form);
  const out = new Set<string>();
  for (const t of BUCKET_TYPES) if (f.buckets[t]!.length) out.add(t);
  for (const c of CREATE) if (f.create[c]) out.add(c);
  const scope = f.data.authorized_service;
  if (scope === 'authorization') out.add('authorized_service');
  if (scope !== 'none') for (const d of DATA) if (f.data[d]) out.add(d);
  for (const o of OTHER) if (f.other[o]) out.add(o);
  for (const h of held) if (!FORM_PERMISSIONS.includes(h)) out.add(h);
  const known: string[] = PERMISSIONS.filter((p) => out.has(p));
  return known.concat([...out].filter((p) => !known.includes(p)));
}

/** The form of an existing sub-account and its grants. */
export function fromChild(child: Pick<ChildInfo, 'child_id' | 'child_name' | 'nickname' | 'permissions'>, binds: readonly Pick<ChildBind, 'bucket_name' | 'bucket_type'>[]): SubaccountForm {
  const p = new Set(child.permissions);
  const of = (t: BucketType) => binds.filter((b) => b.bucket_type === t).map((b) => b.bucket_name);
  return {
    child_id: child.child_id,
    child_name: child.child_name,
    password: undefined,
    nickname: child.nickname ?? undefined,
    buckets: { cdn: of('cdn'), file: of('file'), live: of('live') },
    create: { create_cdn: p.has('create_cdn'), create_file: p.has('create_file'), create_live: p.has('create_live') },
    data: {
      authorized_service: scopeOf(child.permissions),
      stats: p.has('stats'),
      monitor: p.has('monitor'),
      cache: p.has('cache'),
      log: p.has('log'),
    },
    other: {
      https: p.has('https'),
      forbidden_down_ssl: p.has('forbidden_down_ssl'),
      bill: p.has('bill'),
      monitor_alarm: p.has('monitor_alarm'),
      cloud_audit: p.has('cloud_audit'),
    },
  };
}

function cloudAuditOffered(ctx: SubaccountContext): boolean {
  return ctx.mode === 'update' && Boolean(ctx.held?.includes('cloud_audit'));
}

/**
 * The rules on a permission list (spec 000 §4–§6). Unknown names are the schema's business.
 * `scope` is the form's data scope (a list alone says none when no data permission is in it).
 */
export function guard(permissions: readonly string[], ctx: SubaccountContext, scope: DataScope = scopeOf(permissions)): SubaccountRefusal[] {
  const p = new Set(permissions);
  const out: SubaccountRefusal[] = [];
  const kinds = KIND_PERMISSIONS.filter((k) => p.has(k));
  // "Choosing authorization is disabled while no bucket is selected."
  if (p.has('authorized_service') && kinds.length === 0) out.push({ code: 41011, path: '/data/authorized_service' });
  // "If only live buckets are selected, monitor and cache are cleared and disabled."
  if (kinds.length > 0 && kinds.every((k: KindPermission) => k === 'live')) {
    if (p.has('monitor')) out.push({ code: 41012, path: '/data/monitor' });
    if (p.has('cache')) out.push({ code: 41012, path: '/data/cache' });
  }
  // "The forbid-download-certificate option is usable only when the SSL permission is on."
  if (p.has('forbidden_down_ssl') && !p.has('https')) out.push({ code: 41010, path: '/other/forbidden_down_ssl' });
  // cloud_audit: "shown in the edit form only if the sub-account already has it and never offered on create"
  // and "content audit must be enabled before sub-accounts can be granted it" (spec 000 §6)
  if (p.has('cloud_audit') && (!cloudAuditOffered(ctx) || ctx.auditEnabled === false)) out.push({ code: 41008, path: '/other/cloud_audit' });
  // bill: "hidden for two specific special accounts"
  if (p.has('bill') && ctx.billHidden) out.push({ code: 41009, path: '/other/bill' });
  // "Save is enabled only when … at least one permission is ticked."
  if (!anyPermission([...p], scope)) out.push({ code: 41005, path: '' });
  return out;
}

/** guard's refusals of the form's list, as field errors with the catalogue's texts. */
export function ruleErrors(form: SubaccountForm, ctx?: Partial<SubaccountContext>): FieldError[] {
  const full: SubaccountContext = { mode: form.child_id ? 'update' : 'new', held: [], billHidden: false, ...ctx };
  return guard(toPermissions(form, full.held), full, complete(form).data.authorized_service).map((r) => ({ path: r.path, message: errorText(r.code), code: r.code }));
}

/** Whether 确定 may be enabled: the rules pass (the schema is checked by the form itself). */
export function canSave(form: SubaccountForm, ctx: SubaccountContext): boolean {
  return guard(toPermissions(form, ctx.held), ctx, complete(form).data.authorized_service).length === 0;
}

/**
 * What a change does to the rest of the form (spec 000 §4), given the value before and after it:
 * - changing the data scope clears stats, log, monitor and cache;
 * - removing the last bucket falls back to none (stats and log cleared, and monitor and cache, which
 *   none never keeps); authorization is not possible without a bucket;
 * - only live buckets: monitor and cache cleared; scope none: no data permission;
 * - SSL off clears forbid-download; cloud_audit and bill stay off where they are not offered.
 */
export function behave(prev: SubaccountForm, next: SubaccountForm, ctx: SubaccountContext): SubaccountForm {
  const before = complete(prev);
  const f = complete(next);
  const clearData = () => Object.assign(f.data, { stats: false, monitor: false, cache: false, log: false });
  if (f.data.authorized_service !== before.data.authorized_service) clearData();
  if (bucketCount(f) === 0 && (bucketCount(before) > 0 || f.data.authorized_service === 'authorization')) {
    f.data.authorized_service = 'none';
    clearData();
  }
  if (f.data.authorized_service === 'none') clearData();
  if (onlyLive(f)) Object.assign(f.data, { monitor: false, cache: false });
  if (!f.other.https) f.other.forbidden_down_ssl = false;
  if (!cloudAuditOffered(ctx)) f.other.cloud_audit = false;
  if (ctx.billHidden) f.other.bill = false;
  return f;
}

export interface SubaccountUiState {
  authorizationDisabled: boolean;
  dataDisabled: boolean;
  monitorCacheDisabled: boolean;
  forbiddenDisabled: boolean;
  billHidden: boolean;
  cloudAuditShown: boolean;
  nameReadonly: boolean;
}

export function uiState(form: SubaccountForm, ctx: SubaccountContext): SubaccountUiState {
  const f = complete(form);
  const none = f.data.authorized_service === 'none';
  return {
    authorizationDisabled: bucketCount(f) === 0,
    dataDisabled: none,
    monitorCacheDisabled: none || onlyLive(f),
    forbiddenDisabled: !f.other.https,
    billHidden: Boolean(ctx.billHidden),
    cloudAuditShown: cloudAuditOffered(ctx),
    nameReadonly: ctx.mode === 'update',
  };
}

type Ui = Record<string, any>;

/** ui.json with the state applied: disabled, read-only and hidden fields, the radio's disabled option. */
export function uiFor(ui: Ui, form: SubaccountForm, ctx: SubaccountContext): Ui {
  const s = uiState(form, ctx);
  const out: Ui = structuredClone(ui);
  const at = (...path: string[]): Ui => {
    let node = out;
    for (const p of path) node = node[p] ??= {};
    return node;
  };
  at('child_name')['ui:readonly'] = s.nameReadonly;
  if (ctx.mode === 'update') at('password')['ui:placeholder'] = '不修改请留空';
  const radio = at('data', 'authorized_service');
  radio['ui:options'] = { ...(radio['ui:options'] ?? {}), enumDisabled: s.authorizationDisabled ? ['authorization'] : [] };
  for (const d of ['stats', 'log']) at('data', d)['ui:disabled'] = s.dataDisabled;
  for (const d of ['monitor', 'cache']) at('data', d)['ui:disabled'] = s.monitorCacheDisabled;
  at('other', 'forbidden_down_ssl')['ui:disabled'] = s.forbiddenDisabled;
  if (s.billHidden) at('other', 'bill')['ui:widget'] = 'hidden';
  if (!s.cloudAuditShown) at('other', 'cloud_audit')['ui:widget'] = 'hidden';
  return out;
}

/** The grants to add (names by type) and the grants to revoke after saving. */
export function bindsDiff(before: readonly ChildBind[], form: SubaccountForm): { add: { bucket_name: string; bucket_type: BucketType }[]; remove: ChildBind[] } {
  const f = complete(form);
  const add: { bucket_name: string; bucket_type: BucketType }[] = [];
  for (const t of BUCKET_TYPES) {
    for (const name of f.buckets[t]!) if (!before.some((b) => b.bucket_type === t && b.bucket_name === name)) add.push({ bucket_name: name, bucket_type: t });
  }
  const remove = before.filter((b) => (BUCKET_TYPES as readonly string[]).includes(b.bucket_type) && !f.buckets[b.bucket_type as BucketType]!.includes(b.bucket_name));
  return { add, remove };
}
