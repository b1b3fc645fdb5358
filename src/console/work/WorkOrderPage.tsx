/**
 * Work orders (/work/; the external ticket site of spec 002 replaced by this page unless
 * EXTERNAL_WORKORDER_URL names another): the account's orders with status and replies, a new order (the
 * declaration schemas/forms/work_order, attachments uploaded first to /work_order/attachment/), the
 * detail with replies, replying and closing. ?id=N opens an order (the message centre links there).
 */
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button, Callout, Card, Dialog, DialogBody, DialogFooter, FileInput, H3, H5, HTMLSelect, HTMLTable, NonIdealState, Spinner, Tag, TextArea } from '@blueprintjs/core';
import orderSchema from '../../../schemas/forms/work_order/schema.json';
import orderUi from '../../../schemas/forms/work_order/ui.json';
import { api, failureText } from '../api/client';
import { FormDialog } from '../common/FormDialog';
import { notify } from '../common/toaster';
import { useLoaded } from '../common/useList';
import { ATTACHMENT_HELP, WORK_ORDER_STATUS_LABELS, WORK_ORDER_TYPES, type WorkOrderAttachment, type WorkOrderReply, type WorkOrderStatus, type WorkOrderSummary } from '../../shared/monitor';
import { formatAt } from '../../shared/format';
import { PagePager } from '../../../renderers/PagePager';

const typeName = (id: string) => WORK_ORDER_TYPES.find((t) => t.id === id)?.name ?? id;
const statusIntent = (s: WorkOrderStatus) => (s === 'replied' ? 'success' : s === 'pending' ? 'primary' : 'none');
const MAX_ATTACHMENTS = orderSchema.properties.attachments.maxItems;

interface Detail {
  id: number;
  type: string;
  title: string;
  content: string;
  status: WorkOrderStatus;
  created_at: string;
  attachments: WorkOrderAttachment[];
  replies: WorkOrderReply[];
}

/** Uploads picked files one by one; shows them as removable tags. */
function Attachments({ files, onChange }: { files: WorkOrderAttachment[]; onChange(f: WorkOrderAttachment[]): void }) {
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function pick(list: FileList | null) {
    if (!list?.length) return;
    setError(null);
    setUploading(true);
    const added: WorkOrderAttachment[] = [];
    try {
      for (const f of Array.from(list).slice(0, MAX_ATTACHMENTS - files.length)) {
        const body = new FormData();
        body.append('file', f, f.name);
        added.push((await api.post<{ data: WorkOrderAttachment }>('/work_order/attachment/', body)).data);
      }
    } catch (e) {
      setError(failureText(e));
    } finally {
      setUploading(false);
      onChange([...files, ...added]);
    }
  }
  return (
    <div className="work-attachments">
      <FileInput text={uploading ? '上传中…' : '选择附件'} buttonText="浏览" disabled={uploading || files.length >= MAX_ATTACHMENTS} inputProps={{ multiple: true, 'aria-label': '上传附件' }} onInputChange={(e) => void pick((e.target as HTMLInputElement).files)} />
      <div className="muted">{ATTACHMENT_HELP}</div>
      {error && <div className="field-error" role="alert">{error}</div>}
      <div>
        {files.map((f) => (
          <Tag key={f.id} minimal onRemove={() => onChange(files.filter((x) => x.id !== f.id))} className="work-attachment">
            {f.name}
          </Tag>
        ))}
      </div>
    </div>
  );
}

