/**
 * A service list per kind (/services/cdn/ and the others): page size 10, cursor paging with
 * previous/next, search by name with a 500 ms debounce.
 */
import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';
import { useAtomValue, useSetAtom } from 'jotai';
import { Button, Callout, H3, HTMLTable, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { api, failureText } from '../api/client';
import { EventOnOpen, recordEvent, recordUsage } from '../api/events';
import { businessTypeAtom, sessionAtom } from '../state';
import { CreateServiceButton } from './CreateServiceDialog';
import { CREATE_PERMISSION, mayUse } from '../../shared/permissions';
import { kindBySection, KINDS, listTitle, SEARCH_DEBOUNCE_MS, SERVICE_LIST_PAGE_SIZE, tabName } from '../../shared/services';
import type { BucketInfo, CursorPager } from '../../shared/buckets';
import { CursorPagerButtons } from '../../../renderers/CursorPager';
import { formatAt } from '../../shared/format';

type Cursor = { since?: number; max?: number };

export default function ServiceListPage() {
  const { section = '' } = useParams();
  const info = kindBySection(section);
  const setBusinessType = useSetAtom(businessTypeAtom);
  const session = useAtomValue(sessionAtom);
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [term, setTerm] = useState('');
  const [cursor, setCursor] = useState<Cursor>({});
  const [rows, setRows] = useState<BucketInfo[] | null>(null);
  const [pager, setPager] = useState<CursorPager>({ since: null, max: null });
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (info) setBusinessType(info.kind);
    // the section's usage event (docs/events.md); SCDN's list is also the SCDN funnel's first step
    if (info) recordUsage(info.kind);
    if (info?.kind === 'scdn') recordEvent('buried', 'scdn_menu');
  }, [info, setBusinessType]);

  // a new search term starts at the first page; the same term (the first render's, say) keeps the page
  // the user went to meanwhile (a 下一页 within the debounce was undone before)
  useEffect(() => {
    const next = search.trim();
    if (next === term) return;
    const t = setTimeout(() => {
      setTerm(next);
      setCursor({});
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [search, term]);

  useEffect(() => {
    if (!info) return;
    let live = true;
    setRows(null);
    api
      .get<{ data: BucketInfo[]; pager: CursorPager }>('/api/buckets/', {
        business_type: info.kind,
        limit: SERVICE_LIST_PAGE_SIZE,
        with_domains: true,
        ...(term ? { bucket_name: term } : {}),
        ...cursor,
      })
      .then((res) => {
        if (!live) return;
        setRows(res.data);
        setPager(res.pager);
        setFailure(null);
      })
      .catch((e) => live && (setFailure(failureText(e)), setRows([])));
    return () => {
      live = false;
    };
  }, [info, term, cursor]);

  if (!info) return <Navigate to="/dashboard/" replace />;
  const firstTab = tabName(info.kind, KINDS[info.kind].tabs[0]);
  const mayCreate = session.status === 'signedIn' && mayUse(session.user, [CREATE_PERMISSION[info.kind]]);

  return (
    <div className="service-list">
      <div className="page-head">
        <H3>{listTitle(info.kind)}</H3>
        <InputGroup leftIcon="search" placeholder="请输入服务名称" value={search} onChange={(e) => setSearch(e.target.value)} className="service-search" aria-label="搜索服务" />
        {mayCreate && session.status === 'signedIn' && (
          <CreateServiceButton
            kind={info.kind}
            user={session.user}
            usage={session.usage}
            onCreated={(b) => navigate(`/services/${b.bucket_name}/${firstTab}/`)}
          />
        )}
      </div>
      {failure && <Callout intent="danger">{failure}</Callout>}
      {rows === null ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <>
          <NonIdealState
            icon={term ? 'search' : 'cloud'}
            title={term ? '没有找到匹配的服务' : '暂无服务'}
            description={term ? `没有名称包含“${term}”的服务` : mayCreate ? '点击右上角的“创建服务”创建第一个服务，创建后即可绑定域名、配置回源与缓存。' : undefined}
          />
          {!term && info?.kind === 'scdn' && <EventOnOpen family="buried" name="scdn_intro" />}
        </>
      ) : (
        <HTMLTable className="service-table" striped interactive>
          <thead>
            <tr>
              <th>服务名称</th>
              <th>备注</th>
              <th>域名</th>
              <th>创建时间</th>
              <th>操作</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((b) => (
              <tr key={b.bucket_id}>
                <td>
                  <Link to={`/services/${b.bucket_name}/${firstTab}/`}>{b.bucket_name}</Link>
                </td>
                <td>{b.remark}</td>
                <td>
                  {(b.domains ?? []).map((d) => (
                    <Tag key={d.domain} minimal className="domain-tag">
                      {d.domain}
                    </Tag>
                  ))}
                </td>
                <td>{formatAt(b.created_at, 'YYYY-MM-DD HH:mm:ss')}</td>
                <td>
                  <Link to={`/services/${b.bucket_name}/${firstTab}/`}>配置</Link>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {/* no arrows under a single page (CursorPagerButtons) */}
      <CursorPagerButtons pager={pager} onCursor={setCursor} />
    </div>
  );
}
