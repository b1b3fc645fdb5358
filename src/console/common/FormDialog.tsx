/**
 * A dialog around one declaration form (the account pages' change-password, mobile, e-mail, operator
 * forms, the alarm task, the backup configuration, a new service, a domain, a work order): the engine's
 * form, 取消 / 确定, the server's refusal in a callout and under its fields.
 */
import { useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, type IconName } from '@blueprintjs/core';
import { DeclarationForm } from '../../../renderers/DeclarationForm';
import { useReturnFocus } from '../../../renderers/returnFocus';
import { ApiFailure, failureText } from '../api/client';
import type { FieldError } from '../../shared/errors';

export interface FormDialogProps<T> {
  title: string;
  icon?: IconName;
  className?: string;
  style?: CSSProperties;
  /** closing by a click outside (off by default) */
  canOutsideClickClose?: boolean;
  schema: object;
  ui?: Record<string, unknown>;
  formContext?: unknown;
  value: T;
  onChange(next: T): void;
  /** throws an ApiFailure to refuse */
  onSubmit(value: T): Promise<void>;
  onClose(): void;
  /** extra field errors (an asynchronous check) */
  errors?: FieldError[];
  /** above the form, under the refusal, e.g. a note */
  intro?: ReactNode;
  /** under the form, e.g. a send-code button */
  children?: ReactNode;
  submitDisabled?: boolean;
  /** the primary button's text (确定 by default) */
  submitText?: string;
  /** an extra class name on the primary button */
  submitClassName?: string;
}

export function FormDialog<T>({
  title,
  icon,
  className,
  style,
  canOutsideClickClose = false,
  schema,
  ui,
  formContext,
  value,
  onChange,
  onSubmit,
  onClose,
  errors = [],
  intro,
  children,
  submitDisabled,
  submitText = '确定',
  submitClassName,
}: FormDialogProps<T>) {
  useReturnFocus();
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
    <Dialog isOpen title={title} icon={icon} onClose={onClose} className={`form-dialog ${className ?? ''}`} style={style} canOutsideClickClose={canOutsideClickClose}>
      <DialogBody>
        {failure && (
          <Callout intent="danger" className="setting-failure" role="alert">
            {failure.message}
          </Callout>
        )}
        {intro}
        <DeclarationForm
          schema={schema}
          ui={ui}
          formData={value}
          formRef={formRef}
          formContext={formContext}
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
            <Button intent="primary" onClick={submit} loading={busy} disabled={submitDisabled} className={`form-dialog-confirm ${submitClassName ?? ''}`}>
              {submitText}
            </Button>
          </>
        }
      />
    </Dialog>
  );
}
