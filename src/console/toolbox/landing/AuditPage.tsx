/**
 * Content audit in the console (toolbox.audit; docs/external-products.md "Content audit"): the product,
 * the way to the external audit console (for accounts holding an audit account), content audit per
 * service (main accounts switch it), and the audit records with their review state.
 */
import { useEventOnOpen } from '../../api/events';
import { useCallback, useEffect, useState } from 'react';
import { useAtomValue, useSetAtom } from 'jotai';
import { Button, ButtonGroup, Callout, Card, H3, H5, HTMLSelect, HTMLTable, NonIdealState, Switch, Tag, type Intent } from '@blueprintjs/core';
import { businessTypeAtom, sessionAtom } from '../../state';
import { api, failureText } from '../../api/client';
import { alert, notify } from '../../common/toaster';
import { useExternalEntry } from '../../external/useExternalEntry';
import { ConfirmOperation } from '../../external/Notices';
import { AUDIT_LABELS, AUDIT_MEDIA, AUDIT_PAGE_SIZE, AUDIT_REVIEW_STATES, type AuditRecord, type AuditService } from '../../../shared/external';
import type { CursorPager } from '../../../shared/buckets';
import './landing.css';
import { formatAt } from '../../../shared/format';

const STATE_INTENT: Record<string, Intent> = { pending: 'warning', passed: 'success', blocked: 'danger' };

