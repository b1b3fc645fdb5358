/**
 * The top bar's messages (spec 000 §2.8, §4, §9): a bell with the unread count, a menu of up to 5
 * unread messages, and one popup for an unread platform announcement, marked read when dismissed.
 * The popup takes turns with the shell's popup announcement, so only one modal shows at a time.
 * Asked again every 15 minutes. Main accounts only.
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { Button, Dialog, DialogBody, DialogFooter, Menu, MenuDivider, MenuItem, Popover, Tag } from '@blueprintjs/core';
import { api } from '../api/client';
import { MESSAGE_HOME, MESSAGE_REFRESH_MS, MESSAGE_TEXTS, messagePath } from '../../shared/message-centre';
import { usePopupTurn } from '../state';
import { loadUnread, unreadAtom } from './unread';
import './message.css';

export { MESSAGE_HOME };

const badge = (total: number) => (total > 99 ? '99+' : String(total));

export function MessageBell() {
  const summary = useAtomValue(unreadAtom);
  const navigate = useNavigate();
  const [dismissed, setDismissed] = useState<number | null>(null);
  useEffect(() => {
    void loadUnread();
    const t = setInterval(() => void loadUnread(), MESSAGE_REFRESH_MS);
    return () => clearInterval(t);
  }, []);
  const popup = summary?.popup && summary.popup.account_message_id !== dismissed ? summary.popup : null;
  const shown = usePopupTurn('message', Boolean(popup));

  async function dismiss() {
    if (!popup) return;
    setDismissed(popup.account_message_id);
    await api.post('/api/messages/', { ids: [popup.account_message_id], action: 'readed' }).catch(() => undefined);
    void loadUnread();
  }

  return (
    <>
      <Popover
        placement="bottom-end"
        content={
          <Menu className="message-menu">
            {(summary?.latest ?? []).map((m) => (
              <MenuItem key={m.account_message_id} icon="envelope" text={m.title} onClick={() => navigate(messagePath(m.account_message_id))} />
            ))}
            {summary?.latest.length ? <MenuDivider /> : <MenuItem disabled text={MESSAGE_TEXTS.empty} />}
            <MenuItem icon="inbox" text={MESSAGE_TEXTS.title} onClick={() => navigate(MESSAGE_HOME)} />
          </Menu>
        }
      >
        {/* the name holds the badge's text, as it is seen (axe label-content-name-mismatch) */}
        <Button variant="minimal" icon="notifications" aria-label={summary?.total ? `${MESSAGE_TEXTS.title} ${badge(summary.total)} 条未读` : MESSAGE_TEXTS.title} className="message-bell">
          {summary?.total ? (
            <Tag round intent="danger" className="message-badge">
              {badge(summary.total)}
            </Tag>
          ) : null}
        </Button>
      </Popover>
      <Dialog isOpen={shown} title={popup?.title} icon={popup ? 'notifications' : undefined} onClose={dismiss} className="message-popup">
        <DialogBody>
          <p className="message-body">{popup?.body}</p>
        </DialogBody>
        <DialogFooter actions={<Button intent="primary" onClick={dismiss}>知道了</Button>} />
      </Dialog>
    </>
  );
}
