/**
 * Blueprint writes a few accessible names in English, with no prop to change them: the close button of
 * every dialog, drawer and toast ("Close"), the steppers of NumericInput ("increment", "decrement"), the
 * spinner ("loading"), a tag's remove button, the collapsed breadcrumbs. A screen reader would announce
 * them in English in a Chinese console (issue 24). This observer renames them as they appear, once for
 * the whole console, and points a NumericInput's steppers at the input they control (Blueprint names its
 * own generated id even when the input carries ours, so `aria-controls` pointed at nothing). An `Alert`
 * has no title, so its alert dialog had no name: it is named by its message (what a screen reader then
 * announces first), unless the page gave it a name of its own.
 */
export const BLUEPRINT_LABELS: Record<string, string> = {
  Close: '关闭',
  increment: '增加',
  decrement: '减少',
  loading: '加载中',
  'Remove tag': '移除',
  'collapsed breadcrumbs': '更多路径',
  Back: '返回',
  steps: '步骤',
};

const SELECTOR = Object.keys(BLUEPRINT_LABELS)
  .map((label) => `[aria-label="${label}"]`)
  .join(', ');

let alertIds = 0;

function fix(root: ParentNode): void {
  root.querySelectorAll<HTMLElement>(SELECTOR).forEach((el) => {
    el.setAttribute('aria-label', BLUEPRINT_LABELS[el.getAttribute('aria-label') ?? ''] ?? el.getAttribute('aria-label')!);
  });
  root.querySelectorAll<HTMLElement>('.bp6-numeric-input [aria-controls]').forEach((button) => {
    if (document.getElementById(button.getAttribute('aria-controls')!)) return;
    const input = button.closest('.bp6-numeric-input')?.querySelector('input');
    if (input?.id) button.setAttribute('aria-controls', input.id);
    else button.removeAttribute('aria-controls');
  });
  root.querySelectorAll<HTMLElement>('[role="alertdialog"]:not([aria-label]):not([aria-labelledby])').forEach((alert) => {
    const message = alert.querySelector<HTMLElement>('.bp6-alert-contents');
    if (!message) return;
    if (!message.id) message.id = `alert-message-${++alertIds}`;
    alert.setAttribute('aria-labelledby', message.id);
  });
}

export function translateBlueprintLabels(): void {
  fix(document);
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes') {
        if (r.target instanceof HTMLElement && r.target.parentElement) fix(r.target.parentElement);
        continue;
      }
      r.addedNodes.forEach((node) => {
        if (node instanceof HTMLElement && node.parentElement) fix(node.parentElement);
      });
    }
  }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label'] });
}
