/**
 * /toolbox/ssl/manage_default/ (spec 002 §2): HTTPS of every service's default domain, served with
 * the platform's certificate. Turning HTTPS off clears force HTTPS, forcing turns HTTPS on; a failed
 * toggle reverts and shows the message (spec 002 §4).
 */
import { useCallback, useEffect, useState } from 'react';
import { Button, Callout, H3, HTMLTable, NonIdealState, Spinner, Switch } from '@blueprintjs/core';
import { useNavigate } from 'react-router-dom';
import { api, failureText } from '../api/client';
import { notify } from '../common/toaster';

interface Row {
  bucket_name: string;
  kind: string;
  domain: string;
  https: boolean;
  force_https: boolean;
}

export default function DefaultDomainPage() {
  const [rows, setRows] = useState<Row[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const navigate = useNavigate();

  const load = useCallback(async () => {
    try {
      const res = await api.get<{ data: Row[] }>('/api/https/domain/default/manager/');
      setRows(res.data);
    } catch (e) {
      setFailure(failureText(e));
      setRows([]);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  async function toggle(row: Row, next: { https: boolean; force_https: boolean }) {
    const before = rows;
    // optimistic, reverted on failure
    setRows((rs) => rs!.map((r) => (r.bucket_name === row.bucket_name ? { ...r, https: next.https || next.force_https, force_https: next.force_https && (next.https || next.force_https) } : r)));
    setBusy(row.bucket_name);
    setFailure(null);
    try {
      const res = await api.post<{ data: Row }>('/api/https/domain/default/manager/', { bucket_name: row.bucket_name, ...next });
      setRows((rs) => rs!.map((r) => (r.bucket_name === row.bucket_name ? { ...r, https: res.data.https, force_https: res.data.force_https } : r)));
      notify('配置成功', 'success');
    } catch (e) {
      setRows(before);
      setFailure(failureText(e));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="default-domain-page">
      <div className="page-head">
        <H3>默认域名 HTTPS</H3>
        <Button icon="arrow-left" variant="minimal" onClick={() => navigate('/toolbox/ssl/')} style={{ marginLeft: 'auto' }}>
          返回证书管理
        </Button>
      </div>
      <Callout intent="primary" className="setting-help">
        默认域名使用平台证书，无需上传；开启强制 HTTPS 后，HTTP 请求将跳转到 HTTPS。
      </Callout>
      {failure && (
        <Callout intent="danger" role="alert">
          {failure}
        </Callout>
      )}
      {rows === null ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <NonIdealState icon="globe" title="暂无服务" />
      ) : (
        <HTMLTable className="service-table default-domain-table" striped>
          <thead>
            <tr>
              <th>服务名称</th>
              <th>默认域名</th>
              <th>HTTPS</th>
              <th>强制 HTTPS</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.bucket_name} data-bucket={r.bucket_name}>
                <td>{r.bucket_name}</td>
                <td className="mono">{r.domain}</td>
                <td>
                  <Switch checked={r.https} disabled={busy === r.bucket_name} aria-label={`${r.domain} HTTPS`} onChange={(e) => toggle(r, { https: e.currentTarget.checked, force_https: e.currentTarget.checked && r.force_https })} />
                </td>
                <td>
                  <Switch checked={r.force_https} disabled={busy === r.bucket_name} aria-label={`${r.domain} 强制 HTTPS`} onChange={(e) => toggle(r, { https: r.https || e.currentTarget.checked, force_https: e.currentTarget.checked })} />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </div>
  );
}