export default function WorkOrderPage() {
  const [params, setParams] = useSearchParams();
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const [pager, setPager] = useState({ total: 0, page: 1, pages: 1 });
  const { data: rows, failure, reload: load } = useLoaded(
    async () => {
      const res = await api.get<{ data: WorkOrderSummary[]; pager: typeof pager }>('/api/workorder/list/', { page, limit: 20, ...(status ? { status } : {}) });
      setPager(res.pager);
      return res.data;
    },
    [page, status],
    [],
  );
  const [creating, setCreating] = useState(false);
  const openId = Number(params.get('id')) || null;

  return (
    <div className="work-page">
      <div className="page-head">
        <H3>工单</H3>
        <Button intent="primary" icon="add" onClick={() => setCreating(true)} className="work-new">
          提交工单
        </Button>
      </div>
      {failure && <Callout intent="danger">{failure}</Callout>}
      <Card>
        <div className="purge-log-filters">
          <HTMLSelect value={status} onChange={(e) => (setStatus(e.target.value), setPage(1))} aria-label="工单状态">
            <option value="">全部状态</option>
            {(Object.keys(WORK_ORDER_STATUS_LABELS) as WorkOrderStatus[]).map((s) => (
              <option key={s} value={s}>
                {WORK_ORDER_STATUS_LABELS[s]}
              </option>
            ))}
          </HTMLSelect>
        </div>
        {rows === null ? (
          <Spinner />
        ) : rows.length === 0 ? (
          <NonIdealState icon="chat" title="暂无工单" description="遇到问题时可以提交工单，技术支持会尽快回复。" />
        ) : (
          <HTMLTable className="service-table work-table" striped interactive>
            <thead>
              <tr>
                <th>工单号</th>
                <th>标题</th>
                <th>问题类型</th>
                <th>状态</th>
                <th>回复</th>
                <th>提交时间</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} onClick={() => setParams({ id: String(r.id) })} data-order={r.title}>
                  <td>#{r.id}</td>
                  <td>
                    <a role="button" onClick={() => setParams({ id: String(r.id) })}>{r.title}</a>
                  </td>
                  <td>{typeName(r.type)}</td>
                  <td>
                    <Tag minimal intent={statusIntent(r.status)}>{WORK_ORDER_STATUS_LABELS[r.status]}</Tag>
                  </td>
                  <td>{r.replies ? `${r.replies} 条，最近 ${formatAt(r.last_reply_at, 'MM-DD HH:mm')}` : '暂无'}</td>
                  <td>{formatAt(r.created_at, 'YYYY-MM-DD HH:mm:ss')}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
        <PagePager pager={pager} page={page} onPage={setPage} />
      </Card>
      {creating && (
        <CreateDialog
          onClose={() => setCreating(false)}
          onCreated={(id) => {
            setCreating(false);
            void load();
            setParams({ id: String(id) });
          }}
        />
      )}
      {openId && <DetailDialog id={openId} onClose={() => setParams({})} onChanged={() => void load()} />}
    </div>
  );
}

function CreateDialog({ onClose, onCreated }: { onClose(): void; onCreated(id: number): void }) {
  const [formData, setFormData] = useState<Record<string, unknown>>({ type: 'cdn' });
  const [files, setFiles] = useState<WorkOrderAttachment[]>([]);
  const [docs, setDocs] = useState<{ title: string; url: string }[]>([]);
  const type = formData.type as string | undefined;

  useEffect(() => {
    if (!type) return;
    api.get<{ data: { title: string; url: string }[] }>('/work_order/documents/', { type }).then((r) => setDocs(r.data), () => setDocs([]));
  }, [type]);

  return (
    <FormDialog<Record<string, unknown>>
      title="提交工单"
      icon="chat"
      className="work-dialog"
      style={{ width: 680 }}
      canOutsideClickClose
      schema={orderSchema}
      ui={orderUi}
      value={formData}
      onChange={setFormData}
      intro={
        docs.length > 0 && (
          <Callout icon="manual" className="work-docs">
            提交前可以先看看这些文档：
            {docs.map((d) => (
              <a key={d.url} href={d.url} target="_blank" rel="noreferrer" className="work-doc">
                {d.title}
              </a>
            ))}
          </Callout>
        )
      }
      submitText="提交"
      submitClassName="work-submit"
      onSubmit={async (value) => {
        const res = await api.post<{ data: { id: number } }>('/api/workorder', { ...value, mobile: value.mobile || undefined, attachments: files.map((f) => f.id) });
        notify('工单已提交，我们会尽快回复');
        onCreated(res.data.id);
      }}
      onClose={onClose}
    >
      <Attachments files={files} onChange={setFiles} />
    </FormDialog>
  );
}

function FileLinks({ files }: { files: WorkOrderAttachment[] }) {
  if (!files.length) return null;
  return (
    <div className="work-files">
      {files.map((f) => (
        <a key={f.id} href={`/work_order/attachment/?id=${f.id}`} className="work-file">
          📎 {f.name}（{Math.ceil(f.size / 1024)} KB）
        </a>
      ))}
    </div>
  );
}

function DetailDialog({ id, onClose, onChanged }: { id: number; onClose(): void; onChanged(): void }) {
  const [detail, setDetail] = useState<Detail | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [content, setContent] = useState('');
  const [files, setFiles] = useState<WorkOrderAttachment[]>([]);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setDetail((await api.get<{ data: Detail }>('/api/workorder/detail/', { id })).data);
    } catch (e) {
      setFailure(failureText(e));
    }
  }, [id]);
  useEffect(() => {
    void load();
  }, [load]);

  async function act(fn: () => Promise<unknown>, done: string) {
    setBusy(true);
    try {
      await fn();
      notify(done);
      setContent('');
      setFiles([]);
      await load();
      onChanged();
    } catch (e) {
      notify(failureText(e), 'danger');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog isOpen title={detail ? `工单 #${detail.id}：${detail.title}` : '工单详情'} icon="chat" onClose={onClose} className="work-detail" style={{ width: 720 }}>
      <DialogBody>
        {failure && <Callout intent="danger">{failure}</Callout>}
        {!detail ? (
          !failure && <Spinner />
        ) : (
          <>
            <div className="work-meta">
              <Tag minimal intent={statusIntent(detail.status)}>{WORK_ORDER_STATUS_LABELS[detail.status]}</Tag> {typeName(detail.type)} · 提交于 {formatAt(detail.created_at, 'YYYY-MM-DD HH:mm:ss')}
            </div>
            <Card className="work-message">
              <p className="pre-wrap">{detail.content}</p>
              <FileLinks files={detail.attachments} />
            </Card>
            {detail.replies.map((r) => (
              <Card key={r.id} className={`work-message work-reply-${r.author}`}>
                <H5>
                  {r.author === 'support' ? `技术支持 ${r.author_name}` : r.author_name} <span className="muted">{formatAt(r.created_at, 'YYYY-MM-DD HH:mm:ss')}</span>
                </H5>
                <p className="pre-wrap">{r.content}</p>
                <FileLinks files={r.attachments} />
              </Card>
            ))}
            {detail.status !== 'closed' && (
              <div className="work-reply-form">
                <TextArea fill rows={4} value={content} onChange={(e) => setContent(e.target.value)} placeholder="补充说明或回复技术支持" aria-label="回复内容" maxLength={5000} />
                <Attachments files={files} onChange={setFiles} />
              </div>
            )}
          </>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            {detail && detail.status !== 'closed' && (
              <>
                <Button onClick={() => void act(() => api.post('/api/workorder/close/', { id }), '工单已关闭')} loading={busy}>
                  关闭工单
                </Button>
                <Button intent="primary" disabled={!content.trim()} loading={busy} onClick={() => void act(() => api.post('/api/workorder/reply/', { id, content, attachments: files.map((f) => f.id) }), '回复成功')}>
                  回复
                </Button>
              </>
            )}
            <Button onClick={onClose}>返回</Button>
          </>
        }
      />
    </Dialog>
  );
}
