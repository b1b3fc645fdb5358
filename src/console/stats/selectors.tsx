/**
 * The selector widgets of spec 001 §2.4: the multi-selector of services or domains, the single
 * selector (security CDN: a service; mingmou: a domain), the live-statistics search, the level picker
 * and the date range with its limits (§5).
 */
import { useEffect, useState } from 'react';
import { Button, ButtonGroup, Checkbox, HTMLSelect, InputGroup, Popover, Spinner, Tag } from '@blueprintjs/core';
import { Tab, Tabs } from '../common/Tabs';
import { api, failureText } from '../api/client';
import type { CursorPager } from '../../shared/buckets';
import {
  MULTI_SELECT_MAX, NO_MATCH_TEXT, SELECTOR_PAGE_SIZE, STATS_SEARCH_DEBOUNCE_MS, type FlowType,
} from '../../shared/stats/constants';
import { clampRange, earliestDay, spanLimit, today } from '../../shared/stats/params';
import { addDays } from '../../shared/stats/time';

export type SelectionType = 'bucket' | 'domain';
export interface Selection {
  type: SelectionType;
  values: string[];
  /** a storage service (type file, not ucdn) is among the chosen: the flow source is forced to cdn */
  hasFile?: boolean;
}

interface Item {
  name: string;
  sub?: string;
  type?: string;
}

/** One page of services or domains of a flow type, with search and cursors. */
function usePagedList(flowType: FlowType, tab: SelectionType, search: string, cursor: { since?: number; max?: number }, extra?: Record<string, string>) {
  const [state, setState] = useState<{ items: Item[] | null; pager: CursorPager; failure: string | null }>({ items: null, pager: { since: null, max: null }, failure: null });
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, items: null }));
    const url = tab === 'bucket' ? '/api/stats/buckets/' : '/api/domains/buckets';
    api
      .get<{ data: any[]; pager: CursorPager }>(url, { flow_type: flowType, limit: SELECTOR_PAGE_SIZE, ...(search ? { search } : {}), ...cursor, ...(extra ?? {}) })
      .then((r) => {
        if (!live) return;
        const items = r.data.map((x) => (tab === 'bucket' ? { name: x.bucket_name, sub: x.remark ?? undefined, type: x.type } : { name: x.domain, sub: x.bucket_name, type: x.type }));
        setState({ items, pager: r.pager, failure: null });
      })
      .catch((e) => live && setState({ items: [], pager: { since: null, max: null }, failure: failureText(e) }));
    return () => {
      live = false;
    };
  }, [flowType, tab, search, cursor.since, cursor.max, JSON.stringify(extra ?? {})]);
  return state;
}

/** Search text that settles 500 ms after the last keystroke (spec 001 §5). */
export function useDebounced(value: string, ms = STATS_SEARCH_DEBOUNCE_MS): string {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value.trim()), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

function Pager(props: { pager: CursorPager; onCursor: (c: { since?: number; max?: number }) => void; hidden?: boolean }) {
  if (props.hidden) return null;
  return (
    <ButtonGroup className="selector-pager">
      <Button size="small" icon="chevron-left" aria-label="上一页" disabled={props.pager.since === null} onClick={() => props.onCursor({ since: props.pager.since! })} />
      <Button size="small" icon="chevron-right" aria-label="下一页" disabled={props.pager.max === null} onClick={() => props.onCursor({ max: props.pager.max! })} />
    </ButtonGroup>
  );
}

/**
 * Multi-selector: tabs 服务名称 / 加速域名, search, a checkbox list of 10 with previous/next, the
 * selected panel with 清空 and 确定. The button reads 全部 when nothing is chosen, else the count.
 */
