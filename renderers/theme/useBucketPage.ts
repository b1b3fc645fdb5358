/**
 * The account's services of a kind, one page at a time, searched by name with the 500 ms debounce
 * (spec 000 §9): the state both service pickers of the engine share.
 */
import { useEffect, useState } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../../src/shared/services';
import type { BucketPage, SettingIO } from '../SettingPanel';

export function useBucketPage(io: Pick<SettingIO, 'buckets'> | undefined, kind: string, limit: number, enabled = true) {
  const [search, setSearch] = useState('');
  const [term, setTerm] = useState('');
  const [cursor, setCursor] = useState<{ since?: number; max?: number }>({});
  const [page, setPage] = useState<BucketPage | null>(null);

  useEffect(() => {
    const t = setTimeout(() => {
      setTerm(search.trim());
      setCursor({});
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [search]);

  useEffect(() => {
    if (!io || !enabled) return;
    let live = true;
    setPage(null);
    io.buckets(kind, term, cursor, limit).then(
      (p) => live && setPage(p),
      () => live && setPage({ names: [], since: null, max: null }),
    );
    return () => {
      live = false;
    };
  }, [io, kind, term, cursor, limit, enabled]);

  return { search, setSearch, page, setCursor };
}
