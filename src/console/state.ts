/** The console's shared state (jotai): the current user, usage and business type. */
import { atom, createStore } from 'jotai';
import type { CurrentUser, Usage } from '../shared/account';

export type Session =
  | { status: 'unknown' }
  | { status: 'anonymous' }
  | { status: 'signedIn'; user: CurrentUser; usage: Usage };

export const sessionAtom = atom<Session>({ status: 'unknown' });

/** The current section flag (spec 000 §4), kept in session storage. */
const storedBusinessType = typeof sessionStorage !== 'undefined' ? sessionStorage.getItem('businessType') : null;
const businessTypeBase = atom<string | null>(storedBusinessType);
export const businessTypeAtom = atom(
  (get) => get(businessTypeBase),
  (_get, set, value: string | null) => {
    set(businessTypeBase, value);
    if (value) sessionStorage.setItem('businessType', value);
    else sessionStorage.removeItem('businessType');
  },
);

/** One store, so the API client (outside React) can merge a returned user into it. */
export const store = createStore();

export function mergeUser(user: Partial<CurrentUser>): void {
  const s = store.get(sessionAtom);
  if (s.status === 'signedIn') store.set(sessionAtom, { ...s, user: { ...s.user, ...user } });
}
