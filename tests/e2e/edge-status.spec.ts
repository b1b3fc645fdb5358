/**
 * The edge on a service page (docs/edge.md "The console"). First the shared server of the browser tests,
 * which runs no edge node: the quiet note, no toast, no per-panel states. Then a control plane of this
 * file's own with a real edge node (src/edge/main.ts: the agent and its nginx, on free ports in a temp
 * dir, with the key the server registers at start): the page shows the version the node runs and when, a
 * save is 等待生效 while the node is held (SIGSTOP) and turns 已生效 by itself once it applies, and HTTP/3
 * — which nginx 1.22 cannot do — is 未能生效 with the reason.
 *
 * The node gets a server of its own because the other browser tests count on the shared server having
 * no online node (a purge task there fails with 没有在线的边缘节点, tests/e2e/purge.spec.ts), and a node
 * stays online for two minutes after it was last seen. Works on demo-cdn-10, which no other test uses.
 */
import type { Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test, expect, PASSWORD, signIn } from './helpers';
import { EDGE_TEXTS, type EdgeStatus } from '../../src/shared/edge';
import { LIVE_OUTCOMES, LIVE_TEXTS } from '../../src/shared/edgerules/live';

const ROOT = path.resolve(__dirname, '../..');
/** This file's own control plane (adding-a-setting.spec.ts uses +50). */
const PORT = Number(process.env.E2E_PORT ?? 8181) + 60;
const BASE = `http://127.0.0.1:${PORT}`;
const BUCKET = 'demo-cdn-10';
const HTTPS_TAB = `/services/${BUCKET}/httpsCdn/`;
const panel = (page: Page, id: string) => page.locator(`[data-setting=${id}]`);
const edgeTag = (page: Page, id: string) => panel(page, id).locator('.setting-edge-state');

async function edgeStatus(page: Page, base = ''): Promise<EdgeStatus> {
  const res = await page.request.get(`${base}/api/buckets/edge/?bucket_name=${BUCKET}`);
  expect(res.ok()).toBe(true);
  return (await res.json()).data;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Signs demo in on this file's own control plane (the shared helpers sign in on the shared server). */
async function signInHere(page: Page) {
  await page.goto(`${BASE}/login/`);
  await page.locator('#login-username').fill('demo');
  await page.locator('#login-password').fill(PASSWORD);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/\/dashboard\/$/);
}

test.describe.configure({ mode: 'serial' });

test('without an edge node: a quiet note, no toast, no per-panel states', async ({ page }) => {
  await signIn(page);
  expect((await edgeStatus(page)).enabled).toBe(false);
  await page.goto(HTTPS_TAB);
  await expect(page.locator('.edge-status-off')).toHaveText(EDGE_TEXTS.noEdge);
  await expect(panel(page, 'tls13').locator('.setting-summary')).toBeVisible();
  await expect(page.locator('.setting-edge-state')).toHaveCount(0);
  await expect(page.locator('.bp6-toast')).toHaveCount(0);
  await expect(page.locator('.bp6-callout.bp6-intent-danger')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('no-edge.png') });
  // the rule tester's 发送真实请求 says, in the drawer, that there is no edge to send to
  await page.goto(`/services/${BUCKET}/edgeCalcCdn/`);
  await page.getByRole('button', { name: '规则测试' }).click();
  const tester = page.getByTestId('rule-tester');
  await tester.getByRole('button', { name: LIVE_TEXTS.button }).click();
  await expect(tester).toContainText(LIVE_TEXTS.noEdge);
  await expect(page.getByTestId('live-result')).toHaveCount(0);
});

