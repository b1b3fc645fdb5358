/**
 * The one API client. It applies the central response rules of spec 000 §4:
 *  - a `location` in a body redirects (absolute URL, hash route or a path of the console);
 *  - a `user` in a body is merged into the current user; user.status blocked signs out;
 *  - failures become ApiFailure with the catalogue's Chinese text: error_code → text, other
 *    4xx → 请求出错了，刷新试试, 5xx → 网络似乎不稳定，刷新试试; 21110 (signed out) marks the
 *    session anonymous, and the route guard goes to /login/.
 */
import { ofetch, FetchError } from 'ofetch';
import { errorText, HTTP_4XX_TEXT, HTTP_5XX_TEXT, THROWN_FAILURE_TEXT, TRANSPORT_FAILURE_TEXT, type FieldError } from '../../shared/errors';
import { mergeUser, sessionAtom, store } from '../state';
import { stored } from '../storage';

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: number | null,
    message: string,
    readonly errors: FieldError[] = [],
    /** What a refusal carries besides its code (e.g. a certificate upload's status). */
    readonly data?: unknown,
  ) {
    super(message);
  }
}

type Navigate = (to: string) => void;
let navigateFn: Navigate = (to) => window.location.assign(to);
/** The router registers its navigate function so redirects stay inside the single-page app. */
export function setNavigator(fn: Navigate): void {
  navigateFn = fn;
}

/** Stores the page to come back to after signing in (spec 000 §4 "previousPath"). */
export function rememberPath(path: string): void {
  stored.previousPath.set(path);
}

/** Several calls may answer blocked at once: the sign-out is started by the first. */
let blockedNoticed = false;

function applyCentralRules(body: any): void {
  if (!body || typeof body !== 'object') return;
  if (body.user && typeof body.user === 'object') {
    if (body.user.status === 'blocked') {
      // the server has ended the session already (21104): sign out, and the login page says why, once
      if (!blockedNoticed) {
        blockedNoticed = true;
        stored.signOutNotice.set(21104);
        window.location.assign('/accounts/signout/');
      }
      return;
    }
    mergeUser(body.user);
  }
  if (typeof body.location === 'string' && body.location) {
    const loc: string = body.location;
    if (/^https?:\/\//.test(loc)) window.location.assign(loc);
    else if (loc.startsWith('#')) window.location.hash = loc;
    else navigateFn(loc);
  }
}

async function call<T>(method: string, url: string, opts: { query?: Record<string, unknown>; body?: unknown } = {}): Promise<T> {
  try {
    const body = await ofetch(url, { method, query: opts.query as Record<string, any>, body: opts.body as any, credentials: 'same-origin', retry: 0 });
    applyCentralRules(body);
    return body as T;
  } catch (e) {
    if (e instanceof FetchError) {
      const status = e.statusCode ?? 0;
      const data = e.data as { error_code?: number; errors?: FieldError[]; data?: unknown } | undefined;
      if (data && typeof data === 'object') applyCentralRules(data);
      // signed out: the route guard (routes.tsx) remembers the page and goes to /login/
      if (data?.error_code === 21110 && store.get(sessionAtom).status === 'signedIn') store.set(sessionAtom, { status: 'anonymous' });
      // a 5xx is the server's trouble, whatever code it carries: 网络似乎不稳定，刷新试试 (spec 000 §8)
      if (status >= 500) throw new ApiFailure(status, typeof data?.error_code === 'number' ? data.error_code : null, HTTP_5XX_TEXT);
      if (data && typeof data.error_code === 'number') {
        throw new ApiFailure(status, data.error_code, errorText(data.error_code), data.errors ?? [], data.data);
      }
      if (status >= 400) throw new ApiFailure(status, null, HTTP_4XX_TEXT);
      throw new ApiFailure(0, null, TRANSPORT_FAILURE_TEXT);
    }
    throw new ApiFailure(0, null, THROWN_FAILURE_TEXT);
  }
}

export const api = {
  get: <T = any>(url: string, query?: Record<string, unknown>) => call<T>('GET', url, { query }),
  post: <T = any>(url: string, body?: unknown) => call<T>('POST', url, { body }),
  put: <T = any>(url: string, body?: unknown) => call<T>('PUT', url, { body }),
  del: <T = any>(url: string, body?: unknown) => call<T>('DELETE', url, { body }),
};

export function failureText(e: unknown): string {
  return e instanceof ApiFailure ? e.message : THROWN_FAILURE_TEXT;
}
