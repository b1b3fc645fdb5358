/**
 * Cross-platform disaster-recovery backup (toolbox /toolbox/cross_platform_disaster_recovery/): the
 * configurations (GET /api/third_backup/list/), created (POST /api/third_backup/), changed, enabled
 * or disabled and deleted (/api/third_backup/configure/), and their log (GET /api/third_backup/logs/).
 * The server's worker copies the files (src/server/backup/worker.ts); each row shows the latest run —
 * its progress while it runs (the page asks again every 2 s), then its result — and 立即备份 queues one
 * (POST /api/third_backup/run/). The form is the declaration schemas/forms/third_backup; the secret is
 * never shown again.
 */
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Callout, Card, H3, H5, HTMLTable, NonIdealState, ProgressBar, Spinner, Switch, Tag, type Intent } from '@blueprintjs/core';
import backupSchema from '../../../../schemas/forms/third_backup/schema.json';
import backupUi from '../../../../schemas/forms/third_backup/ui.json';
import { api } from '../../api/client';
import { FormDialog } from '../../common/FormDialog';
import { notify } from '../../common/toaster';
import { notifyingCall, useConfirmedAction, useLoaded } from '../../common/useList';
import { settingIO } from '../../services/settingIO';
import { BACKUP_ACTION_LABELS, BACKUP_INTERVAL_MINUTES, BACKUP_MAX_CONFIGS, BACKUP_PLATFORMS, type BackupConfig, type BackupLog, type BackupRun, type BackupRunStatus } from '../../../shared/monitor';
import { formatAt } from '../../../shared/format';

