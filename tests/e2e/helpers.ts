/**
 * What every browser test shares. Import `test` and `expect` from here, not from '@playwright/test':
 * the automatic fixture `pageChecks` then watches every page of the test's browser context and fails the
 * test
 *  - on any error in the browser console or any uncaught exception in the page (issue 20, item 13), and
 *  - on any critical or serious axe-core violation (issue 24) of any page the test shows, dialogs, drawers
 *    and menus open included.
 * axe-core (an npm dev dependency) is injected into every page by an init script; the page checks itself
 * whenever its DOM has been quiet for a moment and it shows a state not checked before in this worker
 * (the path with its names and numbers replaced, plus the titles of what is open), so a page seen by
 * twenty tests is checked once and the suite stays fast. Moderate findings that stay are listed with
 * their reason in docs/accessibility.md and are not reported here.
 */
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import fs from 'node:fs';

export { expect };

export const PASSWORD = 'demo123456';

/** Impacts that fail a test; moderate and minor ones are documented in docs/accessibility.md. */
export const FAILING_IMPACTS = ['critical', 'serious'];

/** How long the DOM must stay quiet before the page checks itself (ms). */
const QUIET_MS = 350;

const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Path segments that name a section rather than one service, bill, order …: kept in the state's key. */
const SECTION_SEGMENTS = new Set(['cdn', 'file', 'fusion', 'scdn', 'live', 'ws', 'overseas', 'ddos', 'process', 'create', 'instance', 'order', 'pay']);

/** The key of a page state: `/services/demo-www/domainsCdn/` and `/services/e2e-x/domainsCdn/` are one page. */
export function stateKey(pathname: string, open: string): string {
  const parts = pathname.split('/');
  const norm = parts.map((seg, i) => {
    if (/^\d+$/.test(seg) || /^[0-9a-f]{8,}(-[0-9a-f]+)*$/i.test(seg)) return ':n';
    if (parts[1] === 'services' && i === 2 && seg && !SECTION_SEGMENTS.has(seg)) return ':name';
    if (parts[1] === 'gallery' && i === 2 && seg) return ':id';
    return seg;
  });
  return `${norm.join('/')}${open ? ` [${open}]` : ''}`;
}

interface AxeNode {
  target: unknown[];
  html: string;
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: AxeNode[];
}

/** Tests that provoke a console error on purpose name it here before they do (e.g. a page that is meant to fail to load). */
const allowed = new WeakMap<Page, RegExp[]>();
export function allowConsoleError(page: Page, pattern: RegExp) {
  allowed.set(page, [...(allowed.get(page) ?? []), pattern]);
}

/**
 * The in-page part: waits for a quiet DOM without spinners or running transitions, asks the test
 * (through `__pageCheckWanted`) whether this state is new, runs axe and reports to `__pageCheckReport`.
 */
function inPage(quietMs: number) {
  const w = window as unknown as {
    axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: unknown[] }>; configure: (o: unknown) => void };
    __pageCheckWanted: (path: string, open: string) => Promise<boolean>;
    __pageCheckReport: (path: string, open: string, violations: unknown[]) => Promise<void>;
    __pageCheckNow: () => Promise<void>;
    __pageCheckBusy: boolean;
  };
  if (window.top !== window) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // the page's changes, counted: a check whose page changed while axe looked at it is taken again
  let mutations = 0;
  const retries = new Map<string, number>();
  w.__pageCheckBusy = false;
  const busyDom = () =>
    // the console's scripts have not drawn it yet (a reload on a loaded machine): an empty page is no state
    document.getElementById('root')?.childElementCount === 0 ||
    Boolean(
      document.querySelector(
        '.bp6-spinner, .bp6-skeleton, .bp6-overlay-appear, .bp6-overlay-appear-active, .bp6-overlay-enter, .bp6-overlay-enter-active, .bp6-overlay-exit, .bp6-overlay-exit-active, .bp6-popover-enter, .bp6-popover-enter-active, .bp6-popover-exit, .bp6-popover-exit-active, .bp6-toast-enter-active, .bp6-toast-exit-active',
      ),
    ) ||
    // a CSS transition still running (a dialog fading in after its classes are gone): colours are half-way
    // and axe would measure a contrast nobody sees; transitions end, unlike a progress bar's endless animation
    document.getAnimations().some((a) => a.constructor.name === 'CSSTransition' && a.playState === 'running');
  const openThings = () => {
    const names: string[] = [];
    document.querySelectorAll('[role="dialog"], [role="alertdialog"], .bp6-drawer, .bp6-popover').forEach((el) => {
      const title = el.querySelector('.bp6-heading, h1, h2, h3, h4, h5, h6')?.textContent?.trim();
      const role = el.getAttribute('role') ?? (el.classList.contains('bp6-popover') ? 'popover' : 'drawer');
      names.push(`${role}:${title ?? ''}`);
    });
    return [...new Set(names)].sort().join(', ');
  };
  const check = async (force: boolean) => {
    if (w.__pageCheckBusy || !document.body) return;
    if (busyDom()) {
      if (!force) schedule();
      return;
    }
    const path = location.pathname;
    const open = openThings();
    w.__pageCheckBusy = true;
    try {
      if (!(await w.__pageCheckWanted(path, open))) return;
      const before = mutations;
      const result = await w.axe.run(document, { resultTypes: ['violations'], runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } });
      // the page must not have moved on while axe looked at it
      if (location.pathname !== path || openThings() !== open) return;
      // nor changed under it (a toast that appeared mid-run was measured half faded in: contrast 1.14, seen in
      // origin-address.spec): the next quiet moment checks again, up to three times for one state (axe itself
      // changes nothing in the page)
      const key = `${path} ${open}`;
      const tries = retries.get(key) ?? 0;
      if ((mutations !== before || busyDom()) && tries < 3) {
        retries.set(key, tries + 1);
        schedule();
        return;
      }
      await w.__pageCheckReport(path, open, result.violations);
    } catch {
      // the page went away under axe (a navigation): the next quiet moment checks again
    } finally {
      w.__pageCheckBusy = false;
    }
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void check(false), quietMs);
  };
  w.__pageCheckNow = () => check(true);
  const start = () => {
    new MutationObserver(() => {
      mutations++;
      schedule();
    }).observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
    schedule();
  };
  if (document.documentElement) start();
  else document.addEventListener('DOMContentLoaded', start);
}

