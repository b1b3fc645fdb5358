import { OverlayToaster, Position, type Toaster, type Intent } from '@blueprintjs/core';
import { SUCCESS_NOTICE_MS } from '../../shared/services';

let toaster: Promise<Toaster> | null = null;

function get(): Promise<Toaster> {
  toaster ??= OverlayToaster.create({ position: Position.TOP, maxToasts: 3 });
  return toaster;
}

/** A short notice at the top of the page (success notices clear after 2 s, spec 000 §9). */
export function notify(message: string, intent: Intent = 'success'): void {
  void get().then((t) => t.show({ message, intent, timeout: intent === 'success' ? SUCCESS_NOTICE_MS : 4000 }));
}
