import type { CurrentUser, Usage } from '../shared/account';
import { api, ApiFailure } from './api/client';
import { sessionAtom, store } from './state';

/** Asks the server who is signed in; 401 means nobody. */
export async function loadSession(): Promise<void> {
  try {
    const res = await api.get<{ data: Usage; user: CurrentUser }>('/api/accounts/v2/usage/');
    store.set(sessionAtom, { status: 'signedIn', user: res.user, usage: res.data });
  } catch (e) {
    if (e instanceof ApiFailure && e.status === 401) store.set(sessionAtom, { status: 'anonymous' });
    else store.set(sessionAtom, { status: 'anonymous' });
  }
}
