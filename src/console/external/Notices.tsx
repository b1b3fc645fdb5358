/**
 * Reusable modals of spec 000 §3 ("confirm operation; SMS/overseas creation forbidden; popup
 * announcement; config-lock notice"). Texts come from the error catalogue where the spec quotes them.
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert, Button, Callout, Dialog, DialogBody, DialogFooter, type Intent } from '@blueprintjs/core';
import { errorText } from '../../shared/errors';
import { api } from '../api/client';
import { usePopupTurn } from '../state';

/** Confirm operation: a question with 确定 / 取消; `onConfirm` may be async (the button waits). */
export function ConfirmOperation(props: { isOpen: boolean; title?: string; text: string; intent?: Intent; confirmText?: string; onConfirm: () => void | Promise<void>; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <Alert
      isOpen={props.isOpen}
      icon="warning-sign"
      intent={props.intent ?? 'primary'}
      cancelButtonText="取消"
      confirmButtonText={props.confirmText ?? '确定'}
      loading={busy}
      onCancel={props.onClose}
      onConfirm={async () => {
        setBusy(true);
        try {
          await props.onConfirm();
        } finally {
          setBusy(false);
          props.onClose();
        }
      }}
    >
      {props.title && <strong className="confirm-title">{props.title}</strong>}
      <p>{props.text}</p>
    </Alert>
  );
}

/** The config-lock notice (spec 000 §5): 因贵司属于重要客户… (21210), for custom_prohibit_configuration accounts. */
export function ConfigLockNotice({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  return (
    <Alert isOpen={isOpen} icon="lock" intent="warning" confirmButtonText="知道了" onConfirm={onClose} onCancel={onClose} className="config-lock-notice">
      <p>{errorText(21210)}</p>
    </Alert>
  );
}

/** An inline variant of the config-lock notice for pages of a locked account. */
export function ConfigLockCallout() {
  return (
    <Callout intent="warning" icon="lock" className="config-lock-callout">
      {errorText(21210)}
    </Callout>
  );
}

/**
 * Creation forbidden: overseas (spec 000 §5: balance under 399 and overseas_acceleration_switch off;
 * 21212, with the way to recharge) or SMS (real-name first, 22005, with the way to verify).
 */
export function CreationForbidden({ kind, isOpen, onClose }: { kind: 'overseas' | 'sms'; isOpen: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const overseas = kind === 'overseas';
  const go = (to: string) => {
    onClose();
    navigate(to);
  };
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={overseas ? '暂不能创建海外加速服务' : '暂不能开通短信服务'} icon="disable" className="creation-forbidden">
      <DialogBody>
        <p>{overseas ? errorText(21212) : `${errorText(22005)}，完成实名认证后即可开通短信服务。`}</p>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="取消" onClick={onClose} />
            {overseas ? <Button intent="primary" text="去充值" onClick={() => go('/billing/charge/')} /> : <Button intent="primary" text="去实名认证" onClick={() => go('/account/verifypersonal/')} />}
          </>
        }
      />
    </Dialog>
  );
}

interface Announcement {
  id: number;
  title: string;
  body: string;
  link: string | null;
}

/**
 * The popup announcement: the newest platform announcement not yet seen, once per user (docs/external-products.md).
 * It waits while the bell's message popup is open (at most one popup at a time, spec 000 §2.8).
 */
export function PopupAnnouncement() {
  const navigate = useNavigate();
  const [item, setItem] = useState<Announcement | null>(null);
  const shown = usePopupTurn('announcement', item !== null);
  useEffect(() => {
    api.get<{ data: Announcement | null }>('/api/announcements/popup').then(
      (r) => setItem(r.data),
      () => undefined,
    );
  }, []);
  if (!item || !shown) return null;
  const close = (then?: () => void) => {
    const id = item.id;
    setItem(null);
    void api.post('/api/announcements/popup', { id }).catch(() => undefined);
    then?.();
  };
  const link = item.link;
  return (
    <Dialog isOpen title={item.title} icon="notifications" onClose={() => close()} className="popup-announcement">
      <DialogBody>
        <p style={{ whiteSpace: 'pre-wrap' }}>{item.body}</p>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            {link && <Button text="查看详情" onClick={() => close(() => (link.startsWith('/') ? navigate(link) : window.open(link, '_blank', 'noopener')))} />}
            <Button intent="primary" text="知道了" onClick={() => close()} />
          </>
        }
      />
    </Dialog>
  );
}
