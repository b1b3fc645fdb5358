/**
 * Picks several of the account's services of one kind (ui:options kind, pageSize): the chosen ones
 * as tags that can be removed, and a "选择服务" popover with a search box, a ticked list and
 * previous/next cursor arrows. The schema's maxItems caps the choice (the sub-account form: 100).
 * The data comes from formContext.io.buckets, which the console supplies, as for the bucket picker.
 */
import { useState } from 'react';
import { Button, ButtonGroup, Checkbox, InputGroup, NonIdealState, Popover, Spinner, Tag } from '@blueprintjs/core';
import type { WidgetProps } from '@rjsf/utils';
import type { SettingIO } from '../SettingPanel';
import { useBucketPage } from './useBucketPage';

type Source = Pick<SettingIO, 'buckets'>;

export function BucketListWidget(props: WidgetProps) {
  const { id, value, onChange, options, disabled, readonly, registry, schema, label } = props;
  const io = (registry.formContext as { io?: Source } | undefined)?.io;
  const kind = (options.kind as string) ?? 'cdn';
  const pageSize = (options.pageSize as number) ?? 8;
  const max = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity;
  const chosen: string[] = Array.isArray(value) ? value : [];
  const locked = Boolean(disabled || readonly);
  const [open, setOpen] = useState(false);
  const { search, setSearch, page, setCursor } = useBucketPage(io, kind, pageSize, open);

  const toggle = (name: string, on: boolean) => onChange(on ? [...chosen, name] : chosen.filter((n) => n !== name));

  const panel = (
    <div className="bucket-list-panel" data-kind={kind}>
      <InputGroup leftIcon="search" placeholder="请输入服务名称" value={search} onChange={(e) => setSearch(e.target.value)} autoFocus aria-label={`搜索${label ?? ''}服务`} />
      {page === null ? (
        <Spinner size={20} className="bucket-list-spinner" />
      ) : page.names.length === 0 ? (
        <NonIdealState className="bucket-list-empty" description="没有找到匹配的服务" />
      ) : (
        <div className="bucket-list-options" role="group" aria-label={`${label ?? ''}服务`}>
          {page.names.map((n) => {
            const on = chosen.includes(n);
            return <Checkbox key={n} label={n} checked={on} disabled={!on && chosen.length >= max} onChange={(e) => toggle(n, (e.target as HTMLInputElement).checked)} />;
          })}
        </div>
      )}
      <div className="bucket-list-panel-foot">
        <ButtonGroup>
          <Button icon="chevron-left" size="small" aria-label="上一页" disabled={!page || page.since === null} onClick={() => setCursor({ since: page!.since! })} />
          <Button icon="chevron-right" size="small" aria-label="下一页" disabled={!page || page.max === null} onClick={() => setCursor({ max: page!.max! })} />
        </ButtonGroup>
        <Button size="small" intent="primary" onClick={() => setOpen(false)}>
          完成
        </Button>
      </div>
    </div>
  );

  return (
    <div id={id} className="bucket-list" data-kind={kind}>
      <div className="bucket-list-head">
        <Popover content={panel} isOpen={open && !locked} onInteraction={(next) => setOpen(next)} placement="bottom-start" disabled={locked}>
          <Button icon="add" size="small" variant="outlined" disabled={locked} className="bucket-list-open">
            选择服务
          </Button>
        </Popover>
        <span className="bucket-list-count">
          已选 {chosen.length}
          {Number.isFinite(max) ? ` / ${max}` : ''}
        </span>
      </div>
      <div className="bucket-list-tags">
        {chosen.length === 0 ? (
          <span className="bucket-list-none">未选择服务</span>
        ) : (
          chosen.map((n) => (
            <Tag key={n} minimal round onRemove={locked ? undefined : () => toggle(n, false)} className="bucket-list-tag">
              {n}
            </Tag>
          ))
        )}
      </div>
    </div>
  );
}
