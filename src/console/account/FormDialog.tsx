/**
 * A dialog around one declaration (the account pages' change-password, mobile, e-mail, operator
 * forms): the engine's form, 取消 / 确定, the server's refusal in a callout and under its fields.
 */
import { useRef, useState, type ReactNode } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { DeclarationForm } from '../../../renderers/DeclarationForm';
import { ApiFailure, failureText } from '../api/client';
import type { FieldError } from '../../shared/errors';

export interface FormDialogProps<T> {
  title: string;
  className?: string;
  schema: object;
  ui?: Record<string, unknown>;
  value: T;
  onChange(next: T): void;
  /** throws an ApiFailure to refuse */
  onSubmit(value: T): Promise<void>;
  onClose(): void;
  /** extra field errors (an asynchronous check) */
  errors?: FieldError[];
  /** under the form, e.g. a send-code button */
  children?: ReactNode;
  submitDisabled?: boolean;
}

export function FormDialog<T>({ title, className, schema, ui, value, onChange, onSubmit, onClose, errors = [], children, submitDisabled }: FormDialogProps<T>) {
  const formRef = useRef<any>(null);
  const [failure, setFailure] = useState<{ message: string; errors: FieldError[] } | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit() {
    setFailure(null);
    if (!formRef.current?.validateForm()) return;
    setBusy(true);
    try {
      await onSubmit(value);
    } catch (e) {
      setFailure({ message: failureText(e), errors: e instanceof ApiFailure ? e.errors : [] });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog isOpen title={title} onClose={onClose} className={`form-dialog ${className ?? ''}`} canOutsideClickClose={false}>
      <DialogBody>
        {failure && (
          <Callout intent="danger" className="setting-failure" role="alert">
            {failure.message}
          </Callout>
        )}
        <DeclarationForm
          schema={schema}
          ui={ui}
          formData={value}
          formRef={formRef}
          errors={[...(failure?.errors ?? []), ...errors]}
          onChange={(next: T) => {
            onChange(next);
            if (failure) setFailure(null);
          }}
        />
        {children}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>取消</Button>
            <Button intent="primary" onClick={submit} loading={busy} disabled={submitDisabled} className="form-dialog-confirm">
              确定
            </Button>
          </>
        }
      />
    </Dialog>
  );
}
