/**
 * The real-name prompt (spec 000 §2.9; 22005 in §5, §6): a modal asking an unverified user to complete
 * personal or enterprise real-name verification. Its single action, 立即前往, closes it, goes to the
 * account profile (/account/profile/?realname) and then records the caller's real-name statistics
 * event (src/shared/events.ts VERIFY_EVENTS) if it has one. Shared by the dashboard (dashboard_popup,
 * dashboard_icon), the sub-account page (child) and the external products (src/console/external/useExternalEntry.tsx).
 */
import { Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { useNavigate } from 'react-router-dom';
import { recordEvent } from '../api/events';
import type { VERIFY_EVENTS } from '../../shared/events';

export type VerifyEvent = (typeof VERIFY_EVENTS)[number];
/** The account profile state with the verification-type chooser open (spec 000 §2.4 profile/?realname). */
export const REALNAME_PROFILE = '/account/profile/?realname';

/** `purpose`: what the verification unlocks, e.g. 创建子账号 or 使用短信服务. */
export function RealnamePrompt({ isOpen, purpose, event, onClose }: { isOpen: boolean; purpose: string; event?: VerifyEvent; onClose: () => void }) {
  const navigate = useNavigate();
  return (
    <Dialog isOpen={isOpen} title="实名认证" icon="id-number" onClose={onClose} className="realname-dialog">
      <DialogBody>
        <p>根据相关规定，您需要先完成个人或企业实名认证，才能{purpose}。</p>
      </DialogBody>
      <DialogFooter
        actions={
          <Button
            intent="primary"
            text="立即前往"
            onClick={() => {
              onClose();
              navigate(REALNAME_PROFILE);
              if (event) recordEvent('verify', event);
            }}
          />
        }
      />
    </Dialog>
  );
}
