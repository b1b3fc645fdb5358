/**
 * The rule tables of the DDoS page (L4 policies on instance/, L7 rules on website/ and nonwebsite/):
 * a head with the add button, an optional note, the rules with their columns and 编辑 / 删除, the
 * previous / next pager, the rule dialog (the declaration's form, the IP field offering the instance's
 * IPs) and the delete confirmation. Each tab describes its table; this renders it.
 */
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { Button, ButtonGroup, Callout, Dialog, DialogBody, DialogFooter, HTMLTable, NonIdealState, Spinner, type IconName, type Intent } from '@blueprintjs/core';
import { DeclarationForm } from '../../../renderers/DeclarationForm';
import { api } from '../api/client';
import { notify } from '../common/toaster';
import type { DdosIp } from '../../shared/ddos';
import type { FieldError } from '../../shared/errors';
import { FailureCallout, toFailure, type Failure } from './common';

/** The IP field of a form offers the instance's IPs (same messages as the declaration's). */
function withIps(schema: any, ips: string[]) {
  const ip = schema.properties.ip;
  return { ...schema, properties: { ...schema.properties, ip: { ...ip, enum: ips.length ? ips : [''], errorMessage: { ...ip.errorMessage, enum: '请选择高防 IP' } } } };
}

/** A dialog with a declaration's form, saving with one call; the server's field messages under their fields. */
function RuleDialog(props: { title: string; schema: object; ui: Record<string, unknown>; formRules?: (value: any) => FieldError[]; initial: Record<string, unknown>; onSave: (value: any) => Promise<unknown>; onClose: (saved: boolean) => void }) {
  const [value, setValue] = useState<Record<string, unknown>>(props.initial);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [saving, setSaving] = useState(false);
  const formRef = useRef<any>(null);
  async function save() {
    setFailure(null);
    if (!formRef.current?.validateForm()) return;
    setSaving(true);
    try {
      await props.onSave(value);
      notify('配置成功');
      props.onClose(true);
    } catch (e) {
      setFailure(toFailure(e));
    } finally {
      setSaving(false);
    }
  }
  return (
    <Dialog isOpen title={props.title} onClose={() => props.onClose(false)} className="ddos-rule-dialog" style={{ width: 600 }}>
      <DialogBody>
        <FailureCallout failure={failure} />
        <DeclarationForm schema={props.schema} ui={props.ui} rules={props.formRules} formData={value} onChange={setValue} errors={failure?.errors} formRef={formRef} />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="取消" onClick={() => props.onClose(false)} />
            <Button intent="primary" text="确定" loading={saving} onClick={save} />
          </>
        }
      />
    </Dialog>
  );
}

function ConfirmDelete(props: { text: string; onConfirm: () => Promise<void>; onClose: () => void }) {
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Dialog isOpen title="删除确认" onClose={props.onClose}>
      <DialogBody>
        <FailureCallout failure={failure} />
        <p>{props.text}</p>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="取消" onClick={props.onClose} />
            <Button
              intent="danger"
              text="删除"
              loading={busy}
              onClick={async () => {
                setBusy(true);
                try {
                  await props.onConfirm();
                  notify('删除成功');
                  props.onClose();
                } catch (e) {
                  setFailure(toFailure(e));
                  setBusy(false);
                }
              }}
            />
          </>
        }
      />
    </Dialog>
  );
}

export type CursorQuery = { since?: number; max?: number };

/** Previous / next over since/max cursors. */
export function Pager(props: { pager?: { since: number | null; max: number | null }; onPage: (q: CursorQuery) => void }) {
  if (!props.pager || (props.pager.since === null && props.pager.max === null)) return null;
  return (
    <ButtonGroup className="ddos-pager">
      <Button icon="chevron-left" text="上一页" disabled={props.pager.since === null} onClick={() => props.onPage({ since: props.pager!.since! })} />
      <Button rightIcon="chevron-right" text="下一页" disabled={props.pager.max === null} onClick={() => props.onPage({ max: props.pager!.max! })} />
    </ButtonGroup>
  );
}

export interface RuleColumn<R> {
  title: string;
  className?: string;
  cell(rule: R): ReactNode;
}

export interface RuleTableProps<R extends { id: number }> {
  /** the head, left of the add button */
  head: ReactNode;
  add: { text: string; intent?: Intent };
  note?: ReactNode;
  /** 添加… / 编辑… in the dialog's title */
  noun: string;
  /** the form of a new rule */
  initial: Record<string, unknown>;
  /** the declaration; its IP field offers `ips` */
  schema: object;
  ui: Record<string, unknown>;
  /** the declaration's rules.ts `ruleErrors` (e.g. no local origins), run with the schema in the dialog */
  formRules?: (value: any) => FieldError[];
  ips: DdosIp[];
  rules: R[] | null;
  spinnerSize?: number;
  empty: { icon: IconName; title: string };
  testId?: string;
  columns: RuleColumn<R>[];
  /** the form of an existing rule */
  toForm(rule: R): Record<string, unknown>;
  save(value: any): Promise<unknown>;
  /** DELETE with the rule's id */
  deleteUrl: string;
  deleteText(rule: R): string;
  pager?: { since: number | null; max: number | null };
  onPage?: (q: CursorQuery) => void;
  reload(): void;
}

export function RuleTable<R extends { id: number }>(props: RuleTableProps<R>) {
  const { rules, reload } = props;
  const [editing, setEditing] = useState<Record<string, unknown> | null>(null);
  const [deleting, setDeleting] = useState<R | null>(null);
  const schema = useMemo(() => withIps(props.schema, props.ips.map((i) => i.ip)), [props.schema, props.ips]);
  return (
    <>
      <div className="ddos-section-head">
        {props.head}
        <Button intent={props.add.intent} icon="add" text={props.add.text} onClick={() => setEditing(props.initial)} />
      </div>
      {props.note && (
        <Callout className="ddos-note" icon="info-sign">
          {props.note}
        </Callout>
      )}
      {rules === null ? (
        <Spinner size={props.spinnerSize} />
      ) : rules.length === 0 ? (
        <NonIdealState icon={props.empty.icon} title={props.empty.title} />
      ) : (
        <HTMLTable className="ddos-table" striped data-testid={props.testId}>
          <thead>
            <tr>
              {props.columns.map((c) => (
                <th key={c.title}>{c.title}</th>
              ))}
              <th>操作</th>
            </tr>
          </thead>
          <tbody>
            {rules.map((r) => (
              <tr key={r.id}>
                {props.columns.map((c) => (
                  <td key={c.title} className={c.className}>
                    {c.cell(r)}
                  </td>
                ))}
                <td>
                  <Button minimal small text="编辑" onClick={() => setEditing(props.toForm(r))} />
                  <Button minimal small intent="danger" text="删除" onClick={() => setDeleting(r)} />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {props.onPage && <Pager pager={props.pager} onPage={props.onPage} />}
      {editing && (
        <RuleDialog
          title={`${editing.id ? '编辑' : '添加'}${props.noun}`}
          schema={schema}
          ui={props.ui}
          formRules={props.formRules}
          initial={editing}
          onSave={props.save}
          onClose={(saved) => {
            setEditing(null);
            if (saved) reload();
          }}
        />
      )}
      {deleting && <ConfirmDelete text={props.deleteText(deleting)} onConfirm={async () => void (await api.del(props.deleteUrl, { id: deleting.id }))} onClose={() => (setDeleting(null), reload())} />}
    </>
  );
}
