/**
 * /toolbox/ssl/: the account's certificates (spec 002 Certificates): upload (the certificate
 * declaration rendered by the engine, parsed for real by the server), view, download, delete.
 */
import { useEventOnOpen } from '../api/events';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Button, ButtonGroup, Callout, Dialog, DialogBody, DialogFooter, H3, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { Tab, Tabs } from '../common/Tabs';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { FreeApplyPanel } from './FreeApplyPanel';
import { OrdersPanel } from './orders/OrdersPanel';
import certificateSchema from '../../../schemas/forms/certificate/schema.json';
import certificateUi from '../../../schemas/forms/certificate/ui.json';
import { DeclarationForm } from '../../../renderers/DeclarationForm';
import { containsCertificate, containsPrivateKey, isChainBalanced, lacksIntermediate } from '../../../schemas/pem';
import { Checkbox } from '@blueprintjs/core';
import { api, ApiFailure, failureText } from '../api/client';
import { notify } from '../common/toaster';
import type { CertificateInfo } from '../../shared/certificates';
import type { CursorPager } from '../../shared/buckets';
import { CursorPagerButtons } from '../../../renderers/CursorPager';
import { formatAt } from '../../shared/format';

const DATE = 'YYYY-MM-DD HH:mm:ss' as const;

/** What each upload status means to a person (spec 002 §4: 0 parsed … 4 key mismatch). */
export const STATUS_TEXT: Record<number, string> = {
  0: '证书解析成功',
  1: '证书解析失败',
  2: '证书已存在',
  3: '证书已过期',
  4: '证书与私钥不匹配',
};

function DaysLeft({ days }: { days: number }) {
  if (days < 0) return <Tag intent="danger">已过期</Tag>;
  return <Tag intent={days <= 30 ? 'warning' : 'success'} minimal>{days} 天</Tag>;
}

