/**
 * The statistics events (src/shared/events.ts): sent in the background, never in the user's way —
 * a failure to count is not the user's problem and shows nothing.
 */
import { api } from './client';
import { useEffect } from 'react';
import { eventNumber, USAGE_OF_SECTION, type EventFamily } from '../../shared/events';

const ROUTES: Record<EventFamily, [string, 'type' | 'event']> = {
  verify: ['/accounts/verify/statistics', 'type'],
  usage: ['/accounts/usage/statistics', 'type'],
  buried: ['/api/buried', 'event'],
};

export function recordEvent(family: EventFamily, name: string): void {
  const [url, field] = ROUTES[family];
  void api.post(url, { [field]: eventNumber(family, name) }).catch(() => undefined);
}

/** The usage event of a product section (USAGE_OF_SECTION), once each time the section's page is entered. */
export function recordUsage(section: string): void {
  const name = USAGE_OF_SECTION[section];
  if (name) recordEvent('usage', name);
}

/** Sends an event when the component mounts (a page opened), once per mount. */
export function useEventOnOpen(family: EventFamily, name: string | null | undefined): void {
  useEffect(() => {
    if (!name) return;
    if (family === 'usage') recordUsage(name);
    else recordEvent(family, name);
  }, [family, name]);
}

/** The same as a component: sends the event when it is drawn (an empty state shown, an intro seen). */
export function EventOnOpen({ family, name }: { family: EventFamily; name: string }): null {
  useEventOnOpen(family, name);
  return null;
}
