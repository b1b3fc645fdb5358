import { Button, ButtonGroup } from '@blueprintjs/core';
import type { CursorPager } from '../src/shared/buckets';

/**
 * Previous / next by cursor (spec 001 §4): previous sends `since` and clears `max`, next the other
 * way round; an arrow is disabled when its cursor is absent, and a list of a single page (neither
 * cursor) shows no arrows at all.
 */
export function CursorPagerButtons({ pager, onCursor, small }: { pager: CursorPager | null; onCursor(c: { since?: number; max?: number }): void; small?: boolean }) {
  if (pager && pager.since === null && pager.max === null) return null;
  return (
    <ButtonGroup className="pager">
      <Button icon="chevron-left" size={small ? 'small' : undefined} aria-label="上一页" disabled={!pager || pager.since === null} onClick={() => onCursor({ since: pager!.since! })} />
      <Button icon="chevron-right" size={small ? 'small' : undefined} aria-label="下一页" disabled={!pager || pager.max === null} onClick={() => onCursor({ max: pager!.max! })} />
    </ButtonGroup>
  );
}
