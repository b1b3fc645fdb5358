/**
 * "创建服务" on a service list: the create_service declaration rendered by the generic engine.
 * Who may create what is one rule (creationRefusal in src/shared/services.ts) that the server
 * applies too; here it disables nothing silently: the reason is shown.
 */
import { recordEvent, useEventOnOpen } from '../api/events';
import { useState } from 'react';
import { Alert, Button } from '@blueprintjs/core';
import createServiceSchema from '../../../schemas/forms/create_service/schema.json';
import createServiceUi from '../../../schemas/forms/create_service/ui.json';
import { api } from '../api/client';
import type { BucketInfo } from '../../shared/buckets';
import { errorText } from '../../shared/errors';
import { creationRefusal, KINDS, type ServiceKind } from '../../shared/services';
import type { CurrentUser, Usage } from '../../shared/account';
import { FormDialog } from '../common/FormDialog';
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
  // the SCDN funnel (docs/events.md): the create dialog opened, the service created
  useEventOnOpen('buried', kind === 'scdn' ? 'scdn_create_open' : null);

  return (
    <FormDialog<Record<string, unknown>>
      title={`创建${KINDS[kind].title}服务`}
      className="setting-dialog"
      style={{ width: 640 }}
      schema={createServiceSchema}
      ui={createServiceUi}
      value={formData}
      onChange={setFormData}
      submitClassName="create-confirm"
      onSubmit={async ({ remark, ...rest }) => {
        const res = await api.put<{ data: BucketInfo }>('/api/buckets/', { ...rest, ...(remark ? { remark } : {}) });
        notify('创建成功', 'success');
        if (kind === 'scdn') recordEvent('buried', 'scdn_create_submit');
        onCreated(res.data);
      }}
      onClose={onClose}
    />
  );
}
