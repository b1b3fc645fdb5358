/**
 * The alarm page under the toolbox (/toolbox/alarm/, permission monitor_alarm): alarm tasks created
 * (PUT /api/monitor/), edited (POST), shown on /monitor/ or hidden (POST /api/monitor/visible/) and
 * deleted (DELETE). The task form is the declaration schemas/forms/monitor_task.
 */
import { useMemo, useState } from 'react';
import { Alert, Button, Callout, Card, H3, HTMLTable, NonIdealState, Spinner, Switch, Tag } from '@blueprintjs/core';
import taskSchema from '../../../schemas/forms/monitor_task/schema.json';
import taskUi from '../../../schemas/forms/monitor_task/ui.json';
import { api } from '../api/client';
import { FormDialog } from '../common/FormDialog';
import { notify } from '../common/toaster';
import { notifyingCall, useConfirmedAction, useLoaded } from '../common/useList';
import { settingIO } from '../services/settingIO';
import { formatMetric, MONITOR_MAX_TASKS, MONITOR_METRICS, MONITOR_OPERATORS, MONITOR_STATE_LABELS, type MonitorTask } from '../../shared/monitor';
import './monitor.css';
import { formatAt } from '../../shared/format';

type TaskForm = Omit<MonitorTask, 'id' | 'visible' | 'state' | 'last_value' | 'checked_at' | 'created_at'>;
const EMPTY: Partial<TaskForm> = { metric: 'bandwidth', operator: 'gt', period: 5, buckets: [], notify_message: true, notify_sms: false };

export function StateTag({ task }: { task: MonitorTask }) {
  return (
    <Tag minimal intent={task.state === 'alarm' ? 'danger' : task.state === 'normal' ? 'success' : 'none'} className="monitor-state">
      {MONITOR_STATE_LABELS[task.state]}
    </Tag>
  );
}

export const conditionText = (t: Pick<MonitorTask, 'metric' | 'operator' | 'threshold' | 'period'>) =>
  `${t.period} 分钟内${MONITOR_METRICS[t.metric].label}${MONITOR_OPERATORS[t.operator]} ${formatMetric(t.metric, t.threshold)}`;

export default function AlarmPage() {
  const { data: tasks, failure, reload: load } = useLoaded(async () => (await api.get<{ data: MonitorTask[] }>('/api/monitor/')).data, [], []);
  const [editing, setEditing] = useState<MonitorTask | 'new' | null>(null);
  const deleting = useConfirmedAction((t: MonitorTask) => api.del('/api/monitor/', { id: t.id }), '删除成功', () => void load());

  const setVisible = (t: MonitorTask, visible: boolean) => notifyingCall(() => api.post('/api/monitor/visible/', { id: t.id, visible }), visible ? '已在云监控中显示' : '已在云监控中隐藏', () => void load());

  return (
    <div className="alarm-page">
      <div className="page-head">
        <H3>监控告警</H3>
        <Button intent="primary" icon="add" onClick={() => setEditing('new')} disabled={(tasks?.length ?? 0) >= MONITOR_MAX_TASKS} className="alarm-add">
          新建告警任务
        </Button>
      </div>
      <Callout className="setting-help" icon="info-sign">
        告警任务按统计数据每分钟检查一次：指标越过阈值时通过站内消息或短信通知，同一次异常只通知一次；恢复正常后会收到恢复消息，再次异常会重新告警。每个账号最多 {MONITOR_MAX_TASKS} 个任务。
      </Callout>
      {failure && <Callout intent="danger">{failure}</Callout>}
      <Card>
        {tasks === null ? (
          <Spinner />
        ) : tasks.length === 0 ? (
          <NonIdealState icon="notifications" title="暂无告警任务" description="新建告警任务后，指标异常时会及时通知您。" />
        ) : (
          <HTMLTable className="service-table alarm-table" striped>
            <thead>
              <tr>
                <th>任务名称</th>
                <th>监控服务</th>
                <th>触发条件</th>
                <th>通知方式</th>
                <th>状态</th>
                <th>在云监控中显示</th>
                <th>操作</th>
              </tr>
            </thead>
            <tbody>
              {tasks.map((t) => (
                <tr key={t.id} data-task={t.name}>
                  <td>{t.name}</td>
                  <td>{t.buckets.join('、')}</td>
                  <td>{conditionText(t)}</td>
                  <td>{[t.notify_message && '站内消息', t.notify_sms && '短信'].filter(Boolean).join('、')}</td>
                  <td>
                    <StateTag task={t} />
                    {t.checked_at && <div className="muted">{formatAt(t.checked_at, 'MM-DD HH:mm')} 检查</div>}
                  </td>
                  <td>
                    <Switch checked={t.visible} onChange={(e) => void setVisible(t, e.currentTarget.checked)} aria-label={`在云监控中显示 ${t.name}`} />
                  </td>
                  <td>
                    <Button variant="minimal" intent="primary" onClick={() => setEditing(t)}>
                      编辑
                    </Button>
                    <Button variant="minimal" intent="danger" onClick={() => deleting.setTarget(t)}>
                      删除
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </Card>
      {editing && (
        <TaskDialog
          task={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void load();
          }}
        />
      )}
      <Alert isOpen={deleting.target !== null} intent="danger" icon="trash" cancelButtonText="取消" confirmButtonText="删除" loading={deleting.busy} onCancel={() => deleting.setTarget(null)} onConfirm={deleting.run}>
        <p>确定删除告警任务 {deleting.target?.name} 吗？</p>
      </Alert>
    </div>
  );
}

function TaskDialog({ task, onClose, onSaved }: { task: MonitorTask | null; onClose(): void; onSaved(): void }) {
  const [formData, setFormData] = useState<Partial<TaskForm>>(() =>
    task ? { name: task.name, metric: task.metric, operator: task.operator, threshold: task.threshold, period: task.period, buckets: task.buckets, notify_message: task.notify_message, notify_sms: task.notify_sms } : EMPTY,
  );
  const formContext = useMemo(() => ({ io: settingIO }), []);

  return (
    <FormDialog<Partial<TaskForm>>
      title={task ? '编辑告警任务' : '新建告警任务'}
      icon="notifications"
      className="alarm-dialog"
      style={{ width: 640 }}
      canOutsideClickClose
      schema={taskSchema}
      ui={taskUi}
      formContext={formContext}
      value={formData}
      onChange={setFormData}
      submitClassName="alarm-save"
      onSubmit={async (value) => {
        if (task) await api.post('/api/monitor/', { ...value, id: task.id });
        else await api.put('/api/monitor/', value);
        notify(task ? '修改成功' : '创建成功');
        onSaved();
      }}
      onClose={onClose}
    />
  );
}
