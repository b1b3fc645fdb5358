/**
 * "创建服务" on a service list: the create_service declaration rendered by the generic engine.
 * Who may create what is one rule (creationRefusal in src/shared/services.ts) that the server
 * applies too; here it disables nothing silently: the reason is shown.
 */
import { useRef, useState } from 'react';
import { Alert, Button, Callout, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import createServiceSchema from '../../../schemas/forms/create_service/schema.json';
import createServiceUi from '../../../schemas/forms/create_service/ui.json';
import { DeclarationForm } from '../../../renderers/DeclarationForm';
import { api, ApiFailure, failureText } from '../api/client';
import type { BucketInfo } from '../../shared/buckets';
import type { FieldError } from '../../shared/errors';
import { errorText } from '../../shared/errors';
import { creationRefusal, KINDS, type ServiceKind } from '../../shared/services';
import type { CurrentUser, Usage } from '../../shared/account';
import { notify } from '../common/toaster';
import { ConfigLockNotice, CreationForbidden } from '../external/Notices';

export function CreateServiceButton({ kind, user, usage, onCreated }: { kind: ServiceKind; user: CurrentUser; usage: Usage; onCreated(b: BucketInfo): void }) {
  const [open, setOpen] = useState(false);
  const [refused, setRefused] = useState<number | null>(null);
  return (
    <>
      <Button
        intent="primary"
        icon="add"
        className="create-service"
        onClick={() => {
          const code = creationRefusal(kind, { ...user, money: usage.money });
          if (code) setRefused(code);
          else setOpen(true);
        }}
      >
        创建服务
      </Button>
      {/* the shared notices (src/console/external/Notices.tsx): the config lock, the overseas balance rule with 去充值 */}
      <ConfigLockNotice isOpen={refused === 21210} onClose={() => setRefused(null)} />
      <CreationForbidden kind="overseas" isOpen={refused === 21212} onClose={() => setRefused(null)} />
      <Alert isOpen={refused !== null && refused !== 21210 && refused !== 21212} confirmButtonText="确定" onConfirm={() => setRefused(null)} intent="warning">
        <p>{refused ? errorText(refused) : ''}</p>
      </Alert>
      {open && (
        <CreateServiceDialog
          kind={kind}
          onClose={() => setOpen(false)}
          onCreated={(b) => {
            setOpen(false);
            onCreated(b);
          }}
        />
      )}
    </>
  );
}

function CreateServiceDialog({ kind, onClose, onCreated }: { kind: ServiceKind; onClose(): void; onCreated(b: BucketInfo): void }) {
  const [formData, setFormData] = useState<Record<string, unknown>>({ bucket_name: '', kind, domains: [], remark: '' });
  const [failure, setFailure] = useState<{ message: string; errors: FieldError[] } | null>(null);
  const [saving, setSaving] = useState(false);
  const formRef = useRef<any>(null);

  async function submit() {
    setFailure(null);
    if (!formRef.current?.validateForm()) return;
    setSaving(true);
    try {
      const { remark, ...rest } = formData;
      const res = await api.put<{ data: BucketInfo }>('/api/buckets/', { ...rest, ...(remark ? { remark } : {}) });
      notify('创建成功', 'success');
      onCreated(res.data);
    } catch (e) {
      setFailure({ message: failureText(e), errors: e instanceof ApiFailure ? e.errors : [] });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog isOpen title={`创建${KINDS[kind].title}服务`} onClose={onClose} className="setting-dialog" canOutsideClickClose={false}>
      <DialogBody>
        {failure && (
          <Callout intent="danger" className="setting-failure" role="alert">
            {failure.message}
          </Callout>
        )}
        <DeclarationForm
          formRef={formRef}
          schema={createServiceSchema}
          ui={createServiceUi}
          formData={formData}
          errors={failure?.errors}
          onChange={(data) => setFormData(data)}
        />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>取消</Button>
            <Button intent="primary" onClick={submit} loading={saving} className="create-confirm">
              确定
            </Button>
          </>
        }
      />
    </Dialog>
  );
}
