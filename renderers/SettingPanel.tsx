/**
 * The panel of one declared setting on a service page: title, summary label, help, and either a
 * manage button opening the form in a dialog or a switch with a confirmation. It knows nothing
 * of a particular setting: everything comes from the declaration.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Callout, Card, Collapse, Dialog, DialogBody, DialogFooter, H5, Spinner, Switch, Tag } from '@blueprintjs/core';
import type { IChangeEvent } from '@rjsf/core';
import type { FieldError } from '../src/shared/errors';
import type { SettingRegistry } from '../schemas/registry';
import type { Declaration, RuleContext } from '../schemas/types';
import { ThemedForm, transformErrors, validator } from './theme';
import { toErrorSchema } from './errorSchema';

/** How the panel talks to the server; the console supplies it. */
export interface SettingIO {
  load(settingId: string, bucketName: string): Promise<unknown>;
  /** Resolves with the stored value; rejects with { message, errors? } holding the Chinese texts. */
  save(settingId: string, bucketName: string, payload: unknown): Promise<unknown>;
  notify(message: string, intent?: 'success' | 'danger'): void;
}

export interface SettingPanelProps {
  declaration: Declaration;
  registry: SettingRegistry;
  bucketName: string;
  kind: RuleContext['kind'];
  io: SettingIO;
}

interface Failure {
  message: string;
  errors?: FieldError[];
}

function asFailure(e: unknown): Failure {
  const f = e as Partial<Failure>;
  return { message: typeof f?.message === 'string' ? f.message : '未知错误，请联系我们的客服', errors: Array.isArray(f?.errors) ? f.errors : [] };
}

