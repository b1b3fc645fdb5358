/**
 * The mediaFile tab (spec 002 §2, §7 /av/…): submit a media task with the declaration
 * schemas/forms/av_pretreatment/ (only the fields of the chosen type shown), and watch the service's
 * tasks: status, progress bar while running, outputs when done, the error of a failed task.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, Callout, Card, H5, HTMLTable, NonIdealState, ProgressBar, Spinner, Tag, type Intent } from '@blueprintjs/core';
import avSchema from '../../../schemas/forms/av_pretreatment/schema.json';
import avUi from '../../../schemas/forms/av_pretreatment/ui.json';
import { DeclarationForm } from '../../../renderers/DeclarationForm';
import { api, ApiFailure, failureText } from '../api/client';
import { notify } from '../common/toaster';
import type { FieldError } from '../../shared/errors';
import type { CursorPager } from '../../shared/buckets';
import { MEDIA_FIELDS, MEDIA_POLL_MS, MEDIA_STATUS_TEXTS, MEDIA_TASK_PAGE_SIZE, MEDIA_TASK_TYPES, TASKLIST_TIMEOUT_MS, TASKLIST_TIMEOUT_TEXT, type MediaTask, type MediaTaskType } from '../../shared/media';
import { formatAt } from '../../shared/format';

const STATUS_INTENT: Record<MediaTask['status'], Intent> = { waiting: 'none', processing: 'primary', success: 'success', failed: 'danger' };
const ALL_FIELDS = [...new Set(Object.values(MEDIA_FIELDS).flat())];

/** The UI schema with the fields the chosen type does not use hidden. */
function uiFor(type: MediaTaskType) {
  const ui: Record<string, any> = { ...(avUi as Record<string, unknown>) };
  for (const f of ALL_FIELDS) if (!MEDIA_FIELDS[type].includes(f)) ui[f] = { ...(ui[f] ?? {}), 'ui:widget': 'hidden' };
  return ui;
}

/** Only the fields of the type travel (a hidden field of another type would otherwise be sent). */
function payloadOf(data: Record<string, any>) {
  const type = data.type as MediaTaskType;
  const out: Record<string, unknown> = { bucket_name: data.bucket_name, type };
  for (const f of MEDIA_FIELDS[type] ?? []) if (data[f] !== undefined && data[f] !== '') out[f] = data[f];
  return out;
}

