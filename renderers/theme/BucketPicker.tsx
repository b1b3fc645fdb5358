/**
 * Picks one of the account's services of a kind (ui:options kind, pageSize): a search box, a list
 * of names and previous/next cursor arrows. The data comes from formContext.io.buckets, which the
 * console supplies (the engine itself never talks to the server).
 */

import { Button, InputGroup, Menu, MenuItem, NonIdealState, Spinner } from '@blueprintjs/core';
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

  return (
    <div id={id} className="bucket-picker">
      <div className="bucket-picker-chosen">{value ? `已选择：${value}` : '未选择服务'}</div>
      <InputGroup leftIcon="search" placeholder="请输入服务名称" value={search} onChange={(e) => setSearch(e.target.value)} disabled={disabled || readonly} />
      {page === null ? (
        <Spinner size={20} />
      ) : page.names.length === 0 ? (
        <NonIdealState className="bucket-picker-empty" description="没有找到匹配的服务" />
      ) : (
        <Menu className="bucket-picker-list">
          {page.names.map((n) => (
            <MenuItem key={n} text={n} active={n === value} disabled={disabled || readonly} onClick={() => onChange(n)} roleStructure="listoption" selected={n === value} />
          ))}
        </Menu>
      )}
      <CursorPagerButtons pager={page} onCursor={setCursor} small />
    </div>
  );
}
