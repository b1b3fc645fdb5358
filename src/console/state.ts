/** The console's shared state (jotai): the current user, usage and business type. */
import { useEffect } from 'react';
import { atom, createStore, useAtom } from 'jotai';
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

/**
 * The signed-in user's avatar (头像) as an address with its version, shared by the top bar's account
 * menu and the profile page's 头像 card: undefined until asked, null when none is set.
 */
export const avatarAtom = atom<string | null | undefined>(undefined);

/** The avatar's address from GET /api/accounts/avatar/info/ (the version makes a new picture load). */
export function avatarSrc(info: { avatar: boolean; updated_at: number | null }): string | null {
  return info.avatar ? `/api/accounts/avatar/?v=${info.updated_at}` : null;
}

/**
 * The popups that open by themselves (the unread platform notice, the popup announcement): at most one
 * at a time (spec 000 §2.8, §9). The first to want the screen takes it; the other waits until it is closed.
 */
export type PopupKind = 'message' | 'announcement';
export const popupTurnAtom = atom<PopupKind | null>(null);

export function usePopupTurn(kind: PopupKind, wants: boolean): boolean {
  const [turn, setTurn] = useAtom(popupTurnAtom);
  // asked again whenever the turn changes hands, so a waiting popup takes it once the other closes
  useEffect(() => {
    if (wants && turn === null) setTurn((t) => t ?? kind);
    else if (!wants && turn === kind) setTurn((t) => (t === kind ? null : t));
  }, [kind, wants, turn, setTurn]);
  useEffect(() => () => setTurn((t) => (t === kind ? null : t)), [kind, setTurn]);
  return wants && turn === kind;
}
