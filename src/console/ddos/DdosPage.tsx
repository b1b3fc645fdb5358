/**
 * DDoS 高防 IP (spec 002 §2): /services/ddos/{instance,website,nonwebsite,protectlog}/. Instances with
 * their IPs and L4 policies; website (L7) rules with the WAF switch; non-website (port forwarding)
 * rules; the protection log with the attack statistics, the four flow series (visx, peaks in Gbps) and
 * the attack list. The rule forms are the declarations schemas/forms/ddos_*; list calls read 24018 as
 * empty. Main accounts only (src/console/access.ts; the server enforces it).
 */
import { EventOnOpen, useEventOnOpen } from '../api/events';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';
import { Button, ButtonGroup, Card, H3, H5, HTMLSelect, HTMLTable, NonIdealState, Spinner, Switch, Tag } from '@blueprintjs/core';
import { Tab, Tabs } from '../common/Tabs';
import dayjs from 'dayjs';
import l7Schema from '../../../schemas/forms/ddos_l7/schema.json';
import l7Ui from '../../../schemas/forms/ddos_l7/ui.json';
import nonWebsiteSchema from '../../../schemas/forms/ddos_non_website/schema.json';
import nonWebsiteUi from '../../../schemas/forms/ddos_non_website/ui.json';
import { ruleErrors as l7RuleErrors } from '../../../schemas/forms/ddos_l7/rules';
import { ruleErrors as nonWebsiteRuleErrors } from '../../../schemas/forms/ddos_non_website/rules';
import l4Schema from '../../../schemas/forms/ddos_l4/schema.json';
import l4Ui from '../../../schemas/forms/ddos_l4/ui.json';
import { api } from '../api/client';
import { notify } from '../common/toaster';
import {
  ATTACK_STATUS,
  ATTACK_TYPES,
  CC_LEVELS,
  DDOS_PAGE_SIZE,
  DDOS_TABS,
  FLOW_TYPE_IDS,
  INSTANCE_STATUS,
  IP_STATUS,
  L4_TYPES,
  RULE_STATUS,
  toGbps,
  WAF_MODES,
  type DdosAttack,
  type DdosInstance,
  type DdosIp,
  type DdosL4Rule,
  type DdosL7Rule,
} from '../../shared/ddos';
import { ddosList, FailureCallout, StatusTag, toFailure, type Failure } from './common';
import { FlowChart, formatValue, type FlowSeries } from './FlowChart';
import { Pager, RuleTable, type CursorQuery } from './RuleTable';
import './ddos.css';
import { formatAt } from '../../shared/format';

const fmt = (t: string | null) => (t ? formatAt(t, 'YYYY-MM-DD HH:mm') : '—');

function useInstances() {
  const [instances, setInstances] = useState<DdosInstance[] | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  useEffect(() => {
    ddosList<DdosInstance>('/api/ddos/instance')
      .then((r) => setInstances(r.data))
      .catch((e) => setFailure(toFailure(e)));
  }, []);
  return { instances, failure };
}

