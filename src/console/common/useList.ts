/**
 * The plumbing the list pages share: a value loaded on mount and again whenever its dependencies change
 * (the failure's text shown by the page), and an action confirmed on a target (a delete behind an
 * Alert) with its busy flag and notices.
 */
import { useCallback, useEffect, useState, type DependencyList } from 'react';
import { failureText } from '../api/client';
import { notify } from './toaster';

/**
 * Calls `fetcher` on mount and whenever `deps` change; `reload` calls it again. A success clears the
 * failure; a failure keeps its text in `failure` and, when given, shows `fallback` (e.g. an empty list)
 * instead of the data. Side results of the same call (a pager) can be set inside `fetcher`.
 */
export function useLoaded<T>(fetcher: () => Promise<T>, deps: DependencyList, fallback?: T) {
  const [data, setData] = useState<T | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // `deps` are what `fetcher` reads, as for useCallback
  const reload = useCallback(async () => {
    try {
      setData(await fetcher());
      setFailure(null);
    } catch (e) {
      setFailure(failureText(e));
      if (fallback !== undefined) setData(fallback);
    }
  }, deps);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, failure, reload, setData };
}

/**
 * An action on a target chosen first and confirmed after (`setTarget(row)` opens the confirmation,
 * `run` is its confirm button): while it runs `busy` is set; on success it notifies `done`, clears the
 * target and calls `after` (awaited when it returns a promise); a failure is notified as danger.
 */
export function useConfirmedAction<T>(action: (target: T) => Promise<unknown>, done: string, after: () => unknown) {
  const [target, setTarget] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  async function run() {
    if (!target) return;
    setBusy(true);
    await notifyingCall(() => action(target), done, () => {
      setTarget(null);
      return after();
    });
    setBusy(false);
  }
  return { target, setTarget, busy, run };
}

/**
 * A call behind a row's control (a switch, a toggle): on success notifies `done` and calls `after`
 * (a reload); a refusal is notified as danger. Resolves whether the call succeeded.
 */
export async function notifyingCall(call: () => Promise<unknown>, done: string, after?: () => unknown): Promise<boolean> {
  try {
    await call();
    notify(done);
    await after?.();
    return true;
  } catch (e) {
    notify(failureText(e), 'danger');
    return false;
  }
}
