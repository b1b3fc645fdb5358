/**
 * The sub-account form's behaviours (schemas/forms/subaccount/rules.ts), which the console runs as
 * the person changes the form and the server runs as its guard (spec 000 §4–§6). The fixtures cover
 * the refusals; these cover what a change does, what is disabled, the list the API carries and the
 * grants to add and revoke.
 */
import {
  behave, bindsDiff, canSave, defaults, fromChild, guard, scopeOf, toPermissions, uiFor, uiState,
  type SubaccountContext, type SubaccountForm,
} from '../../schemas/forms/subaccount/rules';
import ui from '../../schemas/forms/subaccount/ui.json';
import type { ChildBind } from '../../src/shared/permissions';

const NEW: SubaccountContext = { mode: 'new', held: [], billHidden: false };
const with_ = (patch: (f: SubaccountForm) => void, base: SubaccountForm = defaults()): SubaccountForm => {
  const f = structuredClone(base);
  patch(f);
  return f;
};

describe('defaults (spec 000 §6)', () => {
  it('every create_ on, stats, monitor, cache and log on, scope all, nothing else', () => {
    const d = defaults();
    expect(d.create).toEqual({ create_cdn: true, create_file: true, create_live: true });
    expect(d.data).toEqual({ authorized_service: 'all', stats: true, monitor: true, cache: true, log: true });
    expect(Object.values(d.other!).every((v) => v === false)).toBe(true);
    expect(toPermissions(d)).toEqual(['create_cdn', 'create_file', 'create_live', 'stats', 'monitor', 'cache', 'log']);
    expect(canSave(d, NEW)).toBe(true);
  });
});

describe('behave: what a change does', () => {
  it('changing the scope clears stats, log, monitor and cache', () => {
    const prev = with_((f) => (f.buckets!.cdn = ['demo-www']));
    const next = with_((f) => (f.data!.authorized_service = 'authorization'), prev);
    const out = behave(prev, next, NEW);
    expect(out.data).toEqual({ authorized_service: 'authorization', stats: false, monitor: false, cache: false, log: false });
  });

  it('removing the last service falls back to none and clears the data permissions', () => {
    const prev = with_((f) => {
      f.buckets!.file = ['demo-assets'];
      f.data = { authorized_service: 'authorization', stats: true, monitor: false, cache: false, log: true };
    });
    const next = with_((f) => (f.buckets!.file = []), prev);
    expect(behave(prev, next, NEW).data).toEqual({ authorized_service: 'none', stats: false, monitor: false, cache: false, log: false });
  });

  it('authorization is not kept without a service', () => {
    const prev = defaults();
    const next = with_((f) => (f.data!.authorized_service = 'authorization'));
    expect(behave(prev, next, NEW).data!.authorized_service).toBe('none');
  });

  it('only live services: monitor and cache are cleared, stats and log stay', () => {
    const prev = defaults();
    const next = with_((f) => (f.buckets!.live = ['demo-live']));
    expect(behave(prev, next, NEW).data).toEqual({ authorized_service: 'all', stats: true, monitor: false, cache: false, log: true });
    // a CDN service beside it lifts the rule
    const both = with_((f) => (f.buckets!.cdn = ['demo-www']), next);
    expect(uiState(both, NEW).monitorCacheDisabled).toBe(false);
  });

  it('SSL off clears forbid-download; cloud_audit and bill stay off where not offered', () => {
    const prev = with_((f) => Object.assign(f.other!, { https: true, forbidden_down_ssl: true }));
    const next = with_((f) => (f.other!.https = false), prev);
    expect(behave(prev, next, NEW).other!.forbidden_down_ssl).toBe(false);
    const audit = with_((f) => (f.other!.cloud_audit = true));
    expect(behave(defaults(), audit, NEW).other!.cloud_audit).toBe(false);
    expect(behave(defaults(), audit, { mode: 'update', held: ['cloud_audit'] }).other!.cloud_audit).toBe(true);
    const bill = with_((f) => (f.other!.bill = true));
    expect(behave(defaults(), bill, { ...NEW, billHidden: true }).other!.bill).toBe(false);
    expect(behave(defaults(), bill, NEW).other!.bill).toBe(true);
  });
});

