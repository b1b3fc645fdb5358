/**
 * The live info of a live service (spec 002 §4, §7): its transport decides the service type (push → file,
 * otherwise ucdn) and so whether streamMonitorLive shows; a failing call is read as "config does not
 * exist" (23801). A suspended configuration opens the suspended-config modal and locks the panels.
 */
import { useEffect, useState } from 'react';
import { Button, Callout, Classes, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { api } from '../api/client';
import { LIVE_NO_CONFIG_TEXT, LIVE_SUSPENDED_TEXT, LIVE_SUSPENDED_TITLE, type LiveInfo } from '../../shared/live';

export type LiveState = { status: 'none' } | { status: 'loading' } | { status: 'ok'; info: LiveInfo } | { status: 'missing'; code: number };

/** `none` for a service that is not live; `missing` when the live call failed (read as 23801). */
export function useLiveInfo(bucket: { bucket_name: string; kind: string } | null): LiveState {
  const [state, setState] = useState<LiveState>({ status: 'loading' });
  const name = bucket?.bucket_name;
  const live = bucket?.kind === 'live';
  useEffect(() => {
    if (!name) return setState({ status: 'loading' });
    if (!live) return setState({ status: 'none' });
    let alive = true;
    setState({ status: 'loading' });
    api
      .get<{ data: LiveInfo }>('/api/buckets/live/info/', { bucket_name: name })
      .then((res) => alive && setState({ status: 'ok', info: res.data }))
      .catch(() => alive && setState({ status: 'missing', code: 23801 }));
    return () => {
      alive = false;
    };
  }, [name, live]);
  return state;
}

/** The text that locks the live panels while the configuration is suspended. */
export function liveLock(state: LiveState): string | undefined {
  return state.status === 'ok' && state.info.suspended ? LIVE_SUSPENDED_TEXT : undefined;
}

/** The suspended-config modal (shown once per visit of the page) and the no-config notice. */
export function LiveNotices({ state }: { state: LiveState }) {
  const suspended = state.status === 'ok' && state.info.suspended;
  const [open, setOpen] = useState(true);
  if (state.status === 'missing') return <Callout intent="warning" className="live-missing">{LIVE_NO_CONFIG_TEXT}</Callout>;
  if (!suspended) return null;
  return (
    <>
      <Callout intent="warning" className="live-suspended">{LIVE_SUSPENDED_TEXT}</Callout>
      <Dialog isOpen={open} title={LIVE_SUSPENDED_TITLE} onClose={() => setOpen(false)} className="live-suspended-dialog">
        <DialogBody>
          <p>{LIVE_SUSPENDED_TEXT}</p>
          {state.info.suspended_reason && <p className={Classes.TEXT_MUTED}>暂停原因：{state.info.suspended_reason}</p>}
        </DialogBody>
        <DialogFooter actions={<Button intent="primary" text="我知道了" onClick={() => setOpen(false)} />} />
      </Dialog>
    </>
  );
}
