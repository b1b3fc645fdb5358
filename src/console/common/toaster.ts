/**
 * The one alert service (spec 000 §3 "Alert message": title, text, list, severity, ttl). Every notice
 * of the console goes through it: an alert lives ALERT_TTL_MS (2000 ms) unless it says otherwise, so a
 * success notice is cleared after 2 s (spec 000 §9).
 */
import { createElement } from 'react';
import { OverlayToaster, Position, type Toaster, type Intent } from '@blueprintjs/core';
import { ALERT_TTL_MS } from '../../shared/services';

export type Severity = 'success' | 'error' | 'info' | 'warn';

export interface AlertMessage {
  title?: string;
  text: string;
  /** items under the text (e.g. the lines a purge refused) */
  list?: string[];
  severity: Severity;
  /** milliseconds; default ALERT_TTL_MS */
  ttl?: number;
}

const INTENT: Record<Severity, Intent> = { success: 'success', error: 'danger', info: 'primary', warn: 'warning' };
const SEVERITY: Partial<Record<Intent, Severity>> = { success: 'success', danger: 'error', primary: 'info', warning: 'warn', none: 'info' };

let toaster: Promise<Toaster> | null = null;

function get(): Promise<Toaster> {
  toaster ??= OverlayToaster.create({ position: Position.TOP, maxToasts: 3 });
  return toaster;
}

export function alert(a: AlertMessage): void {
  const message =
    a.title || a.list?.length
      ? createElement(
          'div',
          { className: 'alert-message', 'data-severity': a.severity },
          a.title ? createElement('strong', { className: 'alert-title' }, a.title) : null,
          createElement('div', null, a.text),
          a.list?.length ? createElement('ul', { className: 'alert-list' }, ...a.list.map((item, i) => createElement('li', { key: i }, item))) : null,
        )
      : a.text;
  void get().then((t) => t.show({ message, intent: INTENT[a.severity], timeout: a.ttl ?? ALERT_TTL_MS }));
}

/** A one-line notice: `notify('保存成功')`, `notify(failureText(e), 'danger')`. */
export function notify(message: string, intent: Intent = 'success'): void {
  alert({ text: message, severity: SEVERITY[intent] ?? 'info' });
}
