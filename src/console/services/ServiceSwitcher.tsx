/**
 * The head of a service page (spec 002 §2 "Bucket selector dropdown", spec 000 §2.11; docs/service-tabs.md):
 * for main accounts a dropdown with the chosen service's name (or 暂无服务名称), a search box
 * (请输入服务名称, 500 ms debounce), the services of the same kind, 没有找到匹配的服务 and previous/next
 * arrows — hidden for users limited to authorized services; choosing one opens the same tab of that
 * service. Beside it the remark, edited in place (POST /api/buckets/info/).
 */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, EditableText, InputGroup, Menu, MenuItem, NonIdealState, Popover, Spinner } from '@blueprintjs/core';
import { CursorPagerButtons } from '../../../renderers/CursorPager';
import { useBucketPage } from '../../../renderers/theme/useBucketPage';
import { api, failureText } from '../api/client';
import { notify } from '../common/toaster';
import { settingIO } from './settingIO';
import type { BucketInfo } from '../../shared/buckets';
import { tabName, tabsFor, type TabFamily } from '../../shared/services';
import { BUCKET_SELECTOR_PAGE_SIZE, BUCKET_SELECTOR_TEXTS } from '../../shared/domains';

export function ServiceSwitcher({ bucket, family, paging }: { bucket: BucketInfo; family: TabFamily; paging: boolean }) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const { search, setSearch, page, setCursor } = useBucketPage(settingIO, bucket.kind, BUCKET_SELECTOR_PAGE_SIZE, open);
  const name = bucket.bucket_name || BUCKET_SELECTOR_TEXTS.noName;

  function choose(other: string) {
    setOpen(false);
    if (other === bucket.bucket_name) return;
    // the same tab of the other service (its kind is the same, so it has the tab)
    const tabs = tabsFor(bucket.kind, 0);
    navigate(`/services/${other}/${tabName(bucket.kind, tabs.includes(family) ? family : tabs[0])}/`);
  }

  const content = (
    <div className="service-switcher-menu">
      <div className="service-switcher-chosen">{name}</div>
      <InputGroup leftIcon="search" placeholder={BUCKET_SELECTOR_TEXTS.placeholder} value={search} onChange={(e) => setSearch(e.target.value)} autoFocus aria-label={BUCKET_SELECTOR_TEXTS.placeholder} />
      {page === null ? (
        <Spinner size={20} />
      ) : page.names.length === 0 ? (
        <NonIdealState className="service-switcher-empty" description={BUCKET_SELECTOR_TEXTS.empty} />
      ) : (
        // options (roleStructure listoption) belong in a listbox, not in Blueprint's default role=menu
        <Menu className="service-switcher-list" role="listbox" aria-label="服务">
          {page.names.map((n) => (
            <MenuItem key={n} text={n} active={n === bucket.bucket_name} onClick={() => choose(n)} roleStructure="listoption" selected={n === bucket.bucket_name} />
          ))}
        </Menu>
      )}
      {paging && <CursorPagerButtons pager={page} onCursor={setCursor} small />}
    </div>
  );

  return (
    <Popover isOpen={open} onInteraction={(o) => setOpen(o)} content={content} placement="bottom-start">
      <Button variant="minimal" endIcon="caret-down" className="service-switcher" aria-label="切换服务" title={name} text="切换服务" />
    </Popover>
  );
}

/** The remark, edited in place; the stored remark comes back from the server. */
export function RemarkEditor({ bucket, onSaved }: { bucket: BucketInfo; onSaved(b: BucketInfo): void }) {
  const [value, setValue] = useState(bucket.remark ?? '');
  async function confirm(text: string) {
    if (text.trim() === (bucket.remark ?? '')) return;
    try {
      const res = await api.post<{ data: BucketInfo }>('/api/buckets/info/', { bucket_name: bucket.bucket_name, remark: text });
      notify(BUCKET_SELECTOR_TEXTS.remarkSaved, 'success');
      setValue(res.data.remark ?? '');
      onSaved(res.data);
    } catch (e) {
      notify(failureText(e), 'danger');
      setValue(bucket.remark ?? '');
    }
  }
  return (
    <span className="bucket-remark">
      <EditableText value={value} onChange={setValue} onConfirm={(t) => void confirm(t)} placeholder={BUCKET_SELECTOR_TEXTS.remarkPlaceholder} maxLength={60} selectAllOnFocus />
    </span>
  );
}