export function MultiSelector(props: { flowType: FlowType; value: Selection; onChange: (s: Selection) => void; max?: number; hidePaging?: boolean }) {
  // spec 001 §4: a selector without its inputs fails at once, by name (a page bug, not a customer's)
  if (!props.flowType) throw new Error('type is required');
  if (!props.value) throw new Error('selected is required');
  const max = props.max ?? MULTI_SELECT_MAX;
  const [open, setOpen] = useState(false);
  const [tab, setTab] = useState<SelectionType>(props.value.type);
  const [picked, setPicked] = useState<string[]>(props.value.values);
  const [text, setText] = useState('');
  const search = useDebounced(text);
  const [cursor, setCursor] = useState<{ since?: number; max?: number }>({});
  const list = usePagedList(props.flowType, tab, search, cursor);
  useEffect(() => setCursor({}), [search, tab]);
  useEffect(() => {
    if (open) {
      setTab(props.value.type);
      setPicked(props.value.values);
    }
  }, [open]);
  const switchTab = (t: SelectionType) => {
    // changing the tab clears the search text and the selection (spec 001 §4)
    setTab(t);
    setText('');
    setPicked([]);
  };
  const [files] = useState(() => new Set<string>());
  useEffect(() => list.items?.forEach((it) => it.type === 'file' && files.add(it.name)), [list.items]);
  const toggle = (name: string, on: boolean) => setPicked((p) => (on ? (p.length >= max ? p : [...p, name]) : p.filter((x) => x !== name)));
  const count = props.value.values.length;
  const content = (
    <div className="multi-selector" data-testid="multi-selector">
      <Tabs id="selector-tabs" selectedTabId={tab} onChange={(t) => switchTab(t as SelectionType)}>
        <Tab id="bucket" title="服务名称" />
        <Tab id="domain" title="加速域名" />
      </Tabs>
      <div className="selector-body">
        <div className="selector-list">
          <InputGroup leftIcon="search" placeholder={tab === 'bucket' ? '搜索服务名称' : '搜索加速域名'} value={text} onChange={(e) => setText(e.target.value)} aria-label="搜索" />
          {list.items === null ? (
            <Spinner size={20} className="selector-spinner" />
          ) : list.items.length === 0 ? (
            <div className="selector-empty">{list.failure ?? NO_MATCH_TEXT}</div>
          ) : (
            <ul>
              {list.items.map((it) => (
                <li key={it.name}>
                  <Checkbox checked={picked.includes(it.name)} disabled={!picked.includes(it.name) && picked.length >= max} onChange={(e) => toggle(it.name, e.currentTarget.checked)} labelElement={<span>{it.name} {it.sub && <small className="item-sub">{it.sub}</small>}</span>} />
                </li>
              ))}
            </ul>
          )}
          <Pager pager={list.pager} onCursor={setCursor} hidden={props.hidePaging} />
        </div>
        <div className="selector-picked" data-testid="selector-picked">
          <div className="picked-head">
            已选 {picked.length} 项{picked.length >= max && <span className="picked-max">（最多 {max} 项）</span>}
          </div>
          <div className="picked-tags">
            {picked.map((p) => (
              <Tag key={p} minimal onRemove={() => toggle(p, false)}>
                {p}
              </Tag>
            ))}
          </div>
          <div className="picked-actions">
            <Button text="清空" onClick={() => setPicked([])} />
            <Button
              intent="primary"
              text="确定"
              onClick={() => {
                props.onChange({ type: tab, values: picked, hasFile: picked.some((p) => files.has(p)) });
                setOpen(false);
              }}
            />
          </div>
        </div>
      </div>
    </div>
  );
  return (
    <Popover isOpen={open} onInteraction={(o) => setOpen(o)} content={content} placement="bottom-start">
      <Button endIcon="caret-down" icon="layers" data-testid="multi-selector-button">
        {count === 0 ? '全部' : `已选 ${count} 个${props.value.type === 'bucket' ? '服务' : '域名'}`}
      </Button>
    </Popover>
  );
}

/**
 * Single selector: the security CDN picks a service, mingmou an accelerated domain; the first item is
 * chosen when none is.
 */
export function SingleSelector(props: {
  flowType: FlowType;
  tab: SelectionType;
  value: string;
  onChange: (v: string) => void;
  hidePaging?: boolean;
  /** Tabs 服务名称 / 加速域名 in the list; a pick answers the item and its tab (the live search). */
  switchable?: boolean;
  onPick?: (item: { name: string; sub?: string }, tab: SelectionType) => void;
}) {
  if (!props.flowType) throw new Error('type is required');
  if (!props.tab) throw new Error('active is required');
  const [tab, setTab] = useState<SelectionType>(props.tab);
  const [text, setText] = useState('');
  const search = useDebounced(text);
  const [cursor, setCursor] = useState<{ since?: number; max?: number }>({});
  const list = usePagedList(props.flowType, tab, search, cursor);
  useEffect(() => {
    if (!props.value && tab === props.tab && list.items && list.items.length) props.onChange(list.items[0].name);
  }, [list.items, props.value]);
  const [open, setOpen] = useState(false);
  /** Changing the tab clears the search text and the cursor (spec 001 §4). */
  const changeTab = (t: SelectionType) => {
    setTab(t);
    setText('');
    setCursor({});
  };
  return (
    <Popover
      isOpen={open}
      onInteraction={setOpen}
      placement="bottom-start"
      content={
        <div className="single-selector" data-testid="single-selector">
          {props.switchable && (
            <Tabs id="single-selector-tabs" selectedTabId={tab} onChange={(t) => changeTab(t as SelectionType)}>
              <Tab id="bucket" title="服务名称" />
              <Tab id="domain" title="加速域名" />
            </Tabs>
          )}
          <InputGroup leftIcon="search" aria-label={tab === 'bucket' ? '搜索服务名称' : '搜索加速域名'} placeholder={tab === 'bucket' ? '搜索服务名称' : '搜索加速域名'} value={text} onChange={(e) => setText(e.target.value)} />
          {list.items === null ? (
            <Spinner size={20} />
          ) : list.items.length === 0 ? (
            <div className="selector-empty">{NO_MATCH_TEXT}</div>
          ) : (
            <ul>
              {list.items.map((it) => (
                <li key={it.name}>
                  <Button
                    variant="minimal"
                    fill
                    alignText="start"
                    active={it.name === props.value}
                    text={tab === 'domain' && it.sub ? `${it.name}（${it.sub}）` : it.name}
                    onClick={() => {
                      if (props.onPick) props.onPick(it, tab);
                      else props.onChange(it.name);
                      setOpen(false);
                    }}
                  />
                </li>
              ))}
            </ul>
          )}
          <Pager pager={list.pager} onCursor={setCursor} hidden={props.hidePaging} />
        </div>
      }
    >
      <Button endIcon="caret-down" icon={props.tab === 'bucket' ? 'cube' : 'globe-network'} data-testid="single-selector-button">
        {props.value || (props.tab === 'bucket' ? '选择服务' : '选择域名')}
      </Button>
    </Popover>
  );
}