test.describe('with a real edge node', () => {
  let server: ChildProcess | null = null;
  let agent: ChildProcess | null = null;
  let dir = '';
  let output = '';
  let edgePorts = { http: 0, https: 0 };

  test.beforeAll(async () => {
    // the demo seed takes a while on a loaded machine (the shared server starts too)
    test.setTimeout(420_000);
    const key = randomBytes(18).toString('base64url');
    // the server sends the rule tester's real requests to the node's plain-HTTP port
    edgePorts = { http: await freePort(), https: await freePort() };
    server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(PORT), DATA_DIR: 'memory://', LOG_LEVEL: 'warn', SEED_TRAFFIC_DAYS: '0', LOG_SMS: '0', EDGE_NODE_KEY: key, EDGE_HTTP_PORT: String(edgePorts.http) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let exited: number | null = null;
    server.stderr!.on('data', (d) => (output = (output + String(d)).slice(-4000)));
    server.on('exit', (code) => (exited = code ?? -1));
    let up = false;
    for (let i = 0; i < 720 && exited === null && !up; i++) {
      up = await fetch(`${BASE}/login/`).then((r) => r.ok, () => false);
      if (!up) await new Promise((r) => setTimeout(r, 500));
    }
    if (!up) throw new Error(`server did not start${exited !== null ? ` (exited with ${exited})` : ''}: ${output}`);

    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-edge-'));
    const env = {
      ...process.env,
      EDGE_CONTROL_URL: BASE,
      EDGE_NODE_KEY: key,
      EDGE_NODE_NAME: 'local',
      EDGE_DIR: dir,
      EDGE_HTTP_PORT: String(edgePorts.http),
      EDGE_HTTPS_PORT: String(edgePorts.https),
    };
    agent = spawn(process.execPath, ['--import', 'tsx', 'src/edge/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    agent.stdout!.on('data', (d) => (output = (output + String(d)).slice(-4000)));
    agent.stderr!.on('data', (d) => (output = (output + String(d)).slice(-4000)));
  });

  test.afterAll(async () => {
    if (agent && agent.exitCode === null) {
      const exited = new Promise((r) => agent!.once('exit', r));
      agent.kill('SIGCONT');
      agent.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    }
    if (server && server.exitCode === null) server.kill();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the rule tester sends a real request through the node: what the edge did, beside the prediction', async ({ page }) => {
    test.setTimeout(120_000);
    await signInHere(page);
    const rule = async (describe: string, priority: number, text: string) => {
      const res = await page.request.put(`${BASE}/api/buckets/rewrite/`, { data: { bucket_name: BUCKET, type: 'custom', break: false, status: 'ON', describe, priority, pattern: '', rule: text } });
      expect(res.ok(), await res.text()).toBe(true);
    };
    await rule('m3u8 防盗链', 1, "$WHEN($MATCH($_URI, '\\.m3u8$'), $NOT($_GET_sign))$EXIT(403)");
    await rule('旧路径跳转', 2, "$WHEN($MATCH($_URI, '^/old/'))$REDIRECT(https://new.example.com/moved, 301)");
    // the node applies the rules (its first apply of everything included)
    await expect
      .poll(async () => (await edgeStatus(page, BASE)).state, { timeout: 60_000, message: `边缘节点未报告：${output}` })
      .toBe('applied');

    await page.goto(`${BASE}/services/${BUCKET}/edgeCalcCdn/`);
    await page.getByRole('button', { name: '规则测试' }).click();
    const tester = page.getByTestId('rule-tester');
    await tester.getByRole('combobox', { name: '请求协议' }).selectOption('http');
    await tester.locator('#tester-uri').fill('/live/a.m3u8');
    await tester.getByRole('button', { name: LIVE_TEXTS.button }).click();
    const live = page.getByTestId('live-result');
    await expect(live).toContainText(LIVE_TEXTS.agree);
    const rows = live.locator('.edge-result-table tbody tr');
    await expect(rows.filter({ hasText: '状态码' })).toContainText('403');
    await expect(live).toContainText(LIVE_TEXTS.from.replace('{ip}', '127.0.0.1'));
    await expect(rows.filter({ hasText: 'm3u8 防盗链' })).toContainText(LIVE_OUTCOMES.exit);

    // by keyboard: a redirect, the Location the edge sent
    await tester.locator('#tester-uri').fill('/old/a.html');
    await tester.getByRole('button', { name: LIVE_TEXTS.button }).focus();
    await page.keyboard.press('Enter');
    await expect(rows.filter({ hasText: 'Location' })).toContainText('https://new.example.com/moved');
    await expect(rows.filter({ hasText: '状态码' })).toContainText('301');
    await expect(live).toContainText(LIVE_TEXTS.agree);
    await expect(live.getByText('不一致')).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('rule-tester-live.png') });
  });

  test('the page shows what the edge runs; a save waits, then is live by itself; HTTP/3 cannot be', async ({ page }) => {
    test.setTimeout(120_000);
    await signInHere(page);
    // the node's first apply of everything
    await expect
      .poll(async () => (await edgeStatus(page, BASE)).state, { timeout: 60_000, message: `边缘节点未报告：${output}` })
      .toBe('applied');

    await page.goto(`${BASE}${HTTPS_TAB}`);
    const bar = page.locator('section.edge-status');
    await expect(bar).toBeVisible();
    await expect(page.locator('.edge-status-off')).toHaveCount(0);
    const first = await edgeStatus(page, BASE);
    await expect(bar.locator('.edge-status-state')).toHaveText(EDGE_TEXTS.settingState.applied);
    await expect(bar).toContainText(`${EDGE_TEXTS.runs}：${first.applied_version}`);
    await expect(bar).toContainText(`${EDGE_TEXTS.serviceVersion}：${first.version}`);
    await expect(bar.locator('.edge-status-time')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    // hold the node: the saved value waits (and keeps waiting while the node is held)
    agent!.kill('SIGSTOP');
    try {
      const tls13 = panel(page, 'tls13');
      await tls13.locator('.setting-switch').click();
      await page.getByRole('alertdialog').getByRole('button', { name: '确定' }).click();
      await expect(tls13.locator('.setting-summary')).toHaveText('已开启');
      await expect(edgeTag(page, 'tls13')).toHaveText(EDGE_TEXTS.settingState.pending);
      await expect(bar.locator('.edge-status-state')).toHaveText(EDGE_TEXTS.settingState.pending);
      await page.waitForTimeout(1500);
      await expect(edgeTag(page, 'tls13')).toHaveText(EDGE_TEXTS.settingState.pending);
      expect((await edgeStatus(page, BASE)).settings.tls13?.state).toBe('pending');
    } finally {
      agent!.kill('SIGCONT');
    }
    const released = Date.now();
    // the node goes on, applies and reports; the page asks again by itself (no reload)
    await expect(edgeTag(page, 'tls13')).toHaveText(EDGE_TEXTS.settingState.applied, { timeout: 30_000 });
    // a figure, printed (never asserted): from letting the node go to 已生效 on the page
    console.log(`[edge-status] 放行节点到页面显示已生效：${Date.now() - released} ms`);
    await expect(bar.locator('.edge-status-state')).toHaveText(EDGE_TEXTS.settingState.applied);
    const after = await edgeStatus(page, BASE);
    expect(after.applied_version).toBeGreaterThan(first.applied_version!);
    await expect(bar).toContainText(`${EDGE_TEXTS.runs}：${after.applied_version}`);

    // HTTP/3 is saved, but nginx 1.22 has no QUIC: 未能生效 with the reason, on the panel and in the bar
    const http3 = panel(page, 'http3');
    await http3.locator('.setting-switch').click();
    await page.getByRole('alertdialog').getByRole('button', { name: '确定' }).click();
    const savedAt = Date.now();
    await expect(http3.locator('.setting-summary')).toHaveText('已开启');
    await expect(edgeTag(page, 'http3')).toHaveText(EDGE_TEXTS.settingState.failed, { timeout: 30_000 });
    console.log(`[edge-status] 保存 HTTP/3 到页面显示未能生效：${Date.now() - savedAt} ms`);
    await expect(http3.locator('.setting-edge-reason')).toHaveText(`${EDGE_TEXTS.reason}${EDGE_TEXTS.http3Unsupported}`);
    await expect(bar.locator('.edge-status-notes')).toContainText(EDGE_TEXTS.http3Unsupported);
    await expect(edgeTag(page, 'tls13')).toHaveText(EDGE_TEXTS.settingState.applied);
    await expect(page.locator('.bp6-toast.bp6-intent-danger')).toHaveCount(0);

    // keyboard: the bar's refresh button is reachable and asks again
    await bar.getByRole('button', { name: EDGE_TEXTS.refresh }).focus();
    await page.keyboard.press('Enter');
    await expect(bar.locator('.edge-status-state')).toHaveText(EDGE_TEXTS.settingState.applied);
    await page.screenshot({ path: test.info().outputPath('edge-status.png') });
    await http3.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('edge-http3.png') });
  });
});
