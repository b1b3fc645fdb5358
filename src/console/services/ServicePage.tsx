/**
 * The page of one service: /services/{name}/{tab}/ with the tabs of its kind (spec 002 §2) and,
 * on each tab, the panels of the settings whose setting.json names that tab.
 * A bucket whose kind does not match the tab's section shows 服务类型不匹配 and goes back to the list.
 */
import { stored } from '../storage';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';
import { useAtomValue, useSetAtom } from 'jotai';
import { Callout, H3, Icon, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { Tab, Tabs } from '../common/Tabs';
import { api, ApiFailure, failureText } from '../api/client';
import { notify } from '../common/toaster';
import { businessTypeAtom, sessionAtom } from '../state';
import { errorText } from '../../shared/errors';
import { formatSize } from '../../shared/format';
import { backToListText, KINDS, parseTab, tabName, tabsFor, TAB_LABELS } from '../../shared/services';
import type { BucketInfo } from '../../shared/buckets';
import { registry } from '../../../renderers/declarations';
import { SettingPanel } from '../../../renderers/SettingPanel';
import { settingIO } from './settingIO';
import { DomainHttpsPanel } from './DomainHttpsPanel';
import { DomainsTab } from './DomainsTab';
import { RemarkEditor, ServiceSwitcher } from './ServiceSwitcher';
import { grantedOnly, isChild } from '../../shared/permissions';
import { LiveNotices, liveLock, useLiveInfo } from '../live/useLiveInfo';
import { EdgeStatusBar } from '../edge/EdgeStatusBar';

/** The edgeCalc tab shows the edge rules (src/console/edgerules/), a lazy chunk of their own. */
const EdgeRuleList = lazy(() => import(/* webpackChunkName: "edge" */ '../edgerules/EdgeRuleList'));
/** File services: the fileManage and mediaFile tabs (src/console/files/, src/console/media/; docs/files-and-media.md). */
const FileManager = lazy(() => import(/* webpackChunkName: "files" */ '../files/FileManager'));
const MediaPanel = lazy(() => import(/* webpackChunkName: "files" */ '../media/MediaPanel'));

export const KIND_MISMATCH_TEXT = '服务类型不匹配';
/** Tabs whose content is a component of this page rather than setting panels. */
const BUILT_TABS: readonly string[] = ['domains', 'https', 'fileManage', 'media'];
/** Overseas services that are not ready (spec 000 §2.11). */
const OVERSEAS_NOT_READY: Record<string, string> = { PENDING: '服务待验证中', DEPLOYING: '服务部署中' };

export default function ServicePage() {
  const { name = '', tab = '' } = useParams();
  const navigate = useNavigate();
  const setBusinessType = useSetAtom(businessTypeAtom);
  const session = useAtomValue(sessionAtom);
  const keyLocked = session.status === 'signedIn' && session.user.custom_prohibit_configuration ? errorText(21210) : undefined;
  const [bucket, setBucket] = useState<BucketInfo | null>(null);
  // live services: the transport decides streamMonitorLive; a suspended configuration locks the panels (src/console/live/)
  const liveState = useLiveInfo(bucket);
  const locked = keyLocked ?? liveLock(liveState);
  const [failure, setFailure] = useState<string | null>(null);
  const parsed = parseTab(tab);

  useEffect(() => {
    let live = true;
    setBucket(null);
    api
      .get<{ data: BucketInfo }>('/api/buckets/info/', { bucket_name: name })
      .then((res) => {
        if (!live) return;
        setBucket(res.data);
        stored.bucketId.set(res.data.bucket_id);
        stored.serviceKind.set(name!, res.data.kind);
      })
      .catch((e) => {
        if (!live) return;
        if (e instanceof ApiFailure && e.code === 21905) {
          notify(e.message, 'danger');
          navigate(`/services/${parsed ? KINDS[parsed.kinds[0]].section : 'cdn'}/`, { replace: true });
          return;
        }
        setFailure(failureText(e));
      });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [name]);

  const mismatch = Boolean(bucket && parsed && !parsed.kinds.includes(bucket.kind));
  const notReady = bucket?.kind === 'overseas' ? OVERSEAS_NOT_READY[bucket.status] : undefined;
  // a service that cannot be shown here is announced once, then the page leaves (the effect may run
  // again before the navigation lands: `parsed` is a new object on every render)
  const leaving = useRef<BucketInfo | null>(null);
  useEffect(() => {
    if (bucket && !mismatch) setBusinessType(bucket.kind);
    if (!bucket || leaving.current === bucket) return;
    if (mismatch && parsed) {
      leaving.current = bucket;
      notify(KIND_MISMATCH_TEXT, 'danger');
      navigate(`/services/${KINDS[parsed.kinds[0]].section}/`, { replace: true });
    } else if (notReady) {
      leaving.current = bucket;
      notify(notReady, 'danger');
      navigate('/services/overseas/', { replace: true });
    }
  }, [bucket, mismatch, parsed, notReady, navigate, setBusinessType]);

  if (failure) return <Callout intent="danger">{failure}</Callout>;
  if (!bucket || liveState.status === 'loading') return <Spinner />;
  const kind = KINDS[bucket.kind];
  const tabs = tabsFor(bucket.kind, bucket.bucket_id, { liveTransportFile: liveState.status === 'ok' && liveState.info.type === 'file' });
  if (notReady) return null;
  if (!parsed || mismatch) {
    if (!parsed) return <Navigate to={`/services/${name}/${tabName(bucket.kind, tabs[0])}/`} replace />;
    return null;
  }
  if (!tabs.includes(parsed.family)) return <Navigate to={`/services/${name}/${tabName(bucket.kind, tabs[0])}/`} replace />;
  // a panel behind an account business flag (setting.json accountFlag) only for accounts that have it
  const panels = registry.forTab(bucket.kind, parsed.family).filter((d) => !d.meta.accountFlag || (session.status === 'signedIn' && session.user[d.meta.accountFlag]));

  return (
    <div className="service-page">
      <Link to={`/services/${kind.section}/`} className="back-link">
        <Icon icon="arrow-left" size={12} /> {backToListText(bucket.kind)}
      </Link>
      <div className="page-head">
        {/* the service dropdown and the remark editor are the main account's (spec 000 §2.11; docs/service-tabs.md) */}
        <H3>{bucket.bucket_name}</H3>
        {session.status === 'signedIn' && !isChild(session.user) && <ServiceSwitcher bucket={bucket} family={parsed.family} paging={!grantedOnly(session.user)} />}
        <Tag minimal>{kind.title}</Tag>
        {session.status === 'signedIn' && !isChild(session.user) ? (
          <RemarkEditor key={bucket.bucket_name} bucket={bucket} onSaved={setBucket} />
        ) : (
          bucket.remark && <span className="bucket-remark">{bucket.remark}</span>
        )}
      </div>
      <Tabs
        id="service-tabs"
        selectedTabId={tab}
        onChange={(id) => navigate(`/services/${name}/${id}/`)}
        renderActiveTabPanelOnly
        large
      >
        {tabs.map((f) => {
          const id = tabName(bucket.kind, f);
          return <Tab key={id} id={id} title={TAB_LABELS[f]} />;
        })}
      </Tabs>
      <LiveNotices state={liveState} />
      <EdgeStatusBar key={bucket.bucket_name} bucketName={bucket.bucket_name} />
      <div className="tab-content" role="tabpanel">
        {parsed.family === 'https' && <DomainHttpsPanel bucketName={bucket.bucket_name} locked={locked} />}
        {/* live services: the same domains, each with its use as the 推流与播放域名 setting names it (live_domain) */}
        {parsed.family === 'domains' && <DomainsTab key={bucket.bucket_name} bucketName={bucket.bucket_name} locked={locked} live={bucket.kind === 'live'} kind={bucket.kind} />}
        {parsed.family === 'fileManage' && <Suspense fallback={<Spinner />}><FileManager key={bucket.bucket_name} bucketName={bucket.bucket_name} kindSection={kind.section} /></Suspense>}
        {parsed.family === 'media' && <Suspense fallback={<Spinner />}><MediaPanel key={bucket.bucket_name} bucketName={bucket.bucket_name} /></Suspense>}
        {parsed.family === 'edgeCalc' ? (
          <Suspense fallback={<Spinner />}><EdgeRuleList bucket={bucket} locked={locked} /></Suspense>
        ) : panels.length === 0 ? (
          // tabs drawn by a component of their own (domains, HTTPS per domain, files, media) have no panels
          BUILT_TABS.includes(parsed.family) ? null : <NonIdealState icon="disable" title={`${TAB_LABELS[parsed.family]}没有可配置的项目`} />
        ) : (
          panels.map((d) => (
            <SettingPanel
              key={`${name}-${d.meta.id}`}
              declaration={d}
              registry={registry}
              bucketName={bucket.bucket_name}
              kind={bucket.kind}
              io={settingIO}
              locked={locked}
              facts={{ storage_used: formatSize(bucket.storage.used) }}
            />
          ))
        )}
      </div>
    </div>
  );
}