export default function DdosPage() {
  const { tab = 'instance' } = useParams();
  useEventOnOpen('usage', 'ddos');
  useEventOnOpen('buried', 'ddos_menu');
  const navigate = useNavigate();
  const { instances, failure } = useInstances();
  const [instanceId, setInstanceId] = useState<number | null>(null);
  useEffect(() => {
    if (instances?.length && instanceId === null) setInstanceId(instances[0].id);
  }, [instances, instanceId]);
  if (!DDOS_TABS.some((t) => t.id === tab)) return <Navigate to="/services/ddos/instance/" replace />;
  const instance = instances?.find((i) => i.id === instanceId) ?? null;

  return (
    <div className="ddos-page">
      <div className="page-head">
        <H3>DDoS 高防 IP</H3>
        {instances && instances.length > 0 && (
          <HTMLSelect aria-label="高防实例" value={instanceId ?? ''} onChange={(e) => setInstanceId(Number(e.currentTarget.value))}>
            {instances.map((i) => (
              <option key={i.id} value={i.id}>
                {i.name}（{i.package_name}）
              </option>
            ))}
          </HTMLSelect>
        )}
        <Button intent="primary" icon="shopping-cart" text="购买高防 IP" className="ddos-buy" onClick={() => navigate('/services/ddos/order/')} />
      </div>
      <Tabs id="ddos-tabs" selectedTabId={tab} onChange={(id) => navigate(`/services/ddos/${id}/`)} large renderActiveTabPanelOnly>
        {DDOS_TABS.map((t) => (
          <Tab key={t.id} id={t.id} title={t.title} />
        ))}
      </Tabs>
      <div className="tab-content">
        <FailureCallout failure={failure} />
        {!instances && !failure && <Spinner />}
        {instances && instances.length === 0 && (
          <NonIdealState
            icon="shield"
            title="尚未开通 DDoS 高防 IP"
            description="高防 IP 为您的网站和业务抵御大流量 DDoS 攻击与 CC 攻击，购买后即可添加防护规则。"
            action={<Button intent="primary" text="立即购买" onClick={() => navigate('/services/ddos/order/')} />}
          >
            <EventOnOpen family="buried" name="ddos_intro" />
          </NonIdealState>
        )}
        {instance && tab === 'instance' && <InstanceTab key={instance.id} instance={instance} />}
        {instance && tab === 'website' && <WebsiteTab key={instance.id} instance={instance} />}
        {instance && tab === 'nonwebsite' && <NonWebsiteTab key={instance.id} instance={instance} />}
        {instance && tab === 'protectlog' && <ProtectLogTab key={instance.id} instance={instance} />}
      </div>
    </div>
  );
}

function useIps(instanceId: number) {
  const [ips, setIps] = useState<DdosIp[]>([]);
  useEffect(() => {
    ddosList<DdosIp>('/api/ddos/ip', { instance_id: instanceId }).then((r) => setIps(r.data)).catch(() => setIps([]));
  }, [instanceId]);
  return ips;
}

// ---- instance/ ----

