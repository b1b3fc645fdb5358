/**
 * Add or edit a payee (spec 001 §5): the declaration schemas/forms/payee rendered by the engine, the ID
 * photos uploaded by PictureWidget; when editing, the method cannot be switched (the control is disabled
 * and the declaration's rule says so).
 */
import { useRef, useState } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import payeeSchema from '../../../../schemas/forms/payee/schema.json';
import payeeUi from '../../../../schemas/forms/payee/ui.json';
import { ruleErrors, type PayeeForm } from '../../../../schemas/forms/payee/rules';
import { DeclarationForm } from '../../../../renderers/DeclarationForm';
import { api, ApiFailure, failureText } from '../../api/client';
import type { FieldError } from '../../../shared/errors';
import type { PayeeInfo } from '../../../shared/billing-money';
import { PictureWidget } from './PictureWidget';

export function PayeeDialog({ editing, onClose, onSaved }: { editing: PayeeInfo | null; onClose(): void; onSaved(id: number): void }) {
  const [value, setValue] = useState<PayeeForm>(editing ? { ...editing } : { receive_type: 'ALIPAY', default: false });
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const formRef = useRef<any>(null);
  const ui = {
    ...payeeUi,
    receive_type: { ...payeeUi.receive_type, 'ui:disabled': Boolean(editing) },
    id_front_pic: { ...payeeUi.id_front_pic, 'ui:widget': PictureWidget },
    id_reverse_pic: { ...payeeUi.id_reverse_pic, 'ui:widget': PictureWidget },
  };

  async function save() {
    setMessage('');
    const valid = formRef.current?.validateForm?.() ?? true;
    const rules = ruleErrors(value, editing ? { held_receive_type: editing.receive_type } : undefined);
    setErrors(rules);
    if (!valid || rules.length) return;
    setBusy(true);
    try {
      const body = editing ? { ...value, rebate_info_id: editing.rebate_info_id } : value;
      const r = await (editing ? api.post : api.put)<{ data: { rebate_info_id: number } }>('/api/account/rebate/info', body);
      onSaved(r.data.rebate_info_id);
    } catch (e) {
      setMessage(failureText(e));
      if (e instanceof ApiFailure) setErrors(e.errors);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog isOpen onClose={onClose} title={editing ? '编辑收款信息' : '添加收款信息'} className="payee-dialog">
      <DialogBody>
        {message && <Callout intent="danger">{message}</Callout>}
        <DeclarationForm
          schema={payeeSchema}
          ui={ui}
          formData={value}
          onChange={(v: PayeeForm) => {
            setErrors([]);
            setValue(editing ? { ...v, receive_type: editing.receive_type } : v);
          }}
          errors={errors}
          formRef={formRef}
        />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>取消</Button>
            <Button intent="primary" loading={busy} onClick={() => void save()}>
              确定
            </Button>
          </>
        }
      />
    </Dialog>
  );
}
