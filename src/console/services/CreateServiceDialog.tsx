/**
 * "创建服务" on a service list: the create_service declaration rendered by the generic engine.
 * Who may create what is one rule (creationRefusal in src/shared/services.ts) that the server
 * applies too; here it disables nothing silently: the reason is shown. An account without real-name
 * verification creates a service without domains: the domains field is disabled under a notice with the
 * way to the profile's real-name verification (the server refuses domains with 22005 anyway).
 */
import { recordEvent, useEventOnOpen } from '../api/events';
import { useState } from 'react';
import { Alert, Button, Callout } from '@blueprintjs/core';
import { useNavigate } from 'react-router-dom';
import createServiceSchema from '../../../schemas/forms/create_service/schema.json';
import createServiceUi from '../../../schemas/forms/create_service/ui.json';
import { api } from '../api/client';
import type { BucketInfo } from '../../shared/buckets';
import { errorText } from '../../shared/errors';
import { creationRefusal, KINDS, TAB_LABELS, type ServiceKind } from '../../shared/services';
import { DOMAIN_TEXTS, domainText } from '../../shared/domains';
import { REALNAME_PROFILE } from '../common/RealnamePrompt';
import { bindNeedsRealName } from './DomainsTab';
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
          needsRealName={bindNeedsRealName(user)}
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

/** The form's layout for an account that must verify first: the domains field disabled, its help saying why. */
const unverifiedUi = {
  ...createServiceUi,
  domains: { ...createServiceUi.domains, 'ui:disabled': true, 'ui:help': domainText(DOMAIN_TEXTS.realnameCreateHelp, { tab: TAB_LABELS.domains }) },
};

function CreateServiceDialog({ kind, needsRealName, onClose, onCreated }: { kind: ServiceKind; needsRealName: boolean; onClose(): void; onCreated(b: BucketInfo): void }) {
  const navigate = useNavigate();
  const [formData, setFormData] = useState<Record<string, unknown>>({ bucket_name: '', kind, domains: [], remark: '' });
  // the SCDN funnel (docs/events.md): the create dialog opened, the service created
  useEventOnOpen('buried', kind === 'scdn' ? 'scdn_create_open' : null);

  return (
    <FormDialog<Record<string, unknown>>
      title={`创建${KINDS[kind].title}服务`}
      className="setting-dialog"
      style={{ width: 640 }}
      schema={createServiceSchema}
      ui={needsRealName ? unverifiedUi : createServiceUi}
      intro={
        needsRealName && (
          <Callout intent="warning" icon="id-number" className="realname-bind">
            {DOMAIN_TEXTS.realname}。{' '}
            <Button variant="minimal" intent="primary" size="small" text="立即前往" onClick={() => navigate(REALNAME_PROFILE)} />
          </Callout>
        )
      }
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