describe('uiState and uiFor: disabled, hidden, read-only', () => {
  it('follows the form', () => {
    const s = uiState(defaults(), NEW);
    expect(s).toEqual({ authorizationDisabled: true, dataDisabled: false, monitorCacheDisabled: false, forbiddenDisabled: true, billHidden: false, cloudAuditShown: false, nameReadonly: false });
    const u = uiFor(ui, defaults(), NEW);
    expect(u.data.authorized_service['ui:options'].enumDisabled).toEqual(['authorization']);
    expect(u.other.cloud_audit['ui:widget']).toBe('hidden');
    expect(u.other.forbidden_down_ssl['ui:disabled']).toBe(true);
    expect(u.child_name['ui:readonly']).toBe(false);
    // ui.json itself is not changed
    expect((ui as any).other.cloud_audit).toBeUndefined();
  });

  it('in edit: the name is read-only, a blank password keeps it, cloud_audit shown when held, bill hidden for special accounts', () => {
    const ctx: SubaccountContext = { mode: 'update', held: ['cdn', 'cloud_audit'], billHidden: true };
    const u = uiFor(ui, defaults(), ctx);
    expect(u.child_name['ui:readonly']).toBe(true);
    expect(u.password['ui:placeholder']).toBe('不修改请留空');
    expect(u.other.cloud_audit?.['ui:widget']).toBeUndefined();
    expect(u.other.bill['ui:widget']).toBe('hidden');
    const none = with_((f) => (f.data = { authorized_service: 'none', stats: false, monitor: false, cache: false, log: false }));
    const un = uiFor(ui, none, ctx);
    expect(un.data.stats['ui:disabled']).toBe(true);
    expect(un.data.monitor['ui:disabled']).toBe(true);
  });
});

describe('the permission list and back', () => {
  const child = { child_id: 7, child_name: 'ops_li', nickname: '运维', permissions: ['cdn', 'live', 'create_cdn', 'authorized_service', 'stats', 'log', 'https', 'forbidden_down_ssl', 'scdn'] };
  const binds: ChildBind[] = [
    { id: 1, bucket_id: 11, bucket_name: 'demo-www', bucket_type: 'cdn' },
    { id: 2, bucket_id: 12, bucket_name: 'demo-live', bucket_type: 'live' },
  ];

  it('reads a sub-account into the form and writes the same list back, keeping what the form does not show', () => {
    const f = fromChild(child, binds);
    expect(f.buckets).toEqual({ cdn: ['demo-www'], file: [], live: ['demo-live'] });
    expect(f.data).toEqual({ authorized_service: 'authorization', stats: true, monitor: false, cache: false, log: true });
    expect(f.password).toBeUndefined();
    expect([...toPermissions(f, child.permissions)].sort()).toEqual([...child.permissions].sort());
    expect(toPermissions(f)).not.toContain('scdn');
  });

  it('scope of a list', () => {
    expect(scopeOf(['cdn'])).toBe('none');
    expect(scopeOf(['cdn', 'stats'])).toBe('all');
    expect(scopeOf(['cdn', 'authorized_service', 'stats'])).toBe('authorization');
  });

  it('bindsDiff: one grant per added service, one revocation per removed grant', () => {
    const f = with_((x) => {
      x.buckets = { cdn: ['demo-static'], file: ['demo-assets'], live: ['demo-live'] };
    }, fromChild(child, binds));
    const d = bindsDiff(binds, f);
    expect(d.add).toEqual([
      { bucket_name: 'demo-static', bucket_type: 'cdn' },
      { bucket_name: 'demo-assets', bucket_type: 'file' },
    ]);
    expect(d.remove).toEqual([binds[0]]);
    expect(bindsDiff(binds, fromChild(child, binds))).toEqual({ add: [], remove: [] });
  });

  it('guard on a list is what the server answers', () => {
    expect(guard(['cdn', 'stats'], NEW)).toEqual([]);
    expect(guard(['stats', 'authorized_service'], NEW)).toEqual([{ code: 41011, path: '/data/authorized_service' }]);
    expect(guard(['bill'], { ...NEW, billHidden: true })).toEqual([{ code: 41009, path: '/other/bill' }]);
    expect(guard(['cloud_audit', 'cdn'], { mode: 'update', held: ['cloud_audit'] })).toEqual([]);
  });
});