export function SettingPanel({ declaration, registry, bucketName, kind, io }: SettingPanelProps) {
  const { meta } = declaration;
  const [value, setValue] = useState<unknown>(undefined);
  const [loadFailed, setLoadFailed] = useState<string | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [pendingSwitch, setPendingSwitch] = useState<boolean | null>(null);
  const [switchFailure, setSwitchFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const reload = useCallback(async () => {
    try {
      setValue(await io.load(meta.id, bucketName));
      setLoadFailed(null);
    } catch (e) {
      setLoadFailed(asFailure(e).message);
    }
  }, [io, meta.id, bucketName]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const summary = value === undefined ? undefined : registry.summary(meta.id, value);
  const ctx: RuleContext = useMemo(() => ({ kind, read: (other: string) => io.load(other, bucketName) }), [kind, io, bucketName]);

  async function confirmSwitch() {
    if (pendingSwitch === null || !meta.switchField) return;
    setSaving(true);
    setSwitchFailure(null);
    try {
      const payload = { ...(value as object), [meta.switchField]: pendingSwitch };
      const checked = await registry.validate(meta.id, payload, ctx);
      if (!checked.ok) throw { message: checked.errors[0].message };
      await io.save(meta.id, bucketName, payload);
      setPendingSwitch(null);
      io.notify(meta.success, 'success');
      await reload();
    } catch (e) {
      setSwitchFailure(asFailure(e).message);
    } finally {
      setSaving(false);
    }
  }

  const switchOn = meta.panel === 'switch' && meta.switchField ? Boolean((value as Record<string, unknown> | undefined)?.[meta.switchField]) : false;

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
        {summary && (
          <Tag className="setting-summary" intent={summary.intent === 'success' ? 'success' : 'none'} minimal>
            {summary.label}
          </Tag>
        )}
        <span className="setting-panel-actions">
          {value === undefined && !loadFailed && <Spinner size={16} />}
          {meta.panel === 'dialog' && (
            <Button intent="primary" variant="outlined" disabled={value === undefined} onClick={() => setDialogOpen(true)} className="setting-manage">
              管理
            </Button>
          )}
          {meta.panel === 'switch' && (
            <Switch
              className="setting-switch"
              checked={switchOn}
              disabled={value === undefined}
              aria-label={meta.title}
              onChange={() => {
                setSwitchFailure(null);
                setPendingSwitch(!switchOn);
              }}
              inline
            />
          )}
        </span>
      </div>
      {meta.description && <p className="setting-description">{meta.description}</p>}
      {loadFailed && (
        <Callout intent="danger" compact>
          {loadFailed}
        </Callout>
      )}
      {meta.help && meta.help.length > 0 && (
        <>
          <Button variant="minimal" size="small" icon={helpOpen ? 'chevron-up' : 'chevron-down'} onClick={() => setHelpOpen((o) => !o)} className="setting-help-toggle">
            {helpOpen ? '收起说明' : '查看说明'}
          </Button>
          <Collapse isOpen={helpOpen}>
            <div className="setting-help">
              {meta.help.map((h, i) => (
                <p key={i}>{h}</p>
              ))}
            </div>
          </Collapse>
        </>
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
        >
          <p>{pendingSwitch ? meta.confirm.on : meta.confirm.off}</p>
          {switchFailure && (
            <Callout intent="danger" compact role="alert">
              {switchFailure}
            </Callout>
          )}
        </Alert>
      )}
      {meta.panel === 'dialog' && dialogOpen && (
        <SettingDialog
          declaration={declaration}
          registry={registry}
          initial={value}
          ctx={ctx}
          onClose={() => setDialogOpen(false)}
          onSave={async (payload) => {
            await io.save(meta.id, bucketName, payload);
            io.notify(meta.success, 'success');
            setDialogOpen(false);
            await reload();
          }}
        />
      )}
    </Card>
  );
}

interface SettingDialogProps {
  declaration: Declaration;
  registry: SettingRegistry;
  initial: unknown;
  ctx: RuleContext;
  onClose(): void;
  onSave(payload: unknown): Promise<void>;
}

/** The form of a setting in a dialog: live validation, confirm disabled while invalid, server errors under their fields. */
export function SettingDialog({ declaration, registry, initial, ctx, onClose, onSave }: SettingDialogProps) {
  const { meta, schema, ui } = declaration;
  const [formData, setFormData] = useState<unknown>(() => structuredClone(initial));
  const [failure, setFailure] = useState<Failure | null>(null);
  const [saving, setSaving] = useState(false);
  const formRef = useRef<any>(null);
  const invalid = registry.check(meta.id, formData).length > 0;

  async function confirm() {
    setFailure(null);
    if (!formRef.current?.validateForm()) return;
    setSaving(true);
    try {
      const checked = await registry.validate(meta.id, formData, ctx);
      if (!checked.ok) {
        setFailure({ message: checked.errors[0].message, errors: checked.errors });
        return;
      }
      await onSave(formData);
    } catch (e) {
      setFailure(asFailure(e));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog isOpen title={meta.dialogTitle ?? meta.title} onClose={onClose} className="setting-dialog" canOutsideClickClose={false}>
      <DialogBody>
        {failure && (
          <Callout intent="danger" className="setting-failure" role="alert">
            {failure.message}
          </Callout>
        )}
        <ThemedForm
          ref={formRef}
          tagName="div"
          schema={schema}
          uiSchema={{ ...ui, 'ui:submitButtonOptions': { norender: true } }}
          formData={formData}
          validator={validator}
          liveValidate="onChange"
          showErrorList={false}
          noHtml5Validate
          transformErrors={transformErrors}
          extraErrors={failure?.errors?.length ? toErrorSchema(failure.errors) : undefined}
          onChange={(e: IChangeEvent) => {
            setFormData(e.formData);
            if (failure?.errors?.length) setFailure(null);
          }}
          onError={() => undefined}
        />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>取消</Button>
            <Button intent="primary" onClick={confirm} disabled={invalid} loading={saving} className="setting-confirm">
              确定
            </Button>
          </>
        }
      />
    </Dialog>
  );
}
