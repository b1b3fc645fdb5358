/**
 * HTTPS per domain on a service's HTTPS tab (spec 002 §4): a switch for HTTPS and one for force
 * HTTPS per domain (forcing turns HTTPS on, HTTPS off clears forcing; a refused toggle reverts and
 * shows the message), and the management dialog choosing the certificate. Turning HTTPS on with a GM
 * certificate asks first, from the list's switches as from the dialog.
 */
import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Callout, Card, Dialog, DialogBody, DialogFooter, FormGroup, H5, HTMLSelect, HTMLTable, Spinner, Switch, Tag } from '@blueprintjs/core';
import { Link } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { api, failureText } from '../api/client';
import { sessionAtom } from '../state';
import { mayUse } from '../../shared/permissions';
import { notify } from '../common/toaster';
import type { CertificateInfo } from '../../shared/certificates';

export interface DomainHttps {
  domain: string;
  https: boolean;
  force_https: boolean;
  certificate_id: number | null;
  certificate: { common_name: string; valid_to: string; days_left: number; gm?: boolean } | null;
}

type HttpsChange = Partial<Pick<DomainHttps, 'https' | 'force_https'>>;

/** The GM confirmation (spec 002 §4): GM HTTPS only serves GM browsers. */
function GmConfirm({ isOpen, onCancel, onConfirm }: { isOpen: boolean; onCancel(): void; onConfirm(): void }) {
  return (
    <Alert isOpen={isOpen} cancelButtonText="取消" confirmButtonText="确定" onCancel={onCancel} onConfirm={onConfirm} className="gm-confirm">
      <p>国密 HTTPS 仅支持国密浏览器访问，其他浏览器将自动使用标准证书。确定开启国密 HTTPS 吗？</p>
    </Alert>
  );
}

/** The panel, or for a sub-account without the SSL certificate permission a sentence saying so. */
export function DomainHttpsPanel(props: { bucketName: string; locked?: string }) {
  const session = useAtomValue(sessionAtom);
  // the calls need the https permission (403 for a sub-account without it): not asked, said plainly
  if (session.status === 'signedIn' && !mayUse(session.user, ['https'])) {
    return (
      <Card className="setting-panel domain-https-panel" data-panel="domain-https">
        <div className="setting-panel-head">
          <H5 className="setting-panel-title">域名 HTTPS</H5>
        </div>
        <p className="muted">域名 HTTPS 与证书需要 SSL 证书权限，请联系主账号授权。</p>
      </Card>
    );
  }
  return <DomainHttpsTable {...props} />;
}