/**
 * Live statistics (spec 001 §2.4): choose a service or a domain, then one of the service's domains or
 * 全部域名. A domain chosen in the list selects its service and itself.
 */
export function LiveSearch(props: { bucket: string; domain: string; onChange: (bucket: string, domain: string) => void; hidePaging?: boolean }) {
  const [domains, setDomains] = useState<string[]>([]);
  useEffect(() => {
    if (!props.bucket) return setDomains([]);
    let live = true;
    api
      .get<{ data: { domain: string }[] }>('/api/domains/buckets', { flow_type: 'live', bucket_name: props.bucket, limit: 100 })
      .then((r) => live && setDomains(r.data.map((d) => d.domain)))
      .catch(() => live && setDomains([]));
    return () => {
      live = false;
    };
  }, [props.bucket]);
  return (
    <div className="live-search" data-testid="live-search">
      <SingleSelector
        flowType="live"
        tab="bucket"
        switchable
        value={props.bucket}
        onChange={(b) => props.onChange(b, '')}
        onPick={(it, tab) => (tab === 'domain' ? it.sub && props.onChange(it.sub, it.name) : props.onChange(it.name, ''))}
        hidePaging={props.hidePaging}
      />
      <HTMLSelect aria-label="直播域名" value={props.domain} onChange={(e) => props.onChange(props.bucket, e.target.value)} options={[{ label: '全部域名', value: '' }, ...domains.map((d) => ({ label: d, value: d }))]} />
    </div>
  );
}

/** Buttons 1..level; the current one active; all disabled when told. */
export function LevelPicker(props: { level: number; current: number; onChange: (n: number) => void; disabled?: boolean; labels?: string[] }) {
  if (!props.level) throw new Error('level is required');
  if (!props.current) throw new Error('currentLevel is required');
  return (
    <ButtonGroup className="level-picker">
      {Array.from({ length: props.level }, (_, i) => i + 1).map((n) => (
        <Button key={n} size="small" active={n === props.current} disabled={props.disabled} onClick={() => props.onChange(n)} text={props.labels?.[n - 1] ?? String(n)} />
      ))}
    </ButtonGroup>
  );
}

/**
 * The date range: from 182 days back to today; the span is at most 31 days (91 in over-the-limit
 * mode); a wider choice moves the start to 30 (90) days before the end.
 */
export function DateRange(props: { value: { start_day: string; end_day: string }; overLimit: boolean; onChange: (v: { start_day: string; end_day: string }) => void }) {
  const now = Math.floor(Date.now() / 1000);
  const t = today(now);
  const min = earliestDay(now);
  const limit = spanLimit(props.overLimit);
  const set = (v: { start_day: string; end_day: string }) => props.onChange(clampRange(v, now, props.overLimit));
  const quick: [string, number, number][] = [['今天', 0, 0], ['昨天', 1, 1], ['近 7 天', 6, 0], ['近 30 天', 29, 0]];
  return (
    <div className="date-range" data-testid="date-range">
      <ButtonGroup>
        {quick.map(([label, back, endBack]) => {
          const v = { start_day: addDays(t, -back), end_day: addDays(t, -endBack) };
          return <Button key={label} text={label} active={v.start_day === props.value.start_day && v.end_day === props.value.end_day} onClick={() => set(v)} />;
        })}
      </ButtonGroup>
      <InputGroup type="date" aria-label="开始日期" value={props.value.start_day} min={min} max={props.value.end_day} onChange={(e) => e.target.value && set({ ...props.value, start_day: e.target.value })} />
      <span className="range-sep">至</span>
      <InputGroup type="date" aria-label="结束日期" value={props.value.end_day} min={props.value.start_day < min ? min : props.value.start_day} max={t} onChange={(e) => e.target.value && set({ ...props.value, end_day: e.target.value })} />
      <span className="range-hint">最多查询 182 天内、跨度 {limit} 天</span>
    </div>
  );
}
