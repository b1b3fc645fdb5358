/**
 * One screenshot test per page of the console (issue 20 "Done means"), at 1440×900 as a customer sees
 * it: the page must show no raw service code (file, cdn, scdn, live, websocket, overseas, fusion) in
 * Chinese text or as a cell of its own, and no text may overflow its box. The screenshot is attached
 * to the report and kept in the test's output folder. One sign-in for the whole file: the session is
 * saved once and every test opens its page with it.
 */
import type { Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { test, expect, signIn } from './helpers';

const SERVICE_TABS = (name: string, suffix: string, tabs: string[]) => tabs.map((t) => `/services/${name}/${t}${suffix}/`);

/** Every page a main account reaches from the menus (service pages: every tab of one service of each kind). */
const PAGES = [
  '/dashboard/',
  ...['file', 'cdn', 'fusion', 'scdn', 'live', 'ws', 'overseas'].map((s) => `/services/${s}/`),
  ...SERVICE_TABS('demo-www', 'Cdn', ['domains', 'source', 'cache', 'optimize', 'https', 'antileech', 'costControl', 'thumb', 'edgeCalc']),
  ...SERVICE_TABS('demo-assets', 'File', ['domains', 'fileManage', 'media']),
  ...SERVICE_TABS('demo-live', 'Live', ['basic', 'advanced', 'streamMonitor', 'https', 'antileech', 'streamMedia']),
  '/services/demo-live/domainLive/',
  ...SERVICE_TABS('demo-chat', 'Ws', ['domains', 'https']),
  ...SERVICE_TABS('demo-global', 'Overseas', ['domains', 'source']),
  ...SERVICE_TABS('demo-fusion', 'FusionCdn', ['domains', 'cache']),
  '/services/demo-www/edgeCalcCdn/manage/',
  '/services/process/',
  '/toolbox/ssl/',
  '/toolbox/ssl/manage_default/',
  '/toolbox/createCertificate/',
  '/purge/purge_url/',
  '/purge/purge_rule/',
  '/purge/purge_preheat/',
  '/purge/purge_log/',
  '/stats/',
  '/stats/flowTop/',
  '/stats/accessAnalysis/',
  '/monitor/',
  '/toolbox/alarm/',
  '/log/log_analy/',
  '/log/log_analy/demo-www/',
  '/work/',
  '/toolbox/cross_platform_disaster_recovery/',
  '/toolbox/sms/',
  '/toolbox/oneclicklogin/',
  '/toolbox/oncdp/',
  '/toolbox/blockchainIntro/',
  '/toolbox/audit/',
  '/services/ddos/instance/',
  '/services/ddos/website/',
  '/services/ddos/nonwebsite/',
  '/services/ddos/protectlog/',
  '/services/ddos/order/',
  '/billing/bills/',
  '/billing/vouchers/',
  '/billing/resources/',
  '/billing/resources/buy/',
  '/billing/sms/',
  '/billing/other/',
  '/billing/charge/',
  '/billing/history/',
  '/billing/ledger/',
  '/billing/invoicing/',
  '/billing/createInvoicing/',
  '/billing/rebateAmount/',
  '/billing/rebateCreateApply/',
  '/account/subaccount/',
  '/account/log/',
  '/account/security/',
  '/account/profile/',
  '/account/operators/',
  '/account/recommendation/introduction/',
  '/account/recommendation/list/',
  '/account/message/',
];

/** The saved session of this run, shared by the workers (children of one runner; its start time tells runs apart). */
const runner = (() => {
  try {
    return `${process.ppid}-${Math.round(fs.statSync(`/proc/${process.ppid}`).ctimeMs)}`;
  } catch {
    return String(process.ppid);
  }
})();
const SESSION = path.join(process.env.TMPDIR ?? '/tmp', `console-pages-${runner}.json`);

test.describe.configure({ mode: 'parallel' });
test.use({ viewport: { width: 1440, height: 900 }, storageState: SESSION });

test.beforeAll(async ({ browser }) => {
  if (fs.existsSync(SESSION)) return;
  const context = await browser.newContext({ storageState: undefined });
  const page = await context.newPage();
  await signIn(page);
  // written whole, then renamed: the other worker never reads half a file
  await context.storageState({ path: `${SESSION}.${process.pid}` });
  fs.renameSync(`${SESSION}.${process.pid}`, SESSION);
  await context.close();
});

/** What the page shows wrongly: raw service codes in Chinese text, text wider or taller than its box. */
async function problems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    // a code inside a name, a path or quotes (“live” the application's name) is a value, not a service code
    const CODE = /(?<![A-Za-z0-9_./:“"'-])(file|cdn|scdn|live|websocket|overseas|fusion)(?![A-Za-z0-9_./:”"'-])/;
    const CJK = /[\u4e00-\u9fff]/;
    const skip = (el: Element) => Boolean(el.closest('script, style, code, pre, textarea, input, svg, .mono, .monaco-editor, [aria-hidden="true"], .skip-link'));
    const boxOf = (el: Element): HTMLElement | null => {
      let e: Element | null = el;
      while (e && getComputedStyle(e).display.startsWith('inline') && e.parentElement) e = e.parentElement;
      return e as HTMLElement | null;
    };
    const seen = new Set<Element>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent ?? '';
      const el = n.parentElement;
      if (!el || !text.trim() || skip(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      const code = CODE.exec(text);
      if (code && (text.trim() === code[1] || CJK.test(text))) out.push(`service code "${code[1]}" in "${text.trim().slice(0, 60)}"`);
      const box = boxOf(el);
      if (!box || seen.has(box)) continue;
      seen.add(box);
      const s = getComputedStyle(box);
      if (s.textOverflow === 'ellipsis' || ['auto', 'scroll'].includes(s.overflowX)) continue;
      if (box.scrollWidth > box.clientWidth + 2 && box.clientWidth > 0) out.push(`text wider than its box (${box.scrollWidth} > ${box.clientWidth}): <${box.tagName.toLowerCase()} class="${box.className}"> "${(box.textContent ?? '').trim().slice(0, 60)}"`);
      // taller: by more than a glyph's ascent over the line height (CJK glyphs overhang a tight line by a few pixels)
      if (!['auto', 'scroll'].includes(s.overflowY) && box.scrollHeight > box.clientHeight + 8 && box.clientHeight > 0)
        out.push(`text taller than its box (${box.scrollHeight} > ${box.clientHeight}): <${box.tagName.toLowerCase()} class="${box.className}"> "${(box.textContent ?? '').trim().slice(0, 60)}"`);
    }
    return [...new Set(out)];
  });
}

for (const url of PAGES) {
  test(`page ${url}`, async ({ page }, info) => {
    await page.goto(url);
    await expect(page.locator('.shell-page')).toBeVisible();
    // the page has loaded: no spinner or skeleton left, then a moment for the last answers to be drawn
    await expect(page.locator('.shell-page .bp6-spinner, .shell-page .bp6-skeleton')).toHaveCount(0, { timeout: 15_000 });
    await page.waitForTimeout(300);
    await expect(page).not.toHaveURL(/\/login\/$/);
    const file = info.outputPath('page.png');
    await page.screenshot({ path: file, fullPage: true });
    await info.attach(url, { path: file, contentType: 'image/png' });
    // a layout still settling (the edge-rule editor's page measured 10 px short for a moment in about one load
    // of five) is looked at again; a lasting problem still fails after the poll's time
    await expect.poll(() => problems(page), { timeout: 5_000 }).toEqual([]);
  });
}