function DomainHttpsTable({ bucketName, locked }: { bucketName: string; locked?: string }) {
  const [rows, setRows] = useState<DomainHttps[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [managing, setManaging] = useState<DomainHttps | null>(null);
  const [confirmGm, setConfirmGm] = useState<{ row: DomainHttps; change: HttpsChange } | null>(null);

  const load = useCallback(async () => {
    try {
      setRows((await api.get<{ data: DomainHttps[] }>('/api/https/services/manager', { bucket_name: bucketName })).data);
      setFailure(null);
    } catch (e) {
      setFailure(failureText(e));
    }
  }, [bucketName]);

  useEffect(() => {
    void load();
  }, [load]);

  async function toggle(row: DomainHttps, change: HttpsChange, gmConfirmed = false) {
    if (locked) return notify(locked, 'danger');
    const next = { ...row, ...change };
    if (change.force_https) next.https = true;
    if (change.https === false) next.force_https = false;
    // turning HTTPS on with a GM certificate asks first, as the dialog does
    if (!row.https && next.https && row.certificate?.gm && !gmConfirmed) return setConfirmGm({ row, change });
    setRows((rs) => rs!.map((r) => (r.domain === row.domain ? next : r)));
    try {
      await api.post('/api/https/certificate/manager', { domain: row.domain, certificate_id: row.certificate_id, https: next.https, force_https: next.force_https });
      notify('配置成功', 'success');
      await load();
    } catch (e) {
      // the toggle goes back and says why
      setRows((rs) => rs!.map((r) => (r.domain === row.domain ? row : r)));
      notify(failureText(e), 'danger');
    }
  }

  return (
    <Card className="setting-panel domain-https-panel" data-panel="domain-https">
      <div className="setting-panel-head">
        <H5 className="setting-panel-title">域名 HTTPS</H5>
        <span className="setting-panel-actions">
          <Link to="/toolbox/ssl/">管理证书</Link>
        </span>
      </div>
      {failure && <Callout intent="danger">{failure}</Callout>}
      {rows === null ? (
        !failure && <Spinner size={20} />
      ) : rows.length === 0 ? (
        <p className="muted">该服务还没有绑定域名。</p>
      ) : (
        <HTMLTable compact className="domain-https-table">
          <thead>
            <tr>
              <th>域名</th>
              <th>证书</th>
              <th>HTTPS</th>
              <th>强制 HTTPS</th>
              <th>操作</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.domain} data-domain={r.domain}>
                <td>{r.domain}</td>
                <td>
                  {r.certificate ? (
                    <>
                      {r.certificate.common_name} <Tag minimal intent={r.certificate.days_left <= 30 ? 'warning' : 'none'}>剩余 {r.certificate.days_left} 天</Tag>
                    </>
                  ) : (
                    <span className="muted">未配置</span>
                  )}
                </td>
                <td>
                  <Switch className="https-switch" checked={r.https} aria-label={`${r.domain} HTTPS`} onChange={() => toggle(r, { https: !r.https })} />
                </td>
                <td>
                  <Switch className="force-switch" checked={r.force_https} aria-label={`${r.domain} 强制 HTTPS`} onChange={() => toggle(r, { force_https: !r.force_https })} />
                </td>
                <td>
                  <Button variant="minimal" intent="primary" text="配置" onClick={() => (locked ? notify(locked, 'danger') : setManaging(r))} />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <GmConfirm
        isOpen={confirmGm !== null}
        onCancel={() => setConfirmGm(null)}
        onConfirm={() => {
          const pending = confirmGm;
          setConfirmGm(null);
          if (pending) void toggle(pending.row, pending.change, true);
        }}
      />
      {managing && (
        <ManageDialog
          row={managing}
          onClose={() => setManaging(null)}
          onSaved={async () => {
            setManaging(null);
            notify('配置成功', 'success');
            await load();
          }}
        />
      )}
    </Card>
  );
}

function ManageDialog({ row, onClose, onSaved }: { row: DomainHttps; onClose(): void; onSaved(): void }) {
  const [certs, setCerts] = useState<CertificateInfo[] | null>(null);
  const [certificateId, setCertificateId] = useState<number | null>(row.certificate_id);
  const [https, setHttps] = useState(row.https);
  const [force, setForce] = useState(row.force_https);
  const [failure, setFailure] = useState<string | null>(null);
  const [confirmGm, setConfirmGm] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    api.get<{ data: CertificateInfo[] }>('/api/https/certificate/search', { domain: row.domain }).then(
      (r) => {
        setCerts(r.data);
        if (!certificateId && r.data[0]) setCertificateId(r.data[0].certificate_id);
      },
      (e) => setFailure(failureText(e)),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [row.domain]);

  const chosen = certs?.find((c) => c.certificate_id === certificateId);

  async function save(gmConfirmed = false) {
    if (https && chosen?.gm && !gmConfirmed) return setConfirmGm(true);
    setSaving(true);
    setFailure(null);
    try {
      await api.post('/api/https/certificate/manager', { domain: row.domain, certificate_id: certificateId, https, force_https: https && force });
      onSaved();
    } catch (e) {
      setFailure(failureText(e));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog isOpen title={`HTTPS 配置：${row.domain}`} onClose={onClose} className="setting-dialog">
      <DialogBody>
        {failure && (
          <Callout intent="danger" className="setting-failure" role="alert">
            {failure}
          </Callout>
        )}
        <FormGroup label="证书" labelFor="https-certificate" helperText={certs && certs.length === 0 ? '没有包含该域名的证书，请先在 SSL 证书中上传' : undefined}>
          {certs === null ? (
            <Spinner size={16} />
          ) : (
            <HTMLSelect id="https-certificate" value={certificateId ?? ''} onChange={(e) => setCertificateId(e.target.value ? Number(e.target.value) : null)}>
              <option value="">请选择证书</option>
              {certs.map((c) => (
                <option key={c.certificate_id} value={c.certificate_id}>
                  {c.common_name}（{c.issuer}，剩余 {c.days_left} 天{c.gm ? '，国密' : ''}）
                </option>
              ))}
            </HTMLSelect>
          )}
        </FormGroup>
        <Switch label="开启 HTTPS" checked={https} onChange={() => (setHttps(!https), https && setForce(false))} />
        <Switch label="强制 HTTPS（HTTP 请求跳转到 HTTPS）" checked={force} onChange={() => (setForce(!force), !force && setHttps(true))} />
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>取消</Button>
            <Button intent="primary" loading={saving} onClick={() => save()} className="https-confirm">
              确定
            </Button>
          </>
        }
      />
      <GmConfirm isOpen={confirmGm} onCancel={() => setConfirmGm(false)} onConfirm={() => (setConfirmGm(false), void save(true))} />
    </Dialog>
  );
}
