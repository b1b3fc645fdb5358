/** Table pagination with 5 page links (spec 001 §9 "Table pagination 5 links"). */
import { Button, ButtonGroup } from '@blueprintjs/core';
import { REBATE_PAGE_LINKS } from '../../../shared/billing-money';

export function PageLinks({ page, total, size, onPage }: { page: number; total: number; size: number; onPage(p: number): void }) {
  const pages = Math.max(1, Math.ceil(total / size));
  if (pages <= 1) return null;
  const first = Math.max(1, Math.min(page - Math.floor(REBATE_PAGE_LINKS / 2), pages - REBATE_PAGE_LINKS + 1));
  const links = Array.from({ length: Math.min(REBATE_PAGE_LINKS, pages) }, (_, i) => first + i);
  return (
    <ButtonGroup className="page-links" aria-label="分页">
      <Button icon="chevron-left" aria-label="上一页" disabled={page <= 1} onClick={() => onPage(page - 1)} />
      {links.map((p) => (
        <Button key={p} active={p === page} onClick={() => onPage(p)}>
          {p}
        </Button>
      ))}
      <Button icon="chevron-right" aria-label="下一页" disabled={page >= pages} onClick={() => onPage(page + 1)} />
    </ButtonGroup>
  );
}

