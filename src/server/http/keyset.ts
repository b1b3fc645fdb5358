/**
 * Keyset paging over ids with since/max cursors (spec 000 §3 "Pager"), written once for every list.
 * `order` is how a page is listed: 'asc' (oldest first, the next page holds higher ids) or 'desc'
 * (newest first). A cursor is given only when there really is something that way; an empty page
 * reached backwards still offers the way forward again.
 */
import type { SelectQueryBuilder } from 'kysely';
import type { CursorPager } from '../../shared/buckets';

export type KeysetWhere = { op: '<' | '>'; id: number } | null;
/** Fetches rows of the list, optionally beyond an id, in an order, at most `limit`. */
export type KeysetFetch<T> = (where: KeysetWhere, order: 'asc' | 'desc', limit: number) => Promise<T[]>;

export async function keysetPage<T extends { id: number }>(
  fetch: KeysetFetch<T>,
  opts: { limit: number; since?: number; max?: number; order?: 'asc' | 'desc' },
): Promise<{ items: T[]; pager: CursorPager }> {
  const { limit, since, max, order = 'asc' } = opts;
  const forward = order === 'asc' ? '>' : '<';
  const backward = order === 'asc' ? '<' : '>';
  const reverse = order === 'asc' ? 'desc' : 'asc';
  const backwards = since !== undefined && max === undefined;
  const rows = await fetch(max !== undefined ? { op: forward, id: max } : backwards ? { op: backward, id: since! } : null, backwards ? reverse : order, limit + 1);
  const more = rows.length > limit;
  const items = rows.slice(0, limit);
  if (backwards) items.reverse();
  const exists = async (op: '<' | '>', id: number) => (await fetch({ op, id }, op === forward ? order : reverse, 1)).length > 0;
  const pager: CursorPager = { since: null, max: null };
  if (items.length) {
    const first = items[0].id;
    const last = items[items.length - 1].id;
    // the first page (no cursor) starts at the list's end: nothing lies before it, no need to ask
    const fromStart = since === undefined && max === undefined;
    if (backwards ? more : !fromStart && (await exists(backward, first))) pager.since = first;
    if (backwards ? await exists(forward, last) : more) pager.max = last;
  } else if (backwards) {
    const resume = order === 'asc' ? since! - 1 : since! + 1;
    if (await exists(forward, resume)) pager.max = resume;
  }
  return { items, pager };
}

/**
 * keysetPage over a kysely query: `base` holds the list's filters and columns, `id` names its id
 * column as the query sees it ('id', or 'a.id' with an alias). Builders are immutable, so `base` is
 * reused for every fetch.
 */
export function keysetQuery<O extends { id: number }>(
  base: SelectQueryBuilder<any, any, O>,
  id: string,
  opts: { limit: number; since?: number; max?: number; order?: 'asc' | 'desc' },
): Promise<{ items: O[]; pager: CursorPager }> {
  return keysetPage<O>((where, order, n) => (where ? base.where(id, where.op, where.id) : base).orderBy(id, order).limit(n).execute(), opts);
}

/** The query-string properties of a paged list, one definition with its messages for every route. */
export const limitProp = (defaultLimit: number) => ({
  type: 'integer',
  minimum: 1,
  maximum: 100,
  default: defaultLimit,
  errorMessage: { type: '每页数量须为整数', minimum: '每页数量为 1 - 100', maximum: '每页数量为 1 - 100' },
});
/** A cursor (since / max) of the keyset pager. */
export const cursorProp = { type: 'integer', minimum: 0, errorMessage: { type: '分页参数不正确', minimum: '分页参数不正确' } };
/** limit, since and max of a paged list's query string. */
export const pagingProps = (defaultLimit: number) => ({ limit: limitProp(defaultLimit), since: cursorProp, max: cursorProp });