export default function CertificatesPage() {
  useEventOnOpen('usage', 'ssl');
  const [rows, setRows] = useState<CertificateInfo[] | null>(null);
  const [pager, setPager] = useState<CursorPager>({ since: null, max: null });
  const [cursor, setCursor] = useState<{ since?: number; max?: number }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [viewing, setViewing] = useState<CertificateInfo | null>(null);
  const [deleting, setDeleting] = useState<CertificateInfo | null>(null);
  const [deleteFailure, setDeleteFailure] = useState<string | null>(null);
  // state toolbox.https params (spec 002 §2): active=apply opens the apply tab
  const [params, setParams] = useSearchParams();
  const active = params.get('active') === 'apply' ? 'apply' : 'list';
  const navigate = useNavigate();

  const load = useCallback(async () => {
    try {
      const res = await api.get<{ data: CertificateInfo[]; pager: CursorPager }>('/api/https/certificate/list/', { limit: 10, ...cursor });
      setRows(res.data);
      setPager(res.pager);
      setFailure(null);
    } catch (e) {
      setFailure(failureText(e));
      setRows([]);
    }
  }, [cursor]);

  useEffect(() => {
    void load();
  }, [load]);

  async function remove() {
    if (!deleting) return;
    try {
      await api.del(`/api/https/certificate/?certificate_id=${deleting.certificate_id}`);
      notify('删除成功!', 'success');
      setDeleting(null);
      await load();
    } catch (e) {
      setDeleteFailure(failureText(e));
    }
  }

  return (
    <div className="certificates-page">
      <div className="page-head">
        <H3>SSL 证书</H3>
        <Button intent="primary" icon="upload" className="upload-certificate" onClick={() => setUploading(true)} style={{ marginLeft: 'auto' }}>
          上传证书
        </Button>
        <Button icon="globe" className="manage-default" onClick={() => navigate('/toolbox/ssl/manage_default/')} style={{ marginLeft: 8 }}>
          默认域名 HTTPS
        </Button>
      </div>
      <Tabs id="ssl-tabs" selectedTabId={active} onChange={(id) => setParams(id === 'apply' ? { active: 'apply' } : {})}>
        <Tab id="list" title="证书管理" />
        <Tab id="apply" title="证书申请" />
      </Tabs>
      {active === 'apply' ? <>
        {params.get('children') === 'applyResult' && <Callout intent="success" className="apply-result">重新签发已提交，请在订单详情中查看域名验证记录。</Callout>}
        <OrdersPanel /><FreeApplyPanel onIssued={load} /></> : <>
      {failure && <Callout intent="danger">{failure}</Callout>}
      {rows === null ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <NonIdealState icon="lock" title="暂无证书" description="上传已有证书后，即可在服务的 HTTPS 配置中为域名开启 HTTPS。" />
      ) : (
        <HTMLTable className="service-table certificate-table" striped>
          <thead>
            <tr>
              <th>证书</th>
              <th>绑定域名</th>
              <th>颁发机构</th>
              <th>到期时间</th>
              <th>剩余</th>
              <th>操作</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr key={c.certificate_id}>
                <td>
                  <div className="cert-name">{c.common_name}</div>
                  {c.remark && <div className="cert-remark">{c.remark}</div>}
                </td>
                <td>{c.bound?.length ? c.bound.map((d) => <Tag key={d} minimal className="domain-tag">{d}</Tag>) : <span className="muted">未绑定</span>}</td>
                <td>{c.issuer}</td>
                <td>{formatAt(c.valid_to, DATE)}</td>
                <td>
                  <DaysLeft days={c.days_left} />
                </td>
                <td>
                  <ButtonGroup variant="minimal">
                    <Button text="查看" onClick={() => setViewing(c)} />
                    <Button text="下载" onClick={() => window.location.assign(`/api/https/certificate/download?certificate_id=${c.certificate_id}`)} />
                    <Button
                      text="删除"
                      intent="danger"
                      onClick={() => {
                        setDeleteFailure(null);
                        setDeleting(c);
                      }}
                    />
                  </ButtonGroup>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <CursorPagerButtons pager={pager} onCursor={setCursor} />
      </>}
      {uploading && (
        <UploadDialog
          onClose={() => setUploading(false)}
          onUploaded={async () => {
            setUploading(false);
            await load();
          }}
        />
      )}
      <ViewDialog certificate={viewing} onClose={() => setViewing(null)} />
      <Alert isOpen={deleting !== null} intent="danger" cancelButtonText="取消" confirmButtonText="删除" onCancel={() => setDeleting(null)} onConfirm={remove}>
        <p>确定删除证书 {deleting?.common_name} 吗？删除后不可恢复。</p>
        {deleteFailure && (
          <Callout intent="danger" compact role="alert">
            {deleteFailure}
          </Callout>
        )}
      </Alert>
    </div>
  );
}

function ViewDialog({ certificate: c, onClose }: { certificate: CertificateInfo | null; onClose(): void }) {
  return (
    <Dialog isOpen={c !== null} title="查看证书" onClose={onClose} className="setting-dialog">
      {c && (
        <DialogBody>
          <HTMLTable compact className="cert-detail">
            <tbody>
              <tr><th>通用名称</th><td>{c.common_name}</td></tr>
              <tr><th>包含域名</th><td>{c.domains.join('，')}</td></tr>
              <tr><th>颁发机构</th><td>{c.issuer}</td></tr>
              <tr><th>有效期</th><td>{formatAt(c.valid_from, DATE)} 至 {formatAt(c.valid_to, DATE)}</td></tr>
              <tr><th>剩余天数</th><td><DaysLeft days={c.days_left} /></td></tr>
              <tr><th>序列号</th><td className="mono">{c.serial}</td></tr>
              <tr><th>SHA-256 指纹</th><td className="mono">{c.fingerprint}</td></tr>
              <tr><th>国密证书</th><td>{c.gm ? '是' : '否'}</td></tr>
            </tbody>
          </HTMLTable>
        </DialogBody>
      )}
      <DialogFooter actions={<Button onClick={onClose}>关闭</Button>} />
    </Dialog>
  );
}

/** Step 1 the form, step 2 the parse result (spec 002 §4 "add then parse"). */
function UploadDialog({ onClose, onUploaded }: { onClose(): void; onUploaded(): void }) {
  const [formData, setFormData] = useState<Record<string, unknown>>({ certificate: '', private_key: '', gm: false });
  const [result, setResult] = useState<{ status: number; message: string; info?: CertificateInfo } | null>(null);
  const [saving, setSaving] = useState(false);
  const [valid, setValid] = useState(false);
  const formRef = useRef<any>(null);
  const warnIntermediate = typeof formData.certificate === 'string' && lacksIntermediate(formData.certificate);
  // spec 002 §5: an unbalanced chain, a key in a certificate field or a certificate in a key field are
  // warnings (the declaration's messages at the fields): the customer may confirm them and submit anyway
  const text = (k: string) => (typeof formData[k] === 'string' ? (formData[k] as string) : '');
  const certFields = formData.gm ? ['certificate', 'enc_crt'] : ['certificate'];
  const keyFields = formData.gm ? ['private_key', 'enc_pkey'] : ['private_key'];
  const confirmable =
    certFields.some((k) => text(k) && (!isChainBalanced(text(k)) || containsPrivateKey(text(k)))) || keyFields.some((k) => text(k) && containsCertificate(text(k)));

  async function submit() {
    if (!formRef.current?.validateForm()) return;
    setSaving(true);
    try {
      const { remark, ...rest } = formData;
      const res = await api.post<{ data: CertificateInfo & { status: number } }>('/api/https/certificate/', { ...rest, ...(remark ? { remark } : {}) });
      setResult({ status: 0, message: STATUS_TEXT[0], info: res.data });
    } catch (e) {
      const status = e instanceof ApiFailure ? ((e.data as { status?: number } | undefined)?.status ?? 1) : 1;
      setResult({ status, message: failureText(e) });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog isOpen title="上传证书" onClose={onClose} className="setting-dialog certificate-dialog" canOutsideClickClose={false}>
      <DialogBody>
        {result ? (
          <Callout intent={result.status === 0 ? 'success' : 'danger'} title={STATUS_TEXT[result.status] ?? STATUS_TEXT[1]} className="upload-result">
            {result.status === 0 && result.info ? (
              <>
                <p>通用名称：{result.info.common_name}</p>
                <p>包含域名：{result.info.domains.join('，')}</p>
                <p>到期时间：{formatAt(result.info.valid_to, DATE)}</p>
              </>
            ) : (
              <p>{result.message}</p>
            )}
          </Callout>
        ) : (
          <>
            {warnIntermediate && (
              <Callout intent="warning" className="setting-warning">
                只检测到一个证书，可能缺少中间证书；部分浏览器可能无法验证证书链，建议按顺序粘贴服务器证书和中间证书。
              </Callout>
            )}
            {(confirmable || formData.confirm_warnings === true) && (
              <Callout intent="warning" className="setting-warning certificate-confirm">
                <Checkbox
                  checked={formData.confirm_warnings === true}
                  label="我已确认证书与私钥内容无误，仍然提交（只保存其中的证书和私钥部分）"
                  onChange={(e) => {
                    const next: Record<string, unknown> = { ...formData, confirm_warnings: e.currentTarget.checked };
                    setFormData(next);
                    setValid(Boolean(next.certificate) && Boolean(next.private_key) && (e.currentTarget.checked || !confirmable));
                  }}
                />
              </Callout>
            )}
            <DeclarationForm
              formRef={formRef}
              schema={certificateSchema}
              ui={certificateUi}
              formData={formData}
              onChange={(data, e) => {
                setFormData(data);
                setValid((e.errors ?? []).length === 0 && Boolean(data.certificate) && Boolean(data.private_key));
              }}
            />
          </>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          result ? (
            result.status === 0 ? (
              <Button intent="primary" onClick={onUploaded}>
                完成
              </Button>
            ) : (
              <>
                <Button onClick={onClose}>取消</Button>
                <Button intent="primary" onClick={() => setResult(null)}>
                  返回修改
                </Button>
              </>
            )
          ) : (
            <>
              <Button onClick={onClose}>取消</Button>
              <Button intent="primary" onClick={submit} disabled={!valid} loading={saving} className="upload-confirm">
                提交
              </Button>
            </>
          )
        }
      />
    </Dialog>
  );
}