export default function MediaPanel({ bucketName, locked }: { bucketName: string; locked?: string }) {
  const [formData, setFormData] = useState<Record<string, any>>({ bucket_name: bucketName, type: 'transcode', preset: '720p' });
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [submitFailure, setSubmitFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [tasks, setTasks] = useState<MediaTask[] | null>(null);
  const [pager, setPager] = useState<CursorPager>({ since: null, max: null });
  const [cursor, setCursor] = useState<{ since?: number; max?: number }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const formRef = useRef<any>(null);
  const type = (formData.type ?? 'transcode') as MediaTaskType;
  const ui = useMemo(() => uiFor(type), [type]);

  const load = useCallback(async () => {
    try {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const res = await Promise.race([
        api.get<{ data: MediaTask[]; pager: CursorPager }>('/av/tasklist', { bucket_name: bucketName, limit: MEDIA_TASK_PAGE_SIZE, ...cursor }),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(TASKLIST_TIMEOUT_TEXT)), TASKLIST_TIMEOUT_MS))),
      ]).finally(() => clearTimeout(timer));
      setTasks(res.data);
      setPager(res.pager);
      setFailure(null);
    } catch (e) {
      setFailure(e instanceof Error && e.message === TASKLIST_TIMEOUT_TEXT ? TASKLIST_TIMEOUT_TEXT : failureText(e));
    }
  }, [bucketName, cursor]);

  useEffect(() => {
    void load();
  }, [load]);

  // poll while a task is waiting or running
  const running = Boolean(tasks?.some((t) => t.status === 'waiting' || t.status === 'processing'));
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => void load(), MEDIA_POLL_MS);
    return () => clearInterval(timer);
  }, [running, load]);

  async function submit() {
    if (locked) return notify(locked, 'danger');
    if (!formRef.current?.validateForm()) return;
    setBusy(true);
    setSubmitFailure(null);
    setErrors([]);
    try {
      const res = await api.post<{ data: { task_id: number } }>('/av/pretreatment', payloadOf(formData));
      notify(`任务已提交（编号 ${res.data.task_id}）`);
      setCursor({});
      await load();
    } catch (e) {
      setSubmitFailure(failureText(e));
      if (e instanceof ApiFailure) setErrors(e.errors);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="media-panel">
      <Card className="media-form">
        <H5>提交媒体处理任务</H5>
        {submitFailure && <Callout intent="danger">{submitFailure}</Callout>}
        <DeclarationForm
          formRef={formRef}
          schema={avSchema}
          ui={ui}
          formData={formData}
          errors={errors}
          onChange={(data) => {
            setFormData({ ...data, bucket_name: bucketName });
            setErrors([]);
          }}
        />
        <Button intent="primary" icon="play" text="提交任务" loading={busy} onClick={() => void submit()} />
      </Card>

      <div className="media-tasks">
        <div className="media-tasks-head">
          <H5>处理任务</H5>
          <Button minimal icon="refresh" text="刷新" onClick={() => void load()} />
        </div>
        {failure && <Callout intent="danger">{failure}</Callout>}
        {!tasks && !failure && <Spinner size={24} />}
        {tasks && tasks.length === 0 && <NonIdealState icon="video" title="还没有媒体处理任务" description="在上方提交任务后，这里显示它的进度和结果。" />}
        {tasks && tasks.length > 0 && (
          <HTMLTable className="media-task-table" striped compact>
            <thead>
              <tr><th>编号</th><th>类型</th><th>源文件</th><th>状态</th><th>结果</th><th>提交时间</th></tr>
            </thead>
            <tbody>
              {tasks.map((t) => (
                <tr key={t.task_id} data-task-id={t.task_id}>
                  <td>{t.task_id}</td>
                  <td>{MEDIA_TASK_TYPES[t.type] ?? t.type}</td>
                  <td>{((t.params.sources as string[] | undefined) ?? [t.params.source as string]).join('、')}</td>
                  <td className="media-task-status">
                    <Tag intent={STATUS_INTENT[t.status]} minimal>{MEDIA_STATUS_TEXTS[t.status]}</Tag>
                    {t.status === 'processing' && <ProgressBar value={t.progress / 100} intent="primary" aria-label="处理进度" />}
                  </td>
                  <td>
                    {t.status === 'failed' && <span className="media-task-error">{t.error}</span>}
                    {t.status === 'success' && (
                      <span>
                        {(t.result?.outputs ?? []).slice(0, 3).join('、')}
                        {(t.result?.outputs?.length ?? 0) > 3 ? ` 等 ${t.result!.outputs!.length} 个文件` : ''}
                        {t.result?.height ? `（${t.result.width}×${t.result.height}` : ''}
                        {t.result?.height && t.result?.duration ? `，${t.result.duration.toFixed(2)} 秒）` : t.result?.height ? '）' : ''}
                        {t.type === 'probe' && t.result?.duration !== undefined ? `时长 ${Number(t.result.duration).toFixed(2)} 秒` : ''}
                      </span>
                    )}
                  </td>
                  <td>{formatAt(t.created_at, 'YYYY-MM-DD HH:mm:ss')}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
        {/* no arrows under an empty first page */}
        {!(tasks && tasks.length === 0 && pager.since === null && pager.max === null) && (
          <div className="media-pager">
            <Button icon="chevron-left" text="上一页" disabled={pager.since === null} onClick={() => setCursor({ since: pager.since! })} />
            <Button rightIcon="chevron-right" text="下一页" disabled={pager.max === null} onClick={() => setCursor({ max: pager.max! })} />
          </div>
        )}
      </div>
    </div>
  );
}