function InstanceTab({ instance }: { instance: DdosInstance }) {
  const ips = useIps(instance.id);
  const [rules, setRules] = useState<DdosL4Rule[] | null>(null);
  const load = useCallback(() => {
    ddosList<DdosL4Rule>('/api/ddos/l4', { instance_id: instance.id, limit: 100 }).then((r) => setRules(r.data)).catch(() => setRules([]));
  }, [instance.id]);
  useEffect(load, [load]);
  return (
    <>
      <Card className="ddos-instance">
        <H5>
          {instance.name} <StatusTag text={INSTANCE_STATUS[instance.status]} intent={instance.status === 'normal' ? 'success' : 'danger'} />
        </H5>
        <div className="ddos-facts">
          <span>套餐：{instance.package_name}</span>
          <span>保底防护：{instance.protect_gbps} Gbps</span>
          <span>弹性防护：{instance.elastic_gbps} Gbps</span>
          <span>业务带宽：{instance.business_mbps} Mbps</span>
          <span>网站业务规则上限：{instance.max_websites}</span>
          <span>非网站业务规则上限：{instance.max_ports}</span>
          <span>
            有效期：{fmt(instance.start_time)} 至 {fmt(instance.end_time)}
          </span>
        </div>
      </Card>
      <H5 className="ddos-section-title">高防 IP</H5>
      <HTMLTable className="ddos-table" striped>
        <thead>
          <tr>
            <th>高防 IP</th>
            <th>防护节点</th>
            <th>状态</th>
          </tr>
        </thead>
        <tbody>
          {ips.map((i) => (
            <tr key={i.id}>
              <td>{i.ip}</td>
              <td>{i.node_name}</td>
              <td>
                <StatusTag text={IP_STATUS[i.status] ?? i.status} intent={i.status === 'normal' ? 'success' : 'warning'} />
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <RuleTable<DdosL4Rule>
        head={<H5 className="ddos-section-title">四层防护策略</H5>}
        add={{ text: '添加策略' }}
        noun="四层防护策略"
        initial={{ instance_id: instance.id, ip: ips[0]?.ip, type: 'blacklist', values: [], status: 'on' }}
        schema={l4Schema}
        ui={l4Ui}
        ips={ips}
        rules={rules}
        spinnerSize={20}
        empty={{ icon: 'filter', title: '暂无四层防护策略' }}
        columns={[
          { title: '高防 IP', cell: (r) => r.ip },
          { title: '策略类型', cell: (r) => L4_TYPES[r.type] },
          {
            title: '内容',
            cell: (r) => (
              <>
                {r.values.join('、') || (r.type === 'rate_limit' ? '所有来源' : '—')}
                {r.limit !== null && `（${r.limit} pps）`}
              </>
            ),
          },
          { title: '状态', cell: (r) => RULE_STATUS[r.status] },
        ]}
        toForm={(r) => ({ id: r.id, instance_id: r.instance_id, ip: r.ip, type: r.type, values: r.values, ...(r.limit !== null ? { limit: r.limit } : {}), status: r.status })}
        save={(v) => (v.id ? api.post('/api/ddos/l4', v) : api.put('/api/ddos/l4', v))}
        deleteUrl="/api/ddos/l4"
        deleteText={(r) => `确认删除 ${r.ip} 的${L4_TYPES[r.type]}策略吗？`}
        reload={load}
      />
    </>
  );
}

// ---- website/ and nonwebsite/ ----

function useRules(instanceId: number, type: 'website' | 'non_website') {
  const [rules, setRules] = useState<DdosL7Rule[] | null>(null);
  const [pager, setPager] = useState<{ since: number | null; max: number | null; total?: number }>();
  const [query, setQuery] = useState<CursorQuery>({});
  const load = useCallback(() => {
    ddosList<DdosL7Rule>('/api/ddos/l7', { instance_id: instanceId, type, limit: DDOS_PAGE_SIZE, ...query })
      .then((r) => {
        setRules(r.data);
        setPager(r.pager);
      })
      .catch(() => setRules([]));
  }, [instanceId, type, query]);
  useEffect(load, [load]);
  return { rules, pager, reload: load, onPage: setQuery };
}

const STATUS_COLUMN = { title: '状态', cell: (r: DdosL7Rule) => <StatusTag text={RULE_STATUS[r.status]} intent={r.status === 'on' ? 'success' : 'none'} /> };
const protocolsText = (r: DdosL7Rule) => r.protocols.map((p) => p.toUpperCase()).join(' / ');

function WebsiteTab({ instance }: { instance: DdosInstance }) {
  const ips = useIps(instance.id);
  const list = useRules(instance.id, 'website');
  async function toggleWaf(r: DdosL7Rule, waf: boolean, mode = r.waf_mode) {
    try {
      await api.post('/api/ddos/l7/waf', { id: r.id, waf, mode });
      notify('配置成功');
    } catch (e) {
      notify(toFailure(e).message, 'danger');
    }
    list.reload();
  }
  return (
    <RuleTable<DdosL7Rule>
      {...list}
      head={
        <span className="ddos-count">
          网站业务规则 {list.pager?.total ?? list.rules?.length ?? 0} / {instance.max_websites}
        </span>
      }
      add={{ text: '添加网站', intent: 'primary' }}
      note="添加后请将域名解析（CNAME 或 A 记录）指向高防 IP，流量经清洗后转发到源站。"
      noun="网站业务规则"
      initial={{ instance_id: instance.id, ip: ips[0]?.ip, protocols: ['http'], origins: [], cc_level: 'normal', status: 'on' }}
      schema={l7Schema}
      ui={l7Ui}
      formRules={l7RuleErrors}
      ips={ips}
      empty={{ icon: 'globe-network', title: '暂无网站业务规则' }}
      testId="ddos-website-rules"
      columns={[
        { title: '防护域名', cell: (r) => r.domain },
        { title: '高防 IP', cell: (r) => r.ip },
        { title: '协议', cell: protocolsText },
        { title: '源站', cell: (r) => r.origins.join('、') },
        { title: 'CC 防护', cell: (r) => CC_LEVELS[r.cc_level ?? 'off'] },
        {
          title: 'WAF',
          className: 'ddos-waf',
          cell: (r) => (
            <>
              <Switch checked={r.waf} label={r.waf ? WAF_MODES[r.waf_mode] : '关闭'} onChange={(e) => toggleWaf(r, e.currentTarget.checked)} aria-label={`${r.domain} 的 WAF`} />
              {r.waf && <Button minimal small text={r.waf_mode === 'block' ? '改为仅记录' : '改为拦截'} onClick={() => toggleWaf(r, true, r.waf_mode === 'block' ? 'observe' : 'block')} />}
            </>
          ),
        },
        STATUS_COLUMN,
      ]}
      toForm={(r) => ({ id: r.id, instance_id: r.instance_id, ip: r.ip, domain: r.domain, protocols: r.protocols, origins: r.origins, cc_level: r.cc_level, status: r.status })}
      save={(v) => (v.id ? api.post('/api/ddos/l7', v) : api.put('/api/ddos/l7', v))}
      deleteUrl="/api/ddos/l7"
      deleteText={(r) => `确认删除 ${r.domain} 的防护规则吗？删除后该域名的流量不再经过高防清洗。`}
    />
  );
}

function NonWebsiteTab({ instance }: { instance: DdosInstance }) {
  const ips = useIps(instance.id);
  const list = useRules(instance.id, 'non_website');
  return (
    <RuleTable<DdosL7Rule>
      {...list}
      head={
        <span className="ddos-count">
          非网站业务规则 {list.pager?.total ?? list.rules?.length ?? 0} / {instance.max_ports}
        </span>
      }
      add={{ text: '添加转发规则', intent: 'primary' }}
      note="非网站业务（游戏、App、TCP/UDP 服务）按端口转发：客户端访问高防 IP 的转发端口，清洗后的流量转发到源站端口。"
      noun="转发规则"
      initial={{ instance_id: instance.id, ip: ips[0]?.ip, protocol: 'tcp', origins: [], status: 'on' }}
      schema={nonWebsiteSchema}
      ui={nonWebsiteUi}
      formRules={nonWebsiteRuleErrors}
      ips={ips}
      empty={{ icon: 'exchange', title: '暂无非网站业务规则' }}
      columns={[
        { title: '高防 IP', cell: (r) => r.ip },
        { title: '协议', cell: protocolsText },
        { title: '转发端口', cell: (r) => r.port },
        { title: '源站端口', cell: (r) => r.origin_port },
        { title: '源站 IP', cell: (r) => r.origins.join('、') },
        STATUS_COLUMN,
      ]}
      toForm={(r) => ({ id: r.id, instance_id: r.instance_id, ip: r.ip, protocol: r.protocols[0], port: r.port, origin_port: r.origin_port, origins: r.origins, status: r.status })}
      save={(v) => api.put('/api/ddos/l7/non_website', v)}
      deleteUrl="/api/ddos/l7"
      deleteText={(r) => `确认删除 ${r.ip}:${r.port} 的转发规则吗？`}
    />
  );
}

// ---- protectlog/ ----

const RANGES = [
  { id: '1', title: '近 24 小时', days: 1 },
  { id: '3', title: '近 3 天', days: 3 },
  { id: '7', title: '近 7 天', days: 7 },
];
const COLORS: Record<number, string> = { 1: '#2d72d2', 3: '#d13913', 4: '#29a634', 5: '#7961db' };

interface AttackStats {
  count: number;
  attacking: number;
  peak_bps: number;
  peak_gbps: number;
  peak_pps: number;
  top_type: string | null;
  by_type: { type: string; name: string; count: number }[];
}

function ProtectLogTab({ instance }: { instance: DdosInstance }) {
  const [range, setRange] = useState('1');
  const [stats, setStats] = useState<AttackStats | null>(null);
  const [flows, setFlows] = useState<FlowSeries[] | null>(null);
  const [attacks, setAttacks] = useState<DdosAttack[] | null>(null);
  const [pager, setPager] = useState<{ since: number | null; max: number | null }>();
  const [page, setPage] = useState<{ since?: number; max?: number }>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const period = useMemo(() => {
    const end = dayjs().unix();
    return { start_time: end - RANGES.find((r) => r.id === range)!.days * 86_400, end_time: end, instance_id: instance.id };
  }, [range, instance.id]);

  useEffect(() => {
    setFailure(null);
    api
      .get<{ data: AttackStats }>('/api/ddos/attack/statistics', period)
      .then((r) => setStats(r.data))
      .catch((e) => setFailure(toFailure(e)));
    Promise.all(FLOW_TYPE_IDS.map((type) => api.get<{ data: FlowSeries }>('/api/ddos/stat/flow', { ...period, type }).then((r) => r.data)))
      .then(setFlows)
      .catch((e) => setFailure(toFailure(e)));
  }, [period]);
  useEffect(() => {
    ddosList<DdosAttack>('/api/ddos/attack/list', { ...period, limit: DDOS_PAGE_SIZE, ...page })
      .then((r) => {
        setAttacks(r.data);
        setPager(r.pager);
      })
      .catch((e) => setFailure(toFailure(e)));
  }, [period, page]);

  return (
    <>
      <div className="ddos-section-head">
        <ButtonGroup>
          {RANGES.map((r) => (
            <Button key={r.id} text={r.title} active={range === r.id} onClick={() => (setRange(r.id), setPage({}))} />
          ))}
        </ButtonGroup>
      </div>
      <FailureCallout failure={failure} />
      {stats && (
        <div className="ddos-cards">
          <Card>
            <div className="ddos-card-label">攻击次数</div>
            <div className="ddos-card-value" data-testid="ddos-attack-count">{stats.count}</div>
          </Card>
          <Card>
            <div className="ddos-card-label">正在发生</div>
            <div className="ddos-card-value">{stats.attacking}</div>
          </Card>
          <Card>
            <div className="ddos-card-label">攻击峰值</div>
            <div className="ddos-card-value" data-testid="ddos-peak">{toGbps(stats.peak_bps)} Gbps</div>
          </Card>
          <Card>
            <div className="ddos-card-label">包速率峰值</div>
            <div className="ddos-card-value">{formatValue('pps', stats.peak_pps)}</div>
          </Card>
          <Card>
            <div className="ddos-card-label">主要攻击类型</div>
            <div className="ddos-card-value">{stats.top_type ? ATTACK_TYPES[stats.top_type] ?? stats.top_type : '无'}</div>
          </Card>
        </div>
      )}
      <div className="ddos-charts">{flows ? flows.map((f) => <FlowChart key={f.type} series={f} color={COLORS[f.type]} />) : <Spinner />}</div>
      <H5 className="ddos-section-title">攻击事件</H5>
      {attacks === null ? (
        <Spinner />
      ) : attacks.length === 0 ? (
        <NonIdealState icon="tick-circle" title="所选时间内没有攻击" />
      ) : (
        <HTMLTable className="ddos-table" striped>
          <thead>
            <tr>
              <th>受攻击 IP</th>
              <th>攻击类型</th>
              <th>开始时间</th>
              <th>结束时间</th>
              <th>峰值（Gbps）</th>
              <th>包速率峰值</th>
              <th>状态</th>
            </tr>
          </thead>
          <tbody>
            {attacks.map((a) => (
              <tr key={a.id}>
                <td>{a.ip}</td>
                <td>{ATTACK_TYPES[a.type] ?? a.type}</td>
                <td>{fmt(a.start_time)}</td>
                <td>{fmt(a.end_time)}</td>
                <td>{toGbps(a.peak_bps)}</td>
                <td>{formatValue('pps', a.peak_pps)}</td>
                <td>
                  <Tag minimal intent={a.status === 'attacking' ? 'danger' : 'none'}>
                    {ATTACK_STATUS[a.status]}
                  </Tag>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <Pager pager={pager} onPage={setPage} />
      <p className="ddos-foot">
        <Link to="/services/ddos/instance/">返回实例管理</Link>
      </p>
    </>
  );
}
