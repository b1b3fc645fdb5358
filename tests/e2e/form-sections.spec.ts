/**
 * A large declaration of sections is rendered one engine form per section (renderers/SectionedForm.tsx):
 * a keystroke derives the state of its own section only. The page must be the one a single form renders.
 * The bench's declaration of 200 fields (ten sections, each with an if/then, a rule across two fields,
 * lists edited as lines) is rendered both ways, one after the other, and the same steps are taken in
 * each: the markup, the value reported and `validateForm()` must be the same at every step.
 */
import type { Page } from '@playwright/test';
import { test, expect, signIn } from './helpers';
import { syntheticDeclaration } from '../bench/forms';

/** '' when the two are the same, else both around the first place they differ. */
function difference(a: string, b: string): string {
  if (a === b) return '';
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i}:\n  one form: ${a.slice(Math.max(0, i - 150), i + 150)}\n  sections: ${b.slice(Math.max(0, i - 150), i + 150)}`;
}

interface Step {
  html: string;
  value: unknown;
}

/** Mounts the declaration (one form, or sectioned), takes the steps, and returns what was seen after each. */
async function walk(page: Page, sections: boolean, opts: { errorsAfterTouch?: boolean } = {}): Promise<{ steps: Step[]; valid: boolean; focused: string }> {
  const decl = syntheticDeclaration();
  await page.evaluate(
    ({ schema, ui, formData, sections, errorsAfterTouch }) => {
      const w = window as any;
      const el = document.createElement('div');
      el.id = 'sections-host';
      el.style.cssText = 'position:fixed;inset:0;overflow:auto;background:#fff;z-index:100;padding:16px';
      document.body.appendChild(el);
      w.__sectionsValue = formData;
      w.__sectionsRef = { current: null };
      const rules = (d: Record<string, any>) => {
        const out: { path: string; message: string }[] = [];
        for (const [k, s] of Object.entries(d ?? {})) {
          if (s?.limits && typeof s.limits.min === 'number' && typeof s.limits.max === 'number' && s.limits.min > s.limits.max) out.push({ path: `/${k}/limits/max`, message: '最大值不能小于最小值' });
        }
        return out;
      };
      w.__sectionsUnmount = w.__formEngine.mount(el, {
        schema,
        ui,
        formData,
        rules,
        sections,
        errorsAfterTouch,
        idPrefix: 'bench',
        formRef: w.__sectionsRef,
        // a server's refusal of one field and of the whole value, shown from the start
        errors: [
          { path: '/s06/header', message: '服务端：请求头不可用' },
          { path: '', message: '服务端：配置未保存' },
        ],
        onChange: (v: unknown) => (w.__sectionsValue = v),
      });
    },
    { ...decl, sections, errorsAfterTouch: opts.errorsAfterTouch },
  );
  const host = page.locator('#sections-host');
  await expect(host.locator('#bench_s10_limits_max')).toBeVisible();
  const steps: Step[] = [];
  const take = async () => steps.push(await page.evaluate(() => ({ html: document.getElementById('sections-host')!.innerHTML, value: (window as any).__sectionsValue })));
  await take();
  // a number above its maximum
  await host.locator('#bench_s02_port').fill('70000');
  await take();
  // a field the section's if/then requires, emptied, then typed key by key (focus stays in the field)
  await host.locator('#bench_s03_host').fill('');
  await take();
  await host.locator('#bench_s03_host').pressSequentially('a.example.com');
  await take();
  // a rule across two fields of one section
  await host.locator('#bench_s04_limits_min').fill('900');
  await take();
  // the switch that takes the if/then's requirement away (by keyboard), and a field of the last section left by Tab
  await host.locator('#bench_s01_enable').focus();
  await page.keyboard.press('Space');
  await host.locator('#bench_s10_label').fill('');
  await page.keyboard.press('Tab');
  await take();
  const focused = await page.evaluate(() => document.activeElement?.id ?? '');
  const valid = await page.evaluate(() => (window as any).__sectionsRef.current.validateForm() as boolean);
  await take();
  await page.evaluate(() => (window as any).__sectionsUnmount());
  await page.evaluate(() => document.getElementById('sections-host')!.remove());
  return { steps, valid, focused };
}

test.beforeEach(async ({ page }) => {
  // the engine's test entry (window.__formEngine) is installed when the page asks for the engine's timings
  await page.addInitScript(() => ((window as any).__formTimings = []));
  await signIn(page);
  // a setting dialog loads the engine's code
  await page.goto('/services/demo-www/sourceCdn/');
  await page.locator('[data-setting=origin] .setting-manage').click();
  await page.getByRole('dialog').waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await page.waitForFunction(() => Boolean((window as any).__formEngine));
});

test('a declaration rendered one form per section shows and reports what one form does, step by step', async ({ page }) => {
  const one = await walk(page, false);
  const parts = await walk(page, true);
  expect(one.steps.length).toBe(7);
  // the steps did something: errors appeared, values changed
  expect(one.steps[0].html).not.toContain('bench_s02_port__error');
  expect(one.steps[1].html).toContain('bench_s02_port__error');
  expect(one.steps[2].html).toContain('请填写回源 Host');
  expect(one.steps[4].html).toContain('最大值不能小于最小值');
  expect(one.steps[0].html).toContain('服务端：请求头不可用');
  expect(one.steps[0].html).toContain('服务端：配置未保存');
  expect((one.steps[3].value as any).s03.host).toBe('a.example.com');
  for (let i = 0; i < one.steps.length; i++) {
    expect.soft(difference(one.steps[i].html, parts.steps[i].html), `markup after step ${i}`).toBe('');
    expect.soft(parts.steps[i].value, `value after step ${i}`).toEqual(one.steps[i].value);
  }
  expect(parts.valid).toBe(false);
  expect(parts.valid).toBe(one.valid);
  expect(parts.focused).toBe(one.focused);
});

test('with errors shown only after a field was touched, the two show the same', async ({ page }) => {
  const one = await walk(page, false, { errorsAfterTouch: true });
  const parts = await walk(page, true, { errorsAfterTouch: true });
  // the server's error of a field no one touched shows only after validateForm(); a touched field's at once
  expect(one.steps[1].html).toContain('bench_s02_port__error');
  expect(one.steps[5].html).not.toContain('服务端：请求头不可用');
  expect(one.steps[6].html).toContain('服务端：请求头不可用');
  for (let i = 0; i < one.steps.length; i++) expect.soft(difference(one.steps[i].html, parts.steps[i].html), `markup after step ${i}`).toBe('');
  expect(parts.valid).toBe(one.valid);
});
