/**
 * The panel of one declared setting on a service page: title, summary label, help, and either a
 * manage button opening the form in a dialog or a switch with a confirmation. It knows nothing
 * of a particular setting: everything comes from the declaration (setting.json, schema, UI
 * schema, rules.ts).
 *
 * Panels on one page talk through two window events:
 *   "setting-saved" {id}  — panels whose reloadOn names id reload (HTTP/3 reloads the TLS panel);
 *   "setting-open"  {id}  — a refusal's link opens another setting's dialog or switch.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useReturnFocus } from './returnFocus';
import { Alert, Button, Callout, Card, Collapse, Dialog, DialogBody, DialogFooter, H5, H6, Spinner, Switch, Tag } from '@blueprintjs/core';
import type { FieldError } from '../src/shared/errors';
import { EDGE_TEXTS, type EdgeStatus } from '../src/shared/edge';
import type { SettingRegistry } from '../schemas/registry';
import type { Declaration, RuleContext, SummaryRule } from '../schemas/types';
import { fillVars, helpFor } from '../schemas/summary';
import { DeclarationForm } from './DeclarationForm';
import { formTiming } from './theme';

/** A setting as the server answers GET /api/settings/{id}/. */
export interface LoadedSetting {
  data: unknown;
  /** The summary label, its placeholders filled by the server (schemas/summary.ts), and its colour. */
  summary?: string | null;
  summary_intent?: SummaryRule['intent'] | null;
  fixed?: boolean;
  vars?: Record<string, string>;
}

export interface BucketPage {
  names: string[];
  since: number | null;
  max: number | null;
}

/** A stored value's state on the edge: 已生效 / 等待生效 / 未能生效 with the reason (docs/edge.md). */
export type SettingEdgeState = EdgeStatus['settings'][string];

/** How the panel talks to the server; the console supplies it. */
export interface SettingIO {
  load(settingId: string, bucketName: string): Promise<LoadedSetting>;
  /** Resolves with the stored value; rejects with { message, errors? } holding the Chinese texts. */
  save(settingId: string, bucketName: string, payload: unknown): Promise<unknown>;
  notify(message: string, intent?: 'success' | 'danger'): void;
  /** Lists the account's services of a kind, for the bucket picker. */
  buckets(kind: string, search: string, cursor: { since?: number; max?: number }, limit: number): Promise<BucketPage>;
  /** Whether another service of the account exists, and its kind. */
  bucket(name: string): Promise<{ kind: RuleContext['kind'] } | null>;
  /**
   * The stored value's state on the edge: calls back now and on each change (null: nothing to show — no
   * edge on this installation, or the setting never stored); answers the unsubscribe. The console keeps
   * it current after a save. Absent: the panel shows no edge state.
   */
  watchEdge?(settingId: string, bucketName: string, onChange: (state: SettingEdgeState | null) => void): () => void;
}

export interface SettingPanelProps {
  declaration: Declaration;
  registry: SettingRegistry;
  bucketName: string;
  kind: RuleContext['kind'];
  io: SettingIO;
  /** Facts of the service the declaration may ask to show (setting.json "facts"). */
  facts?: { storage_used?: string };
  /** When set, configuration is locked (key customers): clicks show this text instead. */
  locked?: string;
}

interface Failure {
  message: string;
  errors?: FieldError[];
}

/**
 * A rejection as the panel shows it. A save that got no answer from the server (the API client's
 * failure with status 0: network or transport) shows the declaration's own text when it has one
 * (setting.json "networkFailure").
 */
function asFailure(e: unknown, networkFailure?: string): Failure {
  const f = e as Partial<Failure> & { status?: unknown };
  if (networkFailure && f?.status === 0) return { message: networkFailure, errors: [] };
  return { message: typeof f?.message === 'string' ? f.message : '未知错误，请联系我们的客服', errors: Array.isArray(f?.errors) ? f.errors : [] };
}

