/**
 * What the statistics pages share: the secondary navigation, the flow types the account may choose,
 * the billing mode, the real-name prompt and the dialogs of a slice and of the full ranking.
 */
import { recordEvent } from '../api/events';
import { REALNAME_PROFILE } from '../common/RealnamePrompt';
import { useEffect, useState } from 'react';
import { NavLink, useNavigate } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { Button, Dialog, DialogBody, DialogFooter, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { Tab, Tabs } from '../common/Tabs';
import { sessionAtom } from '../state';
import { api, failureText } from '../api/client';
import { FLOW_TYPES, FLOW_TYPE_KINDS, FLOW_TYPE_LABELS, carrierLabel, type FlowType } from '../../shared/stats/constants';
import { formatBytes, formatRequests } from '../../shared/stats/units';
import { grantedOnly, isChild, maySeeKind } from '../../shared/permissions';
import type { ServiceKind } from '../../shared/services';
import { LevelPicker } from './selectors';
import { BarChart } from './charts';

export function useSessionUser() {
  const s = useAtomValue(sessionAtom);
  return s.status === 'signedIn' ? s : null;
}

/** Authorized-service sub-accounts: no flow top, no selector paging (spec 001 §2.1, §6). */
export function useAuthorizedService(): boolean {
  const s = useSessionUser();
  return s ? grantedOnly(s.user) : false;
}

export function StatsNav() {
  const authorized = useAuthorizedService();
  return (
    <nav className="stats-nav" aria-label="统计分析">
      <NavLink to="/stats/" end>服务统计</NavLink>
      {!authorized && <NavLink to="/stats/flowTop/">流量排行</NavLink>}
      <NavLink to="/stats/accessAnalysis/">访问分析</NavLink>
    </nav>
  );
}

/**
 * The flow types of the account: by the services it has (and a sub-account may see); pcdn with the
 * usage flag pcdn_open, mingmou only with the flag mingmou.
 */
export function useFlowTypes(): FlowType[] | null {
  const s = useSessionUser();
  const [counts, setCounts] = useState<Record<string, number> | null>(null);
  useEffect(() => {
    let live = true;
    api
      .get<{ data: Record<string, number> }>('/api/buckets/summary/')
      .then((r) => live && setCounts(r.data))
      .catch(() => live && setCounts({}));
    return () => {
      live = false;
    };
  }, []);
  if (!counts || !s) return null;
  return FLOW_TYPES.filter((ft) => {
    if (ft === 'mingmou') return s.usage.mingmou && (counts.fusion ?? 0) > 0;
    if (ft === 'pcdn') return s.usage.pcdn_open && FLOW_TYPE_KINDS.pcdn.some((k) => (counts[k] ?? 0) > 0);
    return FLOW_TYPE_KINDS[ft].some((k) => (counts[k] ?? 0) > 0 && (!isChild(s.user) || maySeeKind(s.user, k as ServiceKind)));
  });
}

export function usePriceConfig(): string | null {
  const [mode, setMode] = useState<string | null>(null);
  useEffect(() => {
    api
      // only the billing mode: the price configuration itself belongs to billing (parent_only plus bill)
      .get<{ data: Record<string, string> }>('/api/flow/billing_mode/')
      .then((r) => setMode(r.data.cdn ?? null))
      .catch(() => setMode(null));
  }, []);
  return mode;
}

/**
 * The real-name prompt (spec 001 §2.3): an unverified user is asked to complete personal or
 * enterprise verification; 立即前往 closes it, opens the account profile and emits the real-name
 * statistics event.
 */
export function RealNamePrompt() {
  const s = useSessionUser();
  const navigate = useNavigate();
  const [open, setOpen] = useState(true);
  if (!s || s.user.verify_status !== 'not') return null;
  return (
    <Dialog isOpen={open} title="实名认证提示" icon="id-number" onClose={() => setOpen(false)} className="realname-dialog">
      <DialogBody>
        <p>根据国家相关法规要求，使用统计分析等服务前请先完成实名认证。</p>
        <p>个人用户请完成个人实名认证，企业用户请完成企业实名认证。</p>
      </DialogBody>
      <DialogFooter
        actions={
          <Button
            intent="primary"
            text="立即前往"
            onClick={() => {
              setOpen(false);
              navigate(REALNAME_PROFILE);
              recordEvent('verify', 'mobile_stats');
            }}
          />
        }
      />
    </Dialog>
  );
}

export interface SliceRef {
  kind: 'region' | 'isp';
  key: string;
  label: string;
}

/** The detail of a pie slice (a region or a carrier), per flow type in tabs. */
export function DetailDialog(props: { slice: SliceRef | null; flowTypes: FlowType[]; flowType: FlowType; query: Record<string, string>; onClose: () => void }) {
  const [tab, setTab] = useState<FlowType>(props.flowType);
  const [data, setData] = useState<any | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => setTab(props.flowType), [props.flowType, props.slice]);
  useEffect(() => {
    if (!props.slice) return;
    let live = true;
    setData(null);
    setFailure(null);
    // the other flow types are asked about the same slice over all their services
    const base = tab === props.flowType ? props.query : { start_day: props.query.start_day, end_day: props.query.end_day };
    const query = { ...base, flow_type: tab, [props.slice.kind]: props.slice.key };
    api
      .get('/api/flow/proportion/', query)
      .then((r) => live && setData(r.data))
      .catch((e) => live && setFailure(failureText(e)));
    return () => {
      live = false;
    };
  }, [props.slice, tab]);
  const tabs = props.flowTypes.filter((f) => ['cdn', 'live', 'scdn', 'mingmou', 'websocket', 'overseas'].includes(f));
  return (
    <Dialog isOpen={props.slice !== null} onClose={props.onClose} title={`${props.slice?.label ?? ''} 详情`} className="stats-detail-dialog" style={{ width: 640 }}>
      <DialogBody>
        <Tabs id="detail-tabs" selectedTabId={tab} onChange={(t) => setTab(t as FlowType)}>
          {tabs.map((f) => (
            <Tab key={f} id={f} title={FLOW_TYPE_LABELS[f]} />
          ))}
        </Tabs>
        {failure ? (
          <NonIdealState icon="error" title={failure} />
        ) : !data ? (
          <Spinner size={24} />
        ) : data.total_bytes === 0 ? (
          <NonIdealState icon="search" title="该时段暂无数据" />
        ) : (
          <div className="detail-body" data-testid="detail-body">
            <div className="detail-total">
              流量合计 <strong>{formatBytes(data.total_bytes)}</strong>，请求数 <strong>{formatRequests(data.isp_proportion.reduce((a: number, r: any) => a + r.reqs, 0))}</strong>
            </div>
            <HTMLTable compact striped className="detail-table">
              <thead>
                <tr>
                  <th>{props.slice?.kind === 'region' ? '运营商' : '地区'}</th>
                  <th>流量</th>
                  <th>占比</th>
                </tr>
              </thead>
              <tbody>
                {(props.slice?.kind === 'region' ? data.isp_proportion.map((r: any) => ({ k: r.isp, name: carrierLabel(r.isp), bytes: r.bytes, share: r.share })) : data.region_rank.slice(0, 10).map((r: any) => ({ k: r.region, name: r.name, bytes: r.bytes, share: r.share }))).map((r: any) => (
                  <tr key={r.k}>
                    <td>{r.name}</td>
                    <td>{formatBytes(r.bytes)}</td>
                    <td>{r.share}%</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        )}
      </DialogBody>
      <DialogFooter actions={<Button text="关闭" onClick={props.onClose} />} />
    </Dialog>
  );
}

/** 'View all': the full region ranking, 10, 20 or every region (the level picker). */
export function RankingDialog(props: { open: boolean; rows: { rank: number; region: string; name: string; bytes: number; reqs: number; share: number }[]; onClose: () => void }) {
  const [level, setLevel] = useState(1);
  const shown = level === 3 ? props.rows : props.rows.slice(0, level * 10);
  return (
    <Dialog isOpen={props.open} onClose={props.onClose} title="地区流量排行" className="stats-ranking-dialog" style={{ width: 640 }}>
      <DialogBody>
        <div className="ranking-head">
          显示 <LevelPicker level={3} current={level} onChange={setLevel} labels={['前 10', '前 20', '全部']} disabled={props.rows.length <= 10} />
          <span className="muted">共 {props.rows.length} 个地区</span>
        </div>
        <HTMLTable compact striped className="ranking-table" data-testid="ranking-table">
          <thead>
            <tr>
              <th>排名</th>
              <th>地区</th>
              <th>流量</th>
              <th>请求数</th>
              <th>占比</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr key={r.region}>
                <td>{r.rank}</td>
                <td>{r.name}</td>
                <td>{formatBytes(r.bytes)}</td>
                <td>{formatRequests(r.reqs)}</td>
                <td>{r.share}%</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </DialogBody>
      <DialogFooter actions={<Button text="关闭" onClick={props.onClose} />} />
    </Dialog>
  );
}

/**
 * The top regions by carrier as a modal (spec 001 §2.2 "top-regions-by-carrier chart modal"): the
 * stacked bars of the ten regions with the most traffic, and their figures by carrier in a table.
 */
export function RegionCarrierDialog(props: {
  open: boolean;
  share: { top_of_region_and_proportion: Record<string, any>[]; region_top: { carriers: { isp: string; name: string }[] } } | null;
  onClose: () => void;
}) {
  const rows = props.share?.top_of_region_and_proportion ?? [];
  const carriers = props.share?.region_top.carriers ?? [];
  return (
    <Dialog isOpen={props.open} onClose={props.onClose} title="地区运营商分布" className="stats-region-isp-dialog" style={{ width: 860 }}>
      <DialogBody>
        <BarChart
          testId="bar-region-isp-modal"
          rows={rows.map((r) => ({ key: r.province, label: r.name, values: Object.fromEntries(carriers.map((c) => [c.isp, r[c.isp] ?? 0])) }))}
          stack={carriers.map((c) => ({ key: c.isp, label: c.name }))}
          format={formatBytes}
        />
        <HTMLTable compact striped className="ranking-table" data-testid="region-isp-table">
          <thead>
            <tr>
              <th>地区</th>
              {carriers.map((c) => (
                <th key={c.isp}>{c.name}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.province}>
                <td>{r.name}</td>
                {carriers.map((c) => (
                  <td key={c.isp}>{formatBytes(r[c.isp] ?? 0)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </DialogBody>
      <DialogFooter actions={<Button text="关闭" onClick={props.onClose} />} />
    </Dialog>
  );
}
