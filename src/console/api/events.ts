/**
 * The statistics events (src/shared/events.ts): sent in the background, never in the user's way —
 * a failure to count is not the user's problem and shows nothing.
 */
import { api } from './client';
import { eventNumber, type EventFamily } from '../../shared/events';

const ROUTES: Record<EventFamily, [string, 'type' | 'event']> = {
  verify: ['/accounts/verify/statistics', 'type'],
  usage: ['/accounts/usage/statistics', 'type'],
  buried: ['/api/buried', 'event'],
};

export function recordEvent(family: EventFamily, name: string): void {
  const [url, field] = ROUTES[family];
  void api.post(url, { [field]: eventNumber(family, name) }).catch(() => undefined);
}
