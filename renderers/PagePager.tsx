/**
 * A list paged by number (工单, 刷新记录): 第 n / m 页，共 t 条 between two arrows. A list of one page shows
 * only how many it holds and no arrows, an empty list nothing (its empty state says so) — as the lists with
 * a cursor pager do (CursorPager.tsx).
 */
import { Button } from '@blueprintjs/core';

export interface PageNumbers {
  page: number;
  pages: number;
  total: number;
}

export function PagePager({ pager, page, onPage }: { pager: PageNumbers; page: number; onPage(page: number): void }) {
  if (pager.total === 0 && page <= 1) return null;
  if (pager.pages <= 1 && page <= 1)
    return (
      <div className="pager">
        <span className="pager-text">共 {pager.total} 条</span>
      </div>
    );
  return (
    <div className="pager">
      <Button icon="chevron-left" aria-label="上一页" disabled={page <= 1} onClick={() => onPage(page - 1)} />
      <span className="pager-text">
        第 {pager.page} / {pager.pages} 页，共 {pager.total} 条
      </span>
      <Button icon="chevron-right" aria-label="下一页" disabled={page >= pager.pages} onClick={() => onPage(page + 1)} />
    </div>
  );
}