export function emitSettingEvent(type: 'setting-saved' | 'setting-open', id: string): void {
  window.dispatchEvent(new CustomEvent(type, { detail: { id } }));
}

const EDGE_INTENTS = { applied: 'success', pending: 'warning', failed: 'danger' } as const;

/** The stored value's state on the edge, kept current through io.watchEdge. */
function useEdgeState(io: SettingIO, settingId: string, bucketName: string): SettingEdgeState | null {
  const [state, setState] = useState<SettingEdgeState | null>(null);
  useEffect(() => {
    if (!io.watchEdge) return;
    return io.watchEdge(settingId, bucketName, (next) =>
      setState((prev) => (prev?.state === next?.state && prev?.message === next?.message ? prev : next)),
    );
  }, [io, settingId, bucketName]);
  return state;
}

function FailureCallout({ failure, onLink }: { failure: Failure; onLink(id: string): void }) {
  const link = failure.errors?.find((e) => e.link)?.link;
  return (
    <Callout intent="danger" className="setting-failure" role="alert">
      {failure.message}
      {link && (
        <Button variant="minimal" intent="primary" className="setting-failure-link" onClick={() => onLink(link.setting)}>
          {link.text}
        </Button>
      )}
    </Callout>
  );
}

export function SettingPanel({ declaration, registry, bucketName, kind, io, facts, locked }: SettingPanelProps) {
  const { meta } = declaration;
  const [loaded, setLoaded] = useState<LoadedSetting | undefined>(undefined);
  const [loadFailed, setLoadFailed] = useState<string | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [notesOpen, setNotesOpen] = useState(false);
  const [pendingSwitch, setPendingSwitch] = useState<boolean | null>(null);
  const [switchFailure, setSwitchFailure] = useState<Failure | null>(null);
  /** A refusal of the rules found before asking (setting.json "checkBeforeConfirm"). */
  const [refusal, setRefusal] = useState<Failure | null>(null);
  const [saving, setSaving] = useState(false);
  /** When 管理 was pressed: the dialog's first frame is measured from here (formTiming 'open'). */
  const openedAt = useRef(0);
  const value = loaded?.data;
  const edge = useEdgeState(io, meta.id, bucketName);
  /** Settings shown inside this one's dialog (setting.json "partOf"): Server Push in the HTTP/2 dialog. */
  const parts = useMemo(() => registry.partsOf(meta.id, kind), [registry, meta.id, kind]);

  const reload = useCallback(async () => {
    try {
      setLoaded(await io.load(meta.id, bucketName));
      setLoadFailed(null);
    } catch (e) {
      setLoadFailed(asFailure(e).message);
    }
  }, [io, meta.id, bucketName]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const switchOn = meta.panel === 'switch' && meta.switchField ? Boolean((value as Record<string, unknown> | undefined)?.[meta.switchField]) : false;

  function open(): void {
    if (locked) {
      io.notify(locked, 'danger');
      return;
    }
    if (meta.panel === 'dialog') {
      openedAt.current = performance.now();
      setDialogOpen(true);
    }
    else {
      setSwitchFailure(null);
      if (meta.checkBeforeConfirm) void checkThenAsk(!switchOn);
      else setPendingSwitch(!switchOn);
    }
  }

  /** Runs the rules on the new switch value first: a refusal (with its link) instead of the confirmation. */
  async function checkThenAsk(next: boolean) {
    if (!meta.switchField) return;
    try {
      const checked = await registry.validate(meta.id, { ...(value as object), [meta.switchField]: next }, ctx);
      if (!checked.ok) {
        setRefusal({ message: checked.errors[0].message, errors: checked.errors });
        return;
      }
    } catch {
      // the rules could not read what they need: ask anyway, the save checks again
    }
    setPendingSwitch(next);
  }

  // reload when a setting this one depends on is saved; open when another panel links here
  useEffect(() => {
    const onSaved = (e: Event) => {
      if (meta.reloadOn?.includes((e as CustomEvent).detail.id)) void reload();
    };
    const onOpen = (e: Event) => {
      const id = (e as CustomEvent).detail.id;
      if ((id === meta.id || parts.some((p) => p.meta.id === id)) && loaded && !loaded.fixed) open();
    };
    window.addEventListener('setting-saved', onSaved);
    window.addEventListener('setting-open', onOpen);
    return () => {
      window.removeEventListener('setting-saved', onSaved);
      window.removeEventListener('setting-open', onOpen);
    };
  });

  // the server's label as given (filled from the value and the related settings), in the server's colour
  const rule: Pick<SummaryRule, 'label' | 'intent'> | undefined =
    loaded?.summary !== undefined
      ? loaded.summary === null
        ? undefined
        : { label: loaded.summary, intent: loaded.summary_intent ?? undefined }
      : value !== undefined
        ? registry.summary(meta.id, value)
        : undefined;
  const ctx: RuleContext = useMemo(
    () => ({ kind, bucketName, read: async (other: string) => (await io.load(other, bucketName)).data, bucket: (name: string) => io.bucket(name), vars: loaded?.vars }),
    [kind, io, bucketName, loaded?.vars],
  );
  const help = helpFor(meta, kind);
  const notesShown = meta.notes && value !== undefined && (!meta.notes.when || registry.ajv.validate(meta.notes.when, value));
  const linkTo = (id: string) => {
    setPendingSwitch(null);
    setRefusal(null);
    setDialogOpen(false);
    emitSettingEvent('setting-open', id);
  };

  async function saved(partIds: string[] = []) {
    io.notify(meta.success, 'success');
    emitSettingEvent('setting-saved', meta.id);
    for (const id of partIds) emitSettingEvent('setting-saved', id);
    await reload();
  }

  async function confirmSwitch() {
    if (pendingSwitch === null || !meta.switchField) return;
    setSaving(true);
    setSwitchFailure(null);
    try {
      const payload = { ...(value as object), [meta.switchField]: pendingSwitch };
      const checked = await registry.validate(meta.id, payload, ctx);
      if (!checked.ok) throw { message: checked.errors[0].message, errors: checked.errors };
      await io.save(meta.id, bucketName, payload);
      setPendingSwitch(null);
      await saved();
    } catch (e) {
      setSwitchFailure(asFailure(e, meta.networkFailure));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card className="setting-panel" data-setting={meta.id}>
      <div className="setting-panel-head">
        <H5 className="setting-panel-title">
          {meta.title}
          {meta.badge && (
            <Tag minimal intent="warning" className="setting-badge">
              {meta.badge}
            </Tag>
          )}
        </H5>
        {rule && (
          <Tag className="setting-summary" intent={rule.intent === 'success' ? 'success' : rule.intent === 'warning' ? 'warning' : rule.intent === 'primary' ? 'primary' : 'none'} minimal>
            {rule.label}
          </Tag>
        )}
        <span className="setting-edge" aria-live="polite">
          {edge && (
            <Tag minimal icon="globe-network" intent={EDGE_INTENTS[edge.state]} className="setting-edge-state" data-state={edge.state} title={EDGE_TEXTS.title}>
              {EDGE_TEXTS.settingState[edge.state]}
            </Tag>
          )}
        </span>
        <span className="setting-panel-actions">
          {value === undefined && !loadFailed && <Spinner size={16} />}
          {meta.panel === 'dialog' && !loaded?.fixed && (
            <Button intent="primary" variant="outlined" disabled={value === undefined} onClick={open} className="setting-manage">
              管理
            </Button>
          )}
          {meta.panel === 'switch' && (
            <Switch className="setting-switch" checked={switchOn} disabled={value === undefined || loaded?.fixed} aria-label={meta.title} onChange={open} inline />
          )}
        </span>
      </div>
      {edge?.state === 'failed' && edge.message && (
        <p className="setting-edge-reason">
          {EDGE_TEXTS.reason}
          {edge.message}
        </p>
      )}
      {meta.description && <p className="setting-description">{meta.description}</p>}
      {meta.facts?.includes('storage_used') && facts?.storage_used !== undefined && <p className="setting-fact">已使用存储：{facts.storage_used}</p>}
      {loadFailed && (
        <Callout intent="danger" compact>
          {loadFailed}
        </Callout>
      )}
      {notesShown && (
        <Button variant="minimal" intent="primary" className="setting-notes-link" onClick={() => setNotesOpen(true)}>
          {meta.notes!.text}
        </Button>
      )}
      {help.length > 0 && (
        <>
          <Button variant="minimal" size="small" icon={helpOpen ? 'chevron-up' : 'chevron-down'} onClick={() => setHelpOpen((o) => !o)} className="setting-help-toggle">
            {helpOpen ? '收起说明' : '查看说明'}
          </Button>
          <Collapse isOpen={helpOpen}>
            <div className="setting-help">
              {help.map((h, i) => (
                <p key={i}>{h}</p>
              ))}
            </div>
          </Collapse>
        </>
      )}
      {meta.notes && (
        <Dialog isOpen={notesOpen} title={meta.notes.title} onClose={() => setNotesOpen(false)}>
          <DialogBody>
            {meta.notes.paragraphs.map((p, i) => (
              <p key={i}>{fillVars(p, loaded?.vars)}</p>
            ))}
          </DialogBody>
          <DialogFooter actions={<Button onClick={() => setNotesOpen(false)}>知道了</Button>} />
        </Dialog>
      )}
      {meta.panel === 'switch' && meta.confirm && (
        <Alert
          isOpen={pendingSwitch !== null}
          cancelButtonText="取消"
          confirmButtonText="确定"
          intent="primary"
          loading={saving}
          onCancel={() => setPendingSwitch(null)}
          onConfirm={confirmSwitch}
          canEscapeKeyCancel
          className="setting-confirm-alert"
        >
          <p>{fillVars(pendingSwitch ? meta.confirm.on : meta.confirm.off, loaded?.vars)}</p>
          {switchFailure && <FailureCallout failure={switchFailure} onLink={linkTo} />}
        </Alert>
      )}
      {meta.panel === 'switch' && (
        <Alert isOpen={refusal !== null} confirmButtonText="知道了" intent="primary" onConfirm={() => setRefusal(null)} onCancel={() => setRefusal(null)} canEscapeKeyCancel className="setting-refusal-alert">
          {refusal && <FailureCallout failure={refusal} onLink={linkTo} />}
        </Alert>
      )}
      {meta.panel === 'dialog' && dialogOpen && (
        <SettingDialog
          openedAt={openedAt.current}
          declaration={declaration}
          parts={parts}
          registry={registry}
          initial={value}
          ctx={ctx}
          io={io}
          onLink={linkTo}
          onClose={() => setDialogOpen(false)}
          onSave={async (payload, partsSaved) => {
            await partsSaved.before();
            await io.save(meta.id, bucketName, payload);
            const ids = await partsSaved.after();
            setDialogOpen(false);
            await saved(ids);
          }}
        />
      )}
    </Card>
  );
}

/** The saves of a dialog's parts around the setting's own: `before` (hidden parts set to their `whenHidden`), `after` (the shown parts that changed; answers their ids). */
export interface PartSaves {
  before(): Promise<void>;
  after(): Promise<string[]>;
}

interface PartState {
  declaration: Declaration;
  initial: unknown;
  data: unknown;
}

interface SettingDialogProps {
  /** performance.now() of the click that opened it (0: not measured). */
  openedAt?: number;
  declaration: Declaration;
  /** Settings shown inside this dialog (setting.json "partOf"). */
  parts?: Declaration[];
  registry: SettingRegistry;
  initial: unknown;
  ctx: RuleContext;
  io: SettingIO;
  onLink(id: string): void;
  onClose(): void;
  onSave(payload: unknown, parts: PartSaves): Promise<void>;
}

/**
 * The form of a setting in a dialog: live validation, confirm disabled while invalid, the rules
 * of rules.ts before saving, a confirmation when a watched field changes, server errors under
 * their fields.
 */
export function SettingDialog({ openedAt = 0, declaration, parts = [], registry, initial, ctx, io, onLink, onClose, onSave }: SettingDialogProps) {
  useReturnFocus();
  // click to the first frame with the form (npm run bench, tests/bench/forms.ts)
  useEffect(() => {
    if (!openedAt) return;
    const id = requestAnimationFrame(() => formTiming('open', performance.now() - openedAt, declaration.meta.id));
    return () => cancelAnimationFrame(id);
  }, []);
  const { meta, schema, ui, rules } = declaration;
  // the form starts from the prepared value (an old migration shows the service's own bucket);
  // a watched change is compared against that start, not the stored value
  const prepared = useRef<unknown>(undefined);
  if (prepared.current === undefined) {
    const start = structuredClone(initial);
    prepared.current = rules.prepare ? rules.prepare(start, { bucketName: ctx.bucketName, kind: ctx.kind }) : start;
  }
  const [formData, setFormData] = useState<unknown>(() => structuredClone(prepared.current));
  const [failure, setFailure] = useState<Failure | null>(null);
  const [saving, setSaving] = useState(false);
  const [confirmingChange, setConfirmingChange] = useState(false);
  const formRef = useRef<any>(null);
  // the parts' stored values, loaded when the dialog opens
  const [partStates, setPartStates] = useState<PartState[] | null>(parts.length ? null : []);
  const [partsFailed, setPartsFailed] = useState<string | null>(null);
  const partRefs = useRef<Record<string, any>>({});
  useEffect(() => {
    if (!parts.length) return;
    let live = true;
    Promise.all(parts.map(async (p) => ({ declaration: p, initial: (await io.load(p.meta.id, ctx.bucketName)).data })))
      .then((loaded) => live && setPartStates(loaded.map((l) => ({ ...l, data: structuredClone(l.initial) }))))
      .catch((e) => live && setPartsFailed(asFailure(e).message));
    return () => {
      live = false;
    };
  }, [parts, io, ctx.bucketName]);
  const partShown = (p: Declaration) => !p.meta.partOf?.when || registry.ajv.validate(p.meta.partOf.when, formData);
  const shownParts = (partStates ?? []).filter((p) => partShown(p.declaration));
  const invalid =
    registry.check(meta.id, formData).length > 0 || partStates === null || shownParts.some((p) => registry.check(p.declaration.meta.id, p.data).length > 0);

  /**
   * The rules of the setting and of its parts see the values as they will be after this 确定 (HTTP/2's
   * rule, "not off while push is on", sees push turned off with it).
   */
  const pendingCtx: RuleContext = {
    ...ctx,
    read: async (id: string) => {
      if (id === meta.id) return formData;
      const p = partStates?.find((q) => q.declaration.meta.id === id);
      if (!p) return ctx.read(id);
      if (partShown(p.declaration)) return p.data;
      const hidden = p.declaration.meta.partOf?.whenHidden;
      return hidden ? { ...(p.initial as object), ...hidden } : p.initial;
    },
  };

  /** Saves one part after its rules; a refusal is thrown as the dialog's failure. */
  async function savePart(p: Declaration, payload: unknown) {
    const checked = await registry.validate(p.meta.id, payload, pendingCtx);
    if (!checked.ok) throw { message: checked.errors[0].message, errors: [] };
    await io.save(p.meta.id, ctx.bucketName, payload);
  }
  const partSaves: PartSaves = {
    async before() {
      for (const p of partStates ?? []) {
        const hidden = p.declaration.meta.partOf?.whenHidden;
        if (!hidden || partShown(p.declaration)) continue;
        const next = { ...(p.initial as object), ...hidden };
        if (JSON.stringify(next) !== JSON.stringify(p.initial)) await savePart(p.declaration, next);
      }
    },
    async after() {
      const ids: string[] = [];
      for (const p of shownParts) {
        if (JSON.stringify(p.data) === JSON.stringify(p.initial)) continue;
        await savePart(p.declaration, p.data);
        ids.push(p.declaration.meta.id);
      }
      // a hidden part saved before counts too
      for (const p of partStates ?? []) if (!partShown(p.declaration) && p.declaration.meta.partOf?.whenHidden) ids.push(p.declaration.meta.id);
      return ids;
    },
  };
  const warnings = (meta.warnings ?? []).filter((w) => registry.ajv.validate(w.when, initial));
  const formContext = useMemo(() => ({ io }), [io]);

  function changedWatchedField(): boolean {
    const c = meta.confirmChange;
    if (!c) return false;
    const before = (prepared.current as Record<string, unknown>)?.[c.field];
    const after = (formData as Record<string, unknown>)?.[c.field];
    return Boolean(before) && before !== after;
  }

  async function confirm(skipChangeCheck = false) {
    setFailure(null);
    const partsValid = shownParts.map((p) => partRefs.current[p.declaration.meta.id]?.validateForm() !== false).every(Boolean);
    if (!formRef.current?.validateForm() || !partsValid) return;
    if (!skipChangeCheck && changedWatchedField()) {
      setConfirmingChange(true);
      return;
    }
    setSaving(true);
    try {
      const checked = await registry.validate(meta.id, formData, parts.length ? pendingCtx : ctx);
      if (!checked.ok) {
        setFailure({ message: checked.errors[0].message, errors: checked.errors });
        return;
      }
      await onSave(formData, partSaves);
    } catch (e) {
      setFailure(asFailure(e, meta.networkFailure));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog isOpen title={meta.dialogTitle ?? meta.title} onClose={onClose} className="setting-dialog" canOutsideClickClose={false}>
      <DialogBody>
        {warnings.map((w, i) => (
          <Callout key={i} intent="warning" className="setting-warning">
            {w.text}
          </Callout>
        ))}
        {failure && <FailureCallout failure={failure} onLink={onLink} />}
        <DeclarationForm
          formRef={formRef}
          schema={schema}
          ui={ui}
          formData={formData}
          formContext={formContext}
          errors={failure?.errors}
          onChange={(data) => {
            setFormData(data);
            if (failure?.errors?.length) setFailure(null);
          }}
        />
        {parts.length > 0 && partStates === null && !partsFailed && <Spinner size={20} />}
        {partsFailed && (
          <Callout intent="danger" compact>
            {partsFailed}
          </Callout>
        )}
        {shownParts.map((p) => {
          const id = p.declaration.meta.id;
          return (
            <section key={id} className="setting-part" data-part={id} aria-labelledby={`setting-part-${id}`}>
              <H6 id={`setting-part-${id}`} className="setting-part-title">
                {p.declaration.meta.title}
              </H6>
              {helpFor(p.declaration.meta, ctx.kind).map((h, i) => (
                <p key={i} className="setting-part-help">
                  {h}
                </p>
              ))}
              <DeclarationForm
                formRef={(r: any) => {
                  partRefs.current[id] = r;
                }}
                idPrefix={id}
                schema={p.declaration.schema}
                ui={p.declaration.ui}
                formData={p.data}
                formContext={formContext}
                onChange={(data) => setPartStates((all) => (all ?? []).map((q) => (q.declaration.meta.id === id ? { ...q, data } : q)))}
              />
            </section>
          );
        })}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>取消</Button>
            <Button intent="primary" onClick={() => confirm()} disabled={invalid} loading={saving} className="setting-confirm">
              确定
            </Button>
          </>
        }
      />
      {meta.confirmChange && (
        <Alert
          isOpen={confirmingChange}
          cancelButtonText="取消"
          confirmButtonText="确定"
          intent="warning"
          onCancel={() => setConfirmingChange(false)}
          onConfirm={() => {
            setConfirmingChange(false);
            void confirm(true);
          }}
        >
          <p>{meta.confirmChange.text}</p>
        </Alert>
      )}
    </Dialog>
  );
}
