/**
 * The apply tab of /toolbox/ssl/?active=apply: free certificates (Let's Encrypt, TrustAsia, Racent)
 * issued over ACME by the server (docs/certificates.md), with the list of applications.
 * Racent first runs the pre-domain-check (predcv), then applies with its apply_id.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, Callout, Card, H5, HTMLTable, NonIdealState, Spinner, Tag, type Intent } from '@blueprintjs/core';
import freeSchema from '../../../schemas/forms/certificate_free/schema.json';
import freeUi from '../../../schemas/forms/certificate_free/ui.json';
import { DeclarationForm } from '../../../renderers/DeclarationForm';
import { CursorPagerButtons } from '../../../renderers/CursorPager';
import { api, failureText } from '../api/client';
import { notify } from '../common/toaster';
import { FREE_AGENTS, SSLPACK_LINK, type ApplyStatus, type CertificateApplication, type FreeAgent } from '../../shared/certificates';
import { Link } from 'react-router-dom';
import type { CursorPager } from '../../shared/buckets';
import { formatAt } from '../../shared/format';

const STATUS_INTENT: Record<ApplyStatus, Intent> = { dcv: 'warning', pending: 'primary', processing: 'primary', issued: 'success', failed: 'danger' };
const CALL: Record<FreeAgent, string> = {
  letsencrypt: '/api/https/letsencrypt',
  trustasia: '/api/https/trustasia',
  racent: '/api/https/racent/certificate/free/predcv',
};

export function FreeApplyPanel({ onIssued }: { onIssued?(): void }) {
  const [formData, setFormData] = useState<Record<string, unknown>>({ agent: 'letsencrypt', domains: [] });
  const [valid, setValid] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [predcv, setPredcv] = useState<CertificateApplication | null>(null);
  const [rows, setRows] = useState<CertificateApplication[] | null>(null);
  const [used, setUsed] = useState<{ free_used: number; free_limit: number; pack_remain: number } | null>(null);
  const [pager, setPager] = useState<CursorPager>({ since: null, max: null });
  const [cursor, setCursor] = useState<{ since?: number; max?: number }>({});
  const formRef = useRef<any>(null);
  // the domain text area keeps what was typed: a new generation empties it after a submission
  const [generation, setGeneration] = useState(0);

  const load = useCallback(async () => {
    try {
      const res = await api.get<{ data: CertificateApplication[]; pager: CursorPager; free_used: number; free_limit: number; pack_remain: number }>('/api/https/apply/certificate_list/', { limit: 10, ...cursor });
      setRows(res.data);
      setPager(res.pager);
      setUsed({ free_used: res.free_used, free_limit: res.free_limit, pack_remain: res.pack_remain });
    } catch (e) {
      setFailure(failureText(e));
      setRows([]);
    }
  }, [cursor]);

  useEffect(() => {
    void load();
  }, [load]);

  async function submit() {
    if (!formRef.current?.validateForm()) return;
    setSaving(true);
    setFailure(null);
    try {
      const agent = formData.agent as FreeAgent;
      // TrustAsia: the checks first (spec 002 §7 /api/https/trustasia/validate), so a refusal stores nothing
      if (agent === 'trustasia') await api.post('/api/https/trustasia/validate', { domains: formData.domains });
      const res = await api.post<{ data: CertificateApplication }>(CALL[agent], formData);
      if (agent === 'racent') setPredcv(res.data);
      else notify('申请已提交，证书签发后将出现在证书列表中', 'success');
      setFormData({ agent, domains: [] });
      setGeneration((g) => g + 1);
      setValid(false);
      await load();
    } catch (e) {
      setFailure(failureText(e));
    } finally {
      setSaving(false);
    }
  }

  async function confirmRacent() {
    if (!predcv) return;
    try {
      await api.post('/api/https/racent/certificate/free/apply', { apply_id: predcv.apply_id });
      notify('申请已提交，证书签发后将出现在证书列表中', 'success');
      setPredcv(null);
      await load();
    } catch (e) {
      setFailure(failureText(e));
    }
  }

  return (
    <div className="free-apply">
      <Card className="free-apply-form">
        <H5>申请免费证书</H5>
        {used && (
          <p className="muted free-quota">
            已申请 {used.free_used} / {used.free_limit} 张免费证书
            {(used.pack_remain > 0 || used.free_used >= used.free_limit) && (
              <>
                ，超出部分使用免费证书续期包（剩余 {used.pack_remain} 张）
                <Link to={SSLPACK_LINK} className="free-pack-link">
                  购买续期包
                </Link>
              </>
            )}
          </p>
        )}
        <DeclarationForm
          key={generation}
          formRef={formRef}
          schema={freeSchema}
          ui={freeUi}
          formData={formData}
          onChange={(data, e) => {
            setFormData(data);
            setValid((e.errors ?? []).length === 0 && Array.isArray(data.domains) && data.domains.length > 0);
          }}
        />
        {failure && (
          <Callout intent="danger" role="alert" className="free-apply-failure">
            {failure}
          </Callout>
        )}
        {predcv ? (
          <Callout intent="warning" className="free-apply-predcv" title={`预验证已通过，申请编号 ${predcv.apply_id}`}>
            <p>
              请确认 {predcv.domains.join('，')} 已解析到 CDN；签发时证书机构将访问 http://域名{predcv.dcv_path}… 完成验证。
            </p>
            <Button intent="primary" onClick={confirmRacent} className="free-apply-confirm">
              提交申请
            </Button>
          </Callout>
        ) : (
          <Button intent="primary" onClick={submit} disabled={!valid} loading={saving} className="free-apply-submit">
            申请
          </Button>
        )}
      </Card>
      <div className="page-head">
        <H5>申请记录</H5>
        <Button icon="refresh" variant="minimal" onClick={() => load().then(onIssued)} style={{ marginLeft: 'auto' }} aria-label="刷新" />
      </div>
      {rows === null ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <NonIdealState icon="lock" title="暂无申请记录" />
      ) : (
        <HTMLTable className="service-table apply-table" striped>
          <thead>
            <tr>
              <th>申请编号</th>
              <th>品牌</th>
              <th>域名</th>
              <th>状态</th>
              <th>到期时间</th>
              <th>申请时间</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.apply_id}>
                <td>{r.apply_id}</td>
                <td>{FREE_AGENTS[r.agent]?.label ?? r.agent}</td>
                <td>{r.domains.join('，')}</td>
                <td>
                  <Tag intent={STATUS_INTENT[r.status]} minimal className="apply-status">
                    {r.status_text}
                  </Tag>
                  {r.status === 'failed' && r.error && <div className="muted apply-error">{r.error}</div>}
                </td>
                <td>{r.valid_to ? formatAt(r.valid_to, 'YYYY-MM-DD') : '-'}</td>
                <td>{formatAt(r.created_at, 'YYYY-MM-DD HH:mm')}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <CursorPagerButtons pager={pager} onCursor={setCursor} />
    </div>
  );
}
