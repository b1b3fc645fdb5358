import type { CurrentUser, Usage } from '../shared/account';
import { api } from './api/client';
import { sessionAtom, store } from './state';

/** Asks the server who is signed in: a visitor is answered with user null (no 401 in the browser's console). */
export async function loadSession(): Promise<void> {
  try {
    const res = await api.get<{ data: Usage | null; user: CurrentUser | null }>('/api/accounts/session/');
    store.set(sessionAtom, res.user && res.data ? { status: 'signedIn', user: res.user, usage: res.data } : { status: 'anonymous' });
  } catch {
    store.set(sessionAtom, { status: 'anonymous' });
  }
}
