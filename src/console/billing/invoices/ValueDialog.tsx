/**
 * Add or edit an invoice title or a mailing address: the declarations schemas/forms/invoice_info and
 * invoice_address. A special (VAT) invoice title may carry the 一般纳税人资格证明 picture, uploaded by the
 * payees' PictureWidget (POST /accounts/invoice/pic/).
 */
import { useRef, useState } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import infoSchema from '../../../../schemas/forms/invoice_info/schema.json';
import infoUi from '../../../../schemas/forms/invoice_info/ui.json';
import addressSchema from '../../../../schemas/forms/invoice_address/schema.json';
import addressUi from '../../../../schemas/forms/invoice_address/ui.json';
import { DeclarationForm } from '../../../../renderers/DeclarationForm';
import { api, ApiFailure, failureText } from '../../api/client';
import type { FieldError } from '../../../shared/errors';
import { PictureWidget } from '../rebate/PictureWidget';

/** The invoice title's ui: the qualification picture through the picture upload, shown for special invoices only. */
function infoUiFor(value: Record<string, unknown>) {
  return { ...infoUi, qualification_pic: { ...infoUi.qualification_pic, 'ui:widget': value.type === 'SPECIAL' ? PictureWidget : 'hidden' } };
}

export const VALUE_KINDS = {
  info: { url: '/api/account/invoice/info', idKey: 'info_id', schema: infoSchema, ui: infoUi, title: '发票抬头', empty: { type: 'NORMAL' } },
  address: { url: '/api/account/invoice/address', idKey: 'address_id', schema: addressSchema, ui: addressUi, title: '收件地址', empty: {} },
} as const;
export type ValueKind = keyof typeof VALUE_KINDS;

export function ValueDialog({ kind, editing, onClose, onSaved }: { kind: ValueKind; editing: Record<string, unknown> | null; onClose(): void; onSaved(): void }) {
  const def = VALUE_KINDS[kind];
  const [value, setValue] = useState<Record<string, unknown>>(editing ?? { ...def.empty });
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState('');
  const formRef = useRef<any>(null);
  async function save() {
    if (!(formRef.current?.validateForm?.() ?? true)) return;
    try {
      if (editing) await api.post(def.url, value);
      else await api.put(def.url, value);
      onSaved();
    } catch (e) {
      setMessage(failureText(e));
      if (e instanceof ApiFailure) setErrors(e.errors);
    }
  }
  return (
    <Dialog isOpen onClose={onClose} title={`${editing ? '编辑' : '添加'}${def.title}`}>
      <DialogBody>
        {message && <Callout intent="danger">{message}</Callout>}
        <DeclarationForm schema={def.schema} ui={kind === 'info' ? infoUiFor(value) : def.ui} formData={value} onChange={(v) => (setErrors([]), setValue(v))} errors={errors} formRef={formRef} />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>取消</Button>
            <Button intent="primary" onClick={() => void save()}>
              确定
            </Button>
          </>
        }
      />
    </Dialog>
  );
}