async function watch(context: BrowserContext, seen: Set<string>, failures: string[]) {
  await context.exposeBinding('__pageCheckWanted', (_source, path: string, open: string) => {
    return !seen.has(stateKey(path, open));
  });
  await context.exposeBinding('__pageCheckReport', (_source, path: string, open: string, violations: AxeViolation[]) => {
    seen.add(stateKey(path, open));
    // A11Y_LOG=<file>: every finding of every impact, one JSON line each (how docs/accessibility.md's list was made)
    if (process.env.A11Y_LOG) {
      for (const v of violations) fs.appendFileSync(process.env.A11Y_LOG, `${JSON.stringify({ state: stateKey(path, open), id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length, first: v.nodes[0]?.html.slice(0, 200) })}\n`);
    }
    for (const v of violations) {
      if (!FAILING_IMPACTS.includes(v.impact ?? '')) continue;
      const nodes = v.nodes
        .slice(0, 4)
        .map((n) => `      ${JSON.stringify(n.target)} ${n.html.slice(0, 160)}${n.failureSummary ? `\n        ${n.failureSummary.split('\n').slice(1, 2).join('').trim()}` : ''}`)
        .join('\n');
      failures.push(`axe ${v.impact} ${v.id} (${v.help}) on ${stateKey(path, open)} — ${v.nodes.length} node(s):\n${nodes}`);
    }
  });
  await context.addInitScript(`${AXE_SOURCE}\n;(${inPage.toString()})(${QUIET_MS});`);
}

/**
 * The browser logs every HTTP error status it receives as a console error of its own. An API refusal
 * (4xx from /api/ or /accounts/ with the error envelope, spec 000 §7) is an answer the console shows in
 * Chinese, and many tests provoke one on purpose; it is not counted. Everything else is: what the
 * console's code logs, uncaught exceptions, 5xx answers, and failed loads of anything else.
 */
export function isApiRefusal(text: string, url: string): boolean {
  if (!/^Failed to load resource: the server responded with a status of 4\d\d\b/.test(text)) return false;
  try {
    return /^\/(api|accounts)\//.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

function listen(page: Page, failures: string[]) {
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    if (isApiRefusal(msg.text(), msg.location().url)) return;
    const text = `${msg.text()}${msg.location().url ? ` (${msg.location().url})` : ''}`;
    if ((allowed.get(page) ?? []).some((re) => re.test(text))) return;
    failures.push(`console error on ${safeUrl(page)}: ${text}`);
  });
  page.on('pageerror', (err) => {
    const text = String(err.stack ?? err);
    if ((allowed.get(page) ?? []).some((re) => re.test(text))) return;
    failures.push(`uncaught exception on ${safeUrl(page)}: ${text}`);
  });
}

function safeUrl(page: Page) {
  try {
    return new URL(page.url()).pathname;
  } catch {
    return page.url();
  }
}

export const test = base.extend<{ pageChecks: void }, { checkedStates: Set<string> }>({
  checkedStates: [async ({}, use) => use(new Set<string>()), { scope: 'worker' }],
  pageChecks: [
    async ({ context, checkedStates }, use) => {
      const failures: string[] = [];
      await watch(context, checkedStates, failures);
      for (const p of context.pages()) listen(p, failures);
      context.on('page', (p) => listen(p, failures));
      await use();
      // the state the test ended on is checked too, after any check already under way
      for (const p of context.pages()) {
        if (p.isClosed()) continue;
        await p
          .waitForFunction(() => !(window as unknown as { __pageCheckBusy?: boolean }).__pageCheckBusy, undefined, { timeout: 5_000 })
          .then(() => p.evaluate(() => (window as unknown as { __pageCheckNow?: () => Promise<void> }).__pageCheckNow?.()))
          .catch(() => undefined);
      }
      if (failures.length) throw new Error(`The page checks found ${failures.length} problem(s):\n${failures.join('\n')}`);
    },
    { auto: true },
  ],
});

/**
 * Signs in through the login page. A main account lands on the dashboard; a sub-account passes through
 * it to the first page it may use (spec 000 §2.3).
 */
export async function signIn(page: Page, username = 'demo') {
  await page.goto('/login/');
  await page.locator('#login-username').fill(username);
  await page.locator('#login-password').fill(PASSWORD);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(LANDINGS[username] ?? /\/dashboard\/$/);
}

/** Where the demo's sub-accounts land (src/server/seed/demo.ts; demo_ops holds CDN first). */
const LANDINGS: Record<string, RegExp> = { demo_ops: /\/services\/cdn\/$/ };
