/**
 * Picks one of the account's services of a kind (ui:options kind, pageSize): a search box, a list
 * of names and previous/next cursor arrows. The data comes from formContext.io.buckets, which the
 * console supplies (the engine itself never talks to the server).
 *
 * The names are a listbox (issue 24): one stop in the tab order, the arrow keys (and Home, End) choose
 * the previous or next name as a select does, a click chooses one. Blueprint's Menu drew options inside
 * a `menu`, each holding a focusable link, which a screen reader cannot make sense of.
 */

import type { KeyboardEvent } from 'react';
import { InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import type { WidgetProps } from '@rjsf/utils';
import type { SettingIO } from '../SettingPanel';
import { CursorPagerButtons } from '../CursorPager';
import { useBucketPage } from './useBucketPage';

export function BucketPickerWidget(props: WidgetProps) {
  const { id, value, onChange, options, disabled, readonly, registry } = props;
  const io = (registry.formContext as { io?: SettingIO } | undefined)?.io;
  const kind = (options.kind as string) ?? 'file';
  const limit = (options.pageSize as number) ?? 5;
  const { search, setSearch, page, setCursor } = useBucketPage(io, kind, limit);
  const locked = Boolean(disabled || readonly);
  const optionId = (name: string) => `${id}__option_${name}`;
  const names = page?.names ?? [];
  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    if (locked || !names.length) return;
    const at = value ? names.indexOf(value) : -1;
    const next = { ArrowDown: Math.min(at + 1, names.length - 1), ArrowUp: Math.max(at - 1, 0), Home: 0, End: names.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    if (names[next] !== value) onChange(names[next]);
  };

  return (
    <div id={id} className="bucket-picker">
      <div className="bucket-picker-chosen">{value ? `已选择：${value}` : '未选择服务'}</div>
      <InputGroup leftIcon="search" placeholder="请输入服务名称" aria-label="搜索服务" value={search} onChange={(e) => setSearch(e.target.value)} disabled={locked} />
      {page === null ? (
        <Spinner size={20} />
      ) : page.names.length === 0 ? (
        <NonIdealState className="bucket-picker-empty" description="没有找到匹配的服务" />
      ) : (
        <ul
          className="bucket-picker-list"
          role="listbox"
          aria-label="服务"
          aria-disabled={locked || undefined}
          tabIndex={locked ? -1 : 0}
          aria-activedescendant={value && names.includes(value) ? optionId(value) : undefined}
          onKeyDown={onKeyDown}
        >
          {names.map((n) => (
            <li
              key={n}
              id={optionId(n)}
              role="option"
              aria-selected={n === value}
              className={`bucket-picker-option${n === value ? ' is-selected' : ''}`}
              onClick={() => !locked && onChange(n)}
            >
              {n}
            </li>
          ))}
        </ul>
      )}
      <CursorPagerButtons pager={page} onCursor={setCursor} small />
    </div>
  );
}
