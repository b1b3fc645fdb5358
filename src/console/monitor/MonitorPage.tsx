/**
 * Cloud monitor (/monitor/, permission monitor): the alarm tasks shown here (visible ones) with their
 * last value and state, and the recent incidents (GET /api/monitor/, /api/monitor/alerts/).
 */
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { Button, Callout, Card, H3, H5, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { api, failureText } from '../api/client';
import { sessionAtom } from '../state';
import { mayOpen } from '../access';
import { formatMetric, MONITOR_METRICS, type MonitorAlert, type MonitorTask } from '../../shared/monitor';
import { conditionText, StateTag } from './AlarmPage';
import './monitor.css';
import { formatAt } from '../../shared/format';

export default function MonitorPage() {
  const session = useAtomValue(sessionAtom);
  const [tasks, setTasks] = useState<MonitorTask[] | null>(null);
  const [alerts, setAlerts] = useState<MonitorAlert[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const canManage = session.status === 'signedIn' && mayOpen(session.user, '/toolbox/alarm/');

  const load = useCallback(async () => {
    try {
      const [t, a] = await Promise.all([api.get<{ data: MonitorTask[] }>('/api/monitor/', { visible: 1 }), api.get<{ data: MonitorAlert[] }>('/api/monitor/alerts/', { limit: 20 })]);
      setTasks(t.data);
      setAlerts(a.data);
      setFailure(null);
    } catch (e) {
      setFailure(failureText(e));
      setTasks([]);
    }
  }, []);
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), 60_000);
    return () => clearInterval(timer);
  }, [load]);

  return (
    <div className="monitor-page">
      <div className="page-head">
        <H3>云监控</H3>
        <Button icon="refresh" variant="minimal" onClick={() => void load()} aria-label="刷新" />
        {canManage && <Link to="/toolbox/alarm/">管理告警任务</Link>}
      </div>
      {failure && <Callout intent="danger">{failure}</Callout>}
      <div className="monitor-cards">
        {tasks === null ? (
          <Spinner />
        ) : tasks.length === 0 ? (
          <NonIdealState icon="timeline-line-chart" title="暂无监控项" description="在监控告警中新建任务并设为显示后，会在这里看到各项指标的最新状态。" />
        ) : (
          tasks.map((t) => (
            <Card key={t.id} className="monitor-card" data-task={t.name}>
              <H5>
                {t.name} <StateTag task={t} />
              </H5>
              <div className="monitor-value">{t.last_value === null ? '-' : formatMetric(t.metric, t.last_value)}</div>
              <div className="muted">{MONITOR_METRICS[t.metric].label} · {t.buckets.join('、')}</div>
              <div className="muted">告警条件：{conditionText(t)}</div>
              <div className="muted">{t.checked_at ? `最近检查 ${formatAt(t.checked_at, 'YYYY-MM-DD HH:mm:ss')}` : '尚未检查'}</div>
            </Card>
          ))
        )}
      </div>
      <Card className="monitor-alerts">
        <H5>最近告警</H5>
        {alerts.length === 0 ? (
          <NonIdealState icon="tick-circle" description="暂无告警记录" />
        ) : (
          <HTMLTable className="service-table" striped>
            <thead>
              <tr>
                <th>任务</th>
                <th>告警值</th>
                <th>阈值</th>
                <th>开始时间</th>
                <th>恢复时间</th>
              </tr>
            </thead>
            <tbody>
              {alerts.map((a) => (
                <tr key={a.id}>
                  <td>{a.task_name}</td>
                  <td>{formatMetric(a.metric, a.value)}</td>
                  <td>{formatMetric(a.metric, a.threshold)}</td>
                  <td>{formatAt(a.started_at, 'YYYY-MM-DD HH:mm:ss')}</td>
                  <td>{a.recovered_at ? formatAt(a.recovered_at, 'YYYY-MM-DD HH:mm:ss') : <Tag intent="danger" minimal>告警中</Tag>}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </Card>
    </div>
  );
}
