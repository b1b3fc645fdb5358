/**
 * The service search box of the top bar (main accounts only, spec 000 §2.11): type part of a
 * name, choose a service, land on the domains page its kind calls for.
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { InputGroup, Menu, MenuItem, Popover } from '@blueprintjs/core';
import { api } from '../api/client';
import type { BucketInfo } from '../../shared/buckets';
import { KINDS, SEARCH_DEBOUNCE_MS, SERVICE_LIST_PAGE_SIZE, tabName } from '../../shared/services';

/** live → live domains; websocket, overseas, file, fusion → their domains; cdn and scdn → CDN domains. */
export function searchTarget(b: Pick<BucketInfo, 'bucket_name' | 'kind'>): string {
  return `/services/${b.bucket_name}/${tabName(b.kind, 'domains')}/`;
}

export function ServiceSearch() {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [results, setResults] = useState<BucketInfo[]>([]);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const term = text.trim();
    if (!term) {
      setResults([]);
      return;
    }
    const t = setTimeout(() => {
      api
        .get<{ data: BucketInfo[] }>('/api/buckets/', { bucket_name: term, limit: SERVICE_LIST_PAGE_SIZE, with_domains: true })
        .then((r) => {
          setResults(r.data);
          setOpen(true);
        })
        .catch(() => setResults([]));
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text]);

  return (
    <Popover
      isOpen={open && text.trim() !== ''}
      onInteraction={(next) => setOpen(next)}
      autoFocus={false}
      enforceFocus={false}
      placement="bottom-start"
      minimal
      content={
        <Menu className="service-search-results">
          {results.length === 0 ? (
            <MenuItem disabled text="没有找到匹配的服务" />
          ) : (
            results.map((b) => (
              <MenuItem
                key={b.bucket_id}
                text={b.bucket_name}
                label={KINDS[b.kind].title}
                onClick={() => {
                  setOpen(false);
                  setText('');
                  navigate(searchTarget(b));
                }}
              />
            ))
          )}
        </Menu>
      }
    >
      <InputGroup leftIcon="search" placeholder="搜索服务名称" value={text} onChange={(e) => setText(e.target.value)} className="top-search" aria-label="搜索服务" role="combobox" aria-autocomplete="list" />
    </Popover>
  );
}
