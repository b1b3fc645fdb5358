/**
 * The form engine in Chromium (issue 22 item 4), read from the engine's own timings (formTiming in
 * renderers/theme/index.ts, kept only when the page sets window.__formTimings):
 *  - opening every setting dialog of a CDN, a file and a live service: click on 管理 to the first frame
 *    with the form; the slowest five printed;
 *  - typing into the largest everyday forms (the origin dialog, the sub-account dialog): the engine's
 *    validation per keystroke, and keystroke to the next frame;
 *  - the ratio of the engine's validation to a plain compiled ajv validate of the same schema and payload
 *    (node, same V8 family; goal ≤ 3).
 * Prints figures; asserts nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { chromium, type Page } from 'playwright';
import { createAjv } from '../../schemas/vocabulary';

const root = path.resolve(__dirname, '../..');
const PORT = 8197;
const base = `http://127.0.0.1:${PORT}`;

interface Timing {
  kind: string;
  ms: number;
  what: string;
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (n: number) => `${n.toFixed(2)} ms`;

async function waitFor(url: string, ms = 90_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`server did not start: ${url}`);
}

const take = (page: Page) => page.evaluate(() => (window as unknown as { __formTimings: Timing[] }).__formTimings.splice(0));

/** Keystrokes into a field: the time from keydown to the next frame, measured in the page. */
async function typeMeasured(page: Page, selector: string, text: string): Promise<number[]> {
  await page.evaluate(() => {
    const w = window as unknown as { __keyFrames: number[] };
    w.__keyFrames = [];
    document.addEventListener('keydown', () => {
      const t0 = performance.now();
      requestAnimationFrame(() => setTimeout(() => w.__keyFrames.push(performance.now() - t0), 0));
    }, { capture: true });
  });
  await page.locator(selector).click();
  for (const ch of text) await page.keyboard.type(ch, { delay: 30 });
  await page.waitForTimeout(200);
  return page.evaluate(() => (window as unknown as { __keyFrames: number[] }).__keyFrames);
}

export async function formsBench(): Promise<void> {
  const dist = process.env.DIST_DIR ? path.resolve(process.env.DIST_DIR) : path.join(root, 'dist');
  if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error('请先运行 npm run build');
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(PORT), DATA_DIR: 'memory://', LOG_LEVEL: 'warn', SEED_TRAFFIC: '0', EDGE: 'off' },
    stdio: 'ignore',
  });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    await waitFor(`${base}/login/`);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.addInitScript(() => {
      (window as unknown as { __formTimings: unknown[] }).__formTimings = [];
    });
    await page.goto(`${base}/login/`);
    await page.locator('#login-username').fill('demo');
    await page.locator('#login-password').fill('demo123456');
    await page.getByRole('button', { name: '登录' }).click();
    await page.waitForURL(/\/dashboard\/$/);

    // 1. every setting dialog of three services
    const opens: Timing[] = [];
    for (const [service, tabs] of [
      ['demo-www', ['sourceCdn', 'cacheCdn', 'optimizeCdn', 'httpsCdn', 'antileechCdn', 'costControlCdn', 'thumbCdn']],
      ['demo-assets', ['sourceFile', 'cacheFile', 'optimizeFile', 'httpsFile', 'antileechFile']],
      ['demo-live', ['domainLive', 'sourceLive']],
    ] as const) {
      for (const tab of tabs) {
        await page.goto(`${base}/services/${service}/${tab}/`);
        await page.waitForLoadState('networkidle');
        const buttons = page.locator('[data-setting] .setting-manage:not([disabled])');
        const n = await buttons.count();
        for (let i = 0; i < n; i++) {
          await buttons.nth(i).click();
          const dialog = page.getByRole('dialog').last();
          await dialog.waitFor();
          await page.waitForTimeout(150);
          await page.keyboard.press('Escape');
          await dialog.waitFor({ state: 'detached' });
        }
        opens.push(...(await take(page)).filter((t) => t.kind === 'open'));
      }
    }
    const slowest = [...opens].sort((a, b) => b.ms - a.ms).slice(0, 5);
    console.log('\n== 表单引擎：打开设置对话框（点击“管理”到表单的第一帧；目标 ≤ 50 ms）==');
    console.log(`  ${opens.length} 次打开：中位 ${ms(pct(opens.map((t) => t.ms), 50))}，p95 ${ms(pct(opens.map((t) => t.ms), 95))}`);
    for (const t of slowest) console.log(`  最慢：${t.what.padEnd(22)} ${ms(t.ms)}`);

    // 2. keystrokes: the origin dialog's 回源 Host, the sub-account dialog's name
    const results: { form: string; validate: number[]; frames: number[] }[] = [];
    await page.goto(`${base}/services/demo-www/sourceCdn/`);
    await page.locator('[data-setting=origin] .setting-manage').click();
    await page.getByRole('dialog').waitFor();
    await take(page);
    const originFrames = await typeMeasured(page, '#root_host', 'origin-host.bench-example.com');
    results.push({ form: '回源配置（origin）', validate: (await take(page)).filter((t) => t.kind === 'validate').map((t) => t.ms), frames: originFrames });
    await page.keyboard.press('Escape');

    await page.goto(`${base}/account/subaccount/`);
    await page.getByRole('button', { name: '创建子账号' }).first().click();
    await page.getByRole('dialog').waitFor();
    await take(page);
    const field = (await page.locator('[role=dialog] input[type=text]').first().getAttribute('id')) ?? '';
    const subFrames = await typeMeasured(page, `[id="${field}"]`, 'benchsubaccount01');
    results.push({ form: '子账号（subaccount）', validate: (await take(page)).filter((t) => t.kind === 'validate').map((t) => t.ms), frames: subFrames });

    console.log('\n== 表单引擎：每次按键（目标：校验 ≤ 4 ms，按键到下一帧 ≤ 16 ms）==');
    for (const r of results) {
      console.log(`  ${r.form.padEnd(20)} 校验 ${r.validate.length} 次：中位 ${ms(pct(r.validate, 50))}，p95 ${ms(pct(r.validate, 95))}；按键到下一帧：中位 ${ms(pct(r.frames, 50))}，p95 ${ms(pct(r.frames, 95))}`);
    }

    // 3. the same validation with a plain compiled ajv (node), for the ratio
    const schema = JSON.parse(fs.readFileSync(path.join(root, 'schemas/settings/origin/schema.json'), 'utf8'));
    const validate = createAjv().compile(schema);
    const payload = { protocol: 'http', host: 'origin-host.bench-example.com', servers: [{ address: '203.0.113.10', port: 80, weight: 10, backup: false }], failover: { enable: true, timeout: 10, max_fails: 3 } };
    const rounds = 20_000;
    for (let i = 0; i < 1000; i++) validate(payload);
    const t0 = performance.now();
    for (let i = 0; i < rounds; i++) validate(payload);
    const plain = (performance.now() - t0) / rounds;
    const engine = pct(results[0].validate, 50);
    console.log(`  纯 ajv 校验同一模式（node）：${(plain * 1000).toFixed(1)} µs/次；引擎/纯 ajv = ${(engine / plain).toFixed(1)}（目标 ≤ 3；引擎含 RJSF 的错误整理与默认值）`);
  } finally {
    await browser.close();
    server.kill();
  }
}

if (require.main === module) {
  formsBench().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