export default function BackupPage() {
  const [logs, setLogs] = useState<BackupLog[]>([]);
  const { data: configs, failure, reload: load } = useLoaded(
    async () => {
      const [c, l] = await Promise.all([api.get<{ data: BackupConfig[] }>('/api/third_backup/list/'), api.get<{ data: BackupLog[] }>('/api/third_backup/logs/', { limit: 20 })]);
      setLogs(l.data);
      return c.data;
    },
    [],
    [],
  );
  const [editing, setEditing] = useState<BackupConfig | 'new' | null>(null);
  const deleting = useConfirmedAction((c: BackupConfig) => api.del('/api/third_backup/configure/', { id: c.id }), '删除成功', () => void load());

  const run = (c: BackupConfig) => notifyingCall(() => api.post('/api/third_backup/run/', { id: c.id }), '已加入备份队列', () => void load());
  // while a run waits or runs, the page follows its progress
  const active = (configs ?? []).some((c) => c.last_run && (c.last_run.status === 'queued' || c.last_run.status === 'running'));
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => void load(), 2000);
    return () => clearInterval(t);
  }, [active, load]);

  const toggle = (c: BackupConfig, enabled: boolean) => notifyingCall(() => api.put('/api/third_backup/configure/', { id: c.id, enabled }), enabled ? '已启用' : '已停用', () => void load());

  return (
    <div className="backup-page">
      <div className="page-head">
        <H3>跨平台容灾备份</H3>
        <Button intent="primary" icon="add" onClick={() => setEditing('new')} disabled={(configs?.length ?? 0) >= BACKUP_MAX_CONFIGS} className="backup-add">
          新建备份配置
        </Button>
      </div>
      <Callout className="setting-help" icon="info-sign">
        将云存储服务中的文件复制到其他云平台（S3 兼容接口）的存储桶，源站故障时可从备份恢复。启用的配置每 {BACKUP_INTERVAL_MINUTES} 分钟自动备份一次，只复制新增和修改过的文件；源服务中删除的文件在目标存储桶中保留。访问密钥加密保存，保存后不再显示。每个账号最多 {BACKUP_MAX_CONFIGS} 个配置。
      </Callout>
      {failure && <Callout intent="danger">{failure}</Callout>}
      <Card>
        {configs === null ? (
          <Spinner />
        ) : configs.length === 0 ? (
          <NonIdealState icon="duplicate" title="暂无备份配置" />
        ) : (
          <HTMLTable className="service-table backup-table" striped>
            <thead>
              <tr>
                <th>配置名称</th>
                <th>源服务</th>
                <th>目标</th>
                <th>AccessKey</th>
                <th>启用</th>
                <th>最近备份</th>
                <th>更新时间</th>
                <th>操作</th>
              </tr>
            </thead>
            <tbody>
              {configs.map((c) => (
                <tr key={c.id} data-config={c.name}>
                  <td>{c.name}</td>
                  <td>{c.bucket_name}</td>
                  <td>
                    {BACKUP_PLATFORMS[c.platform]} · {c.region} · {c.target_bucket}/{c.prefix}
                    <div className="muted mono">{c.endpoint_used}</div>
                  </td>
                  <td className="mono">
                    {c.access_key_id} / {c.secret_masked}
                  </td>
                  <td>
                    <Switch checked={c.enabled} onChange={(e) => void toggle(c, e.currentTarget.checked)} aria-label={`启用 ${c.name}`} />
                  </td>
                  <td className="backup-run">
                    <RunState run={c.last_run} />
                  </td>
                  <td>{formatAt(c.updated_at, 'YYYY-MM-DD HH:mm:ss')}</td>
                  <td>
                    <Button
                      variant="minimal"
                      intent="primary"
                      onClick={() => void run(c)}
                      disabled={!c.enabled || c.last_run?.status === 'queued' || c.last_run?.status === 'running'}
                      title={c.enabled ? undefined : '备份配置已停用，请先启用'}
                    >
                      立即备份
                    </Button>
                    <Button variant="minimal" intent="primary" onClick={() => setEditing(c)}>
                      修改
                    </Button>
                    <Button variant="minimal" intent="danger" onClick={() => deleting.setTarget(c)}>
                      删除
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </Card>
      <Card className="backup-logs">
        <H5>操作记录</H5>
        {logs.length === 0 ? (
          <div className="muted">暂无记录</div>
        ) : (
          <HTMLTable compact striped>
            <tbody>
              {logs.map((l) => (
                <tr key={l.id}>
                  <td>{formatAt(l.created_at, 'YYYY-MM-DD HH:mm:ss')}</td>
                  <td>{l.config_name}</td>
                  <td>
                    <Tag minimal>{BACKUP_ACTION_LABELS[l.action]}</Tag>
                  </td>
                  <td>{l.detail}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </Card>
      {editing && (
        <ConfigDialog
          config={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void load();
          }}
        />
      )}
      <Alert isOpen={deleting.target !== null} intent="danger" icon="trash" cancelButtonText="取消" confirmButtonText="删除" loading={deleting.busy} onCancel={() => deleting.setTarget(null)} onConfirm={deleting.run}>
        <p>确定删除备份配置 {deleting.target?.name} 吗？已备份到目标平台的文件不会被删除。</p>
      </Alert>
    </div>
  );
}

const RUN_INTENT: Record<BackupRunStatus, Intent> = { queued: 'none', running: 'primary', succeeded: 'success', failed: 'danger' };
const sizeText = (bytes: number) => (bytes >= 1048576 ? `${(bytes / 1048576).toFixed(2)} MB` : `${(bytes / 1024).toFixed(1)} KB`);

/** The latest run: waiting, its progress, or its result. */
function RunState({ run }: { run: BackupRun | null }) {
  if (!run) return <span className="muted">尚未备份</span>;
  const at = run.finished_at ?? run.started_at ?? run.created_at;
  return (
    <div>
      <Tag minimal intent={RUN_INTENT[run.status]}>
        {run.status_text}
      </Tag>{' '}
      <span className="muted">{formatAt(at, 'YYYY-MM-DD HH:mm:ss')}</span>
      {run.status === 'running' && (
        <div aria-label={`已处理 ${run.files_done} / ${run.files_total} 个文件`}>
          <ProgressBar intent="primary" value={run.files_total ? run.files_done / run.files_total : 0} />
          <span className="muted">
            已处理 {run.files_done} / {run.files_total} 个文件
          </span>
        </div>
      )}
      {run.status === 'succeeded' && (
        <div className="muted">
          复制 {run.files_copied} 个文件（{sizeText(run.bytes_copied)}），跳过 {run.files_skipped} 个未变化的文件
        </div>
      )}
      {run.status === 'failed' && (
        <Callout intent="danger" compact icon={null} className="backup-error">
          {run.error}
        </Callout>
      )}
    </div>
  );
}

function ConfigDialog({ config, onClose, onSaved }: { config: BackupConfig | null; onClose(): void; onSaved(): void }) {
  const [formData, setFormData] = useState<Record<string, unknown>>(() =>
    config ? { name: config.name, bucket_name: config.bucket_name, platform: config.platform, region: config.region, endpoint: config.endpoint, target_bucket: config.target_bucket, prefix: config.prefix, access_key_id: config.access_key_id } : { platform: 'aliyun_oss' },
  );
  const formContext = useMemo(() => ({ io: settingIO }), []);

  return (
    <FormDialog<Record<string, unknown>>
      title={config ? '修改备份配置' : '新建备份配置'}
      icon="duplicate"
      className="backup-dialog"
      style={{ width: 640 }}
      canOutsideClickClose
      schema={backupSchema}
      ui={backupUi}
      formContext={formContext}
      value={formData}
      onChange={setFormData}
      intro={config && <Callout className="muted">当前 AccessKey Secret：{config.secret_masked}，留空表示不更改。</Callout>}
      onSubmit={async (value) => {
        if (config) await api.post('/api/third_backup/configure/', { ...value, id: config.id });
        else await api.post('/api/third_backup/', value);
        notify(config ? '修改成功' : '创建成功');
        onSaved();
      }}
      onClose={onClose}
    />
  );
}
