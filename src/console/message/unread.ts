/** The top bar's unread summary: one atom, loaded by the bell and refreshed after a change in the centre. */
import { atom } from 'jotai';
import { store } from '../state';
import { api } from '../api/client';
import type { UnreadSummary } from '../../shared/message-centre';

export const unreadAtom = atom<UnreadSummary | null>(null);

export async function loadUnread(): Promise<void> {
  try {
    const r = await api.get<{ data: UnreadSummary }>('/api/messages/unread/');
    store.set(unreadAtom, r.data);
  } catch {
    /* the bell keeps what it had */
  }
}

export function refreshUnread(): void {
  void loadUnread();
}
