/**
 * The keys the console keeps in the browser (spec 000 §4 "Stored keys"), one place for each:
 *   previousPath   the page to return to after signing in (localStorage)
 *   notCertified   set to "true" by a successful sign-in (localStorage)
 *   bucket_id      the service last opened (localStorage)
 *   {name}.service the kind of a service by its name, so a service page knows its tabs before the
 *                  info call answers (sessionStorage)
 *   businessType   the current section flag (sessionStorage; src/console/state.ts)
 *   edgeRuleDraft:{name}:{rule}  the edge-rule form while its page is open, so a reload keeps what was
 *                  typed (sessionStorage; removed when the page closes; ours, not the spec's)
 */
import type { ServiceKind } from '../shared/services';

const local = () => (typeof localStorage === 'undefined' ? null : localStorage);
const session = () => (typeof sessionStorage === 'undefined' ? null : sessionStorage);

export const stored = {
  previousPath: {
    get: () => local()?.getItem('previousPath') ?? null,
    set: (path: string) => local()?.setItem('previousPath', path),
    /** read once: the value is removed */
    take(): string | null {
      const v = local()?.getItem('previousPath') ?? null;
      local()?.removeItem('previousPath');
      return v;
    },
  },
  notCertified: {
    get: () => local()?.getItem('notCertified') === 'true',
    set: () => local()?.setItem('notCertified', 'true'),
  },
  bucketId: {
    get: () => {
      const v = Number(local()?.getItem('bucket_id'));
      return Number.isInteger(v) && v > 0 ? v : null;
    },
    set: (id: number) => local()?.setItem('bucket_id', String(id)),
  },
  /** realnamePopup: the dashboard's real-name modal has popped up in this browser session (sessionStorage; ours) */
  realnamePopup: {
    shown: () => session()?.getItem('realnamePopup') === 'shown',
    mark: () => session()?.setItem('realnamePopup', 'shown'),
  },
  /** signOutNotice: a message the login page shows once after a forced sign-out (blocked: 21104; sessionStorage; ours) */
  signOutNotice: {
    set: (code: number) => session()?.setItem('signOutNotice', String(code)),
    get(): number | null {
      const v = Number(session()?.getItem('signOutNotice'));
      return Number.isInteger(v) && v > 0 ? v : null;
    },
    clear: () => session()?.removeItem('signOutNotice'),
  },
  serviceKind: {
    get: (name: string) => (session()?.getItem(`${name}.service`) as ServiceKind | null) ?? null,
    set: (name: string, kind: ServiceKind) => session()?.setItem(`${name}.service`, kind),
  },
  edgeRuleDraft: {
    get<T>(key: string): T | null {
      try {
        const v = session()?.getItem(`edgeRuleDraft:${key}`);
        return v ? (JSON.parse(v) as T) : null;
      } catch {
        return null;
      }
    },
    set: (key: string, value: unknown) => session()?.setItem(`edgeRuleDraft:${key}`, JSON.stringify(value)),
    clear: (key: string) => session()?.removeItem(`edgeRuleDraft:${key}`),
  },
};