export default function AuditPage() {
  const session = useAtomValue(sessionAtom);
  const isMain = session.status === 'signedIn' && !session.user.child;
  const setBusinessType = useSetAtom(businessTypeAtom);
  useEffect(() => setBusinessType(null), [setBusinessType]);
  useEventOnOpen('usage', 'audit');
  const [closed, setClosed] = useState(false);
  const { enter, busy, promptElement } = useExternalEntry('audit', () => setClosed(true));
  const [services, setServices] = useState<AuditService[] | null>(null);
  const [state, setState] = useState('');
  const [cursor, setCursor] = useState<{ since?: number; max?: number }>({});
  const [records, setRecords] = useState<{ records: AuditRecord[]; pager: CursorPager } | null>(null);
  const [confirm, setConfirm] = useState<{ id: number; review_state: 'passed' | 'blocked' } | null>(null);

  const loadServices = useCallback(() => {
    api.get<{ data: { services: AuditService[] } }>('/api/audit/services').then((r) => setServices(r.data.services), (e) => alert({ text: failureText(e), severity: 'error' }));
  }, []);
  const loadRecords = useCallback(() => {
    api
      .get<{ data: { records: AuditRecord[]; pager: CursorPager } }>('/api/audit/records', { limit: AUDIT_PAGE_SIZE, review_state: state || undefined, ...cursor })
      .then((r) => setRecords(r.data), (e) => alert({ text: failureText(e), severity: 'error' }));
  }, [state, cursor]);
  useEffect(loadServices, [loadServices]);
  useEffect(loadRecords, [loadRecords]);

  async function toggle(s: AuditService) {
    try {
      await api.post('/api/audit/services', { bucket_name: s.bucket_name, enabled: !s.enabled });
      notify(s.enabled ? '已关闭内容审核' : '已开通内容审核');
      loadServices();
    } catch (e) {
      alert({ text: failureText(e), severity: 'error' });
    }
  }

  return (
    <div className="toolbox-landing audit-page">
      <H3>内容审核</H3>
      <p className="landing-summary">图片、视频与文本的涉黄、涉政、暴恐与广告识别；为服务开通后，新上传的内容自动送审，疑似内容需人工复审。</p>
      <div className="landing-actions">
        <Button intent="primary" text="进入审核控制台" loading={busy} onClick={() => void enter()} />
        {promptElement}
        {closed && (
          <Callout intent="primary" className="landing-closed">
            您尚未开通外部审核控制台账号，可在本页管理审核服务与审核记录；如需开通请提交工单联系我们。
          </Callout>
        )}
      </div>

      <Card className="audit-services">
        <H5>审核服务</H5>
        {!services ? null : services.length === 0 ? (
          <NonIdealState icon="search" title="暂无可开通内容审核的服务" description="内容审核可用于云存储与 CDN 服务。" />
        ) : (
          <HTMLTable compact striped>
            <thead>
              <tr>
                <th>服务名称</th>
                <th>类型</th>
                <th>内容审核</th>
                <th>开通时间</th>
              </tr>
            </thead>
            <tbody>
              {services.map((s) => (
                <tr key={s.bucket_name}>
                  <td>{s.bucket_name}</td>
                  <td>{s.kind === 'file' ? '云存储' : 'CDN'}</td>
                  <td>
                    <Switch checked={s.enabled} disabled={!isMain} label={s.enabled ? '已开通' : '未开通'} aria-label={`${s.bucket_name} 内容审核`} onChange={() => void toggle(s)} />
                  </td>
                  <td>{s.enabled_at ? formatAt(s.enabled_at, 'YYYY-MM-DD HH:mm') : '-'}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </Card>

      <Card className="audit-records">
        <H5>审核记录</H5>
        <HTMLSelect
          aria-label="复审状态"
          value={state}
          onChange={(e) => {
            setState(e.currentTarget.value);
            setCursor({});
          }}
          options={[{ value: '', label: '全部状态' }, ...Object.entries(AUDIT_REVIEW_STATES).map(([value, label]) => ({ value, label }))]}
        />
        {records && records.records.length === 0 ? (
          <NonIdealState icon="inbox" title="暂无审核记录" />
        ) : (
          <HTMLTable compact striped className="audit-record-table">
            <thead>
              <tr>
                <th>内容</th>
                <th>服务</th>
                <th>类型</th>
                <th>识别结果</th>
                <th>置信度</th>
                <th>复审状态</th>
                <th>时间</th>
                <th>操作</th>
              </tr>
            </thead>
            <tbody>
              {records?.records.map((r) => (
                <tr key={r.id}>
                  <td>{r.url}</td>
                  <td>{r.bucket_name}</td>
                  <td>{AUDIT_MEDIA[r.media] ?? r.media}</td>
                  <td>{AUDIT_LABELS[r.label] ?? r.label}</td>
                  <td>{r.confidence}%</td>
                  <td>
                    <Tag intent={STATE_INTENT[r.review_state]}>{AUDIT_REVIEW_STATES[r.review_state] ?? r.review_state}</Tag>
                  </td>
                  <td>{formatAt(r.created_at, 'YYYY-MM-DD HH:mm')}</td>
                  <td>
                    {r.review_state === 'pending' && (
                      <ButtonGroup variant="minimal">
                        <Button intent="success" text="通过" onClick={() => setConfirm({ id: r.id, review_state: 'passed' })} />
                        <Button intent="danger" text="屏蔽" onClick={() => setConfirm({ id: r.id, review_state: 'blocked' })} />
                      </ButtonGroup>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
        {records && (
          <ButtonGroup className="recommendation-pager">
            <Button icon="chevron-left" text="上一页" disabled={records.pager.since === null} onClick={() => setCursor({ since: records.pager.since! })} />
            <Button endIcon="chevron-right" text="下一页" disabled={records.pager.max === null} onClick={() => setCursor({ max: records.pager.max! })} />
          </ButtonGroup>
        )}
      </Card>
      <ConfirmOperation
        isOpen={confirm !== null}
        intent={confirm?.review_state === 'blocked' ? 'danger' : 'primary'}
        text={confirm?.review_state === 'blocked' ? '确定屏蔽该内容吗？' : '确定复审通过该内容吗？'}
        onClose={() => setConfirm(null)}
        onConfirm={async () => {
          try {
            await api.post('/api/audit/records/review', confirm);
            notify('复审成功');
            loadRecords();
          } catch (e) {
            alert({ text: failureText(e), severity: 'error' });
          }
        }}
      />
    </div>
  );
}
