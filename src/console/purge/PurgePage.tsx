/**
 * Purge and preheat (spec 002): /purge/purge_url/, purge_rule/, purge_preheat/ and purge_log/
 * (query urlNumber, code, firstDomain). The forms are the declarations of schemas/forms, rendered by
 * the engine; after a submission the console goes to the log (provider facts: "jumps to the operation
 * records"), which follows the tasks until the edge reports them: 成功 with what it removed, or 失败 with
 * the reason (docs/operations-tools.md "Purge and preheat").
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { Button, Callout, Card, H3, HTMLSelect, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { Tab, Tabs } from '../common/Tabs';
import purgeUrlSchema from '../../../schemas/forms/purge_url/schema.json';
import purgeUrlUi from '../../../schemas/forms/purge_url/ui.json';
import purgeRuleSchema from '../../../schemas/forms/purge_rule/schema.json';
import purgeRuleUi from '../../../schemas/forms/purge_rule/ui.json';
import preheatSchema from '../../../schemas/forms/preheat/schema.json';
import preheatUi from '../../../schemas/forms/preheat/ui.json';
import { DeclarationForm } from '../../../renderers/DeclarationForm';
import { api, ApiFailure, failureText } from '../api/client';
import { useLoaded } from '../common/useList';
import type { FieldError } from '../../shared/errors';
import { PURGE_KIND_LABELS, PURGE_STATUS_LABELS, PURGE_TEXTS, type PurgeKind, type PurgeQuota, type PurgeTask } from '../../shared/purge';
import { formatCount, formatAt } from '../../shared/format';
import { PagePager } from '../../../renderers/PagePager';

interface FormDef {
  kind: PurgeKind;
  tab: string;
  schema: object;
  ui: Record<string, unknown>;
  field: 'urls' | 'rules';
  url: string;
  notes: string[];
}

const FORMS: FormDef[] = [
  { kind: 'url', tab: 'purge_url', schema: purgeUrlSchema, ui: purgeUrlUi, field: 'urls', url: '/api/purge/', notes: ['URL 刷新会删除 CDN 节点上的缓存文件，用户下次访问时回源获取最新内容。', '刷新约 5 - 10 分钟全网生效，同一 URL 10 分钟内只能刷新一次。'] },
  { kind: 'rule', tab: 'purge_rule', schema: purgeRuleSchema, ui: purgeRuleUi, field: 'rules', url: '/api/buckets/purge/', notes: ['规则刷新按目录或通配符刷新一批文件，约 10 分钟内生效（源站为本平台云存储时约 1 小时）。', '同一规则每天最多刷新 5 次。'] },
  { kind: 'preheat', tab: 'purge_preheat', schema: preheatSchema, ui: preheatUi, field: 'urls', url: '/api/preheat', notes: ['预热会提前把文件缓存到 CDN 节点，适合新版本发布、大文件下载前使用。', '一次预热大量文件会增加源站压力，请分批提交。'] },
];

const TABS = [...FORMS.map((f) => ({ id: f.tab, title: PURGE_KIND_LABELS[f.kind] })), { id: 'purge_log', title: '操作记录' }];

function QuotaTag({ quota }: { quota?: PurgeQuota }) {
  if (!quota) return null;
  return (
    <Tag minimal intent={quota.remaining === 0 ? 'danger' : 'none'} className="purge-quota">
      今日剩余 {formatCount(quota.remaining)} / {formatCount(quota.limit)} 条
    </Tag>
  );
}

export default function PurgePage() {
  const { tab = 'purge_url' } = useParams();
  const navigate = useNavigate();
  const [quotas, setQuotas] = useState<PurgeQuota[]>([]);

  const loadQuotas = useCallback(async () => {
    try {
      setQuotas((await api.get<{ quota: PurgeQuota[] }>('/api/purge/list', { limit: 1 })).quota);
    } catch {
      /* the forms still work; the server enforces the quota */
    }
  }, []);
  useEffect(() => {
    void loadQuotas();
  }, [loadQuotas, tab]);

  const form = FORMS.find((f) => f.tab === tab);
  return (
    <div className="purge-page">
      <div className="page-head">
        <H3>刷新预热</H3>
      </div>
      <Tabs id="purge-tabs" selectedTabId={tab} onChange={(id) => navigate(`/purge/${id}/`)} large>
        {TABS.map((t) => (
          <Tab key={t.id} id={t.id} title={t.title} />
        ))}
      </Tabs>
      <div className="tab-content">
        {form ? <PurgeForm key={form.kind} def={form} quota={quotas.find((q) => q.kind === form.kind)} /> : <PurgeLog onQuota={setQuotas} />}
      </div>
    </div>
  );
}

function PurgeForm({ def, quota }: { def: FormDef; quota?: PurgeQuota }) {
  const navigate = useNavigate();
  const [formData, setFormData] = useState<Record<string, unknown>>({ [def.field]: [] });
  const [failure, setFailure] = useState<{ message: string; errors: FieldError[] } | null>(null);
  const [saving, setSaving] = useState(false);
  const formRef = useRef<any>(null);

  async function submit() {
    setFailure(null);
    if (!formRef.current?.validateForm()) return;
    setSaving(true);
    try {
      const res = await api.post<{ data: { count: number; first_domain: string } }>(def.url, formData);
      // how many domains the submitted lines name: the notice says 等 only when there are several
      const lines = (formData[def.field] as string[] | undefined) ?? [];
      const domains = new Set(lines.map((l) => /^[a-z]+:\/\/([^/:?#]+)/i.exec(l.trim())?.[1]?.toLowerCase() ?? l)).size;
      navigate(`/purge/purge_log/?urlNumber=${res.data.count}&code=0&firstDomain=${encodeURIComponent(res.data.first_domain)}&domains=${domains}&kind=${def.kind}`);
    } catch (e) {
      setFailure({ message: failureText(e), errors: e instanceof ApiFailure ? e.errors : [] });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card className="purge-form">
      <div className="setting-panel-head">
        <span className="purge-form-title">{PURGE_KIND_LABELS[def.kind]}</span>
        <QuotaTag quota={quota} />
      </div>
      <div className="setting-help">
        {def.notes.map((n) => (
          <p key={n}>{n}</p>
        ))}
      </div>
      {failure && (
        <Callout intent="danger" className="setting-failure" role="alert">
          {failure.message}
          {failure.errors.map((e) => (
            <div key={e.path + e.message}>{e.message}</div>
          ))}
        </Callout>
      )}
      <DeclarationForm formRef={formRef} schema={def.schema} ui={def.ui} formData={formData} errors={failure?.errors} onChange={(data) => setFormData(data)} />
      <Button intent="primary" onClick={submit} loading={saving} disabled={quota?.remaining === 0} className="purge-submit">
        提交
      </Button>
    </Card>
  );
}

/** What the edge did, as the log's last column says it. */
function outcomeOf(r: PurgeTask): string {
  if (r.status === 'failed') return r.message ?? '';
  if (r.status !== 'success') return '-';
  return r.kind === 'preheat' ? PURGE_TEXTS.cached : PURGE_TEXTS.removed(r.removed ?? 0);
}

function PurgeLog({ onQuota }: { onQuota(q: PurgeQuota[]): void }) {
  const [params] = useSearchParams();
  const [kind, setKind] = useState<string>(params.get('kind') ?? '');
  const [page, setPage] = useState(1);
  const [pager, setPager] = useState({ total: 0, page: 1, pages: 1 });
  const submitted = params.get('urlNumber');

  const { data: rows, failure, reload: load } = useLoaded(
    async () => {
      const res = await api.get<{ data: PurgeTask[]; pager: typeof pager; quota: PurgeQuota[] }>('/api/purge/list', { page, limit: 20, ...(kind ? { kind } : {}) });
      setPager(res.pager);
      onQuota(res.quota);
      return res.data;
    },
    [kind, page, onQuota],
    [],
  );
  // follow the tasks while any is still being processed
  const waiting = rows?.some((r) => r.status === 'waiting');
  useEffect(() => {
    if (!waiting) return;
    const t = setInterval(() => void load(), 2000);
    return () => clearInterval(t);
  }, [waiting, load]);

  return (
    <Card className="purge-log">
      {submitted && params.get('code') === '0' && (
        <Callout intent="success" className="purge-submitted">
          已提交 {submitted} 条任务（{params.get('firstDomain')}{Number(params.get('domains') ?? 2) > 1 ? ' 等' : ''}），处理进度见下表，记录保留 3 天。
        </Callout>
      )}
      <div className="purge-log-filters">
        <HTMLSelect value={kind} onChange={(e) => (setKind(e.target.value), setPage(1))} aria-label="任务类型">
          <option value="">全部类型</option>
          {(Object.keys(PURGE_KIND_LABELS) as PurgeKind[]).map((k) => (
            <option key={k} value={k}>
              {PURGE_KIND_LABELS[k]}
            </option>
          ))}
        </HTMLSelect>
        <Button icon="refresh" variant="minimal" onClick={() => void load()} aria-label="刷新列表" />
      </div>
      {failure && <Callout intent="danger">{failure}</Callout>}
      {rows === null ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <NonIdealState icon="history" title="暂无记录" description="近 3 天提交的刷新与预热任务会显示在这里。" />
      ) : (
        <HTMLTable className="service-table purge-table" striped>
          <thead>
            <tr>
              <th>类型</th>
              <th>URL / 规则</th>
              <th>状态</th>
              <th>提交时间</th>
              <th>完成时间</th>
              <th>结果</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>{PURGE_KIND_LABELS[r.kind]}</td>
                <td className="mono">{r.target}</td>
                <td>
                  <Tag minimal intent={r.status === 'success' ? 'success' : r.status === 'failed' ? 'danger' : 'primary'}>{PURGE_STATUS_LABELS[r.status]}</Tag>
                </td>
                <td>{formatAt(r.created_at, 'YYYY-MM-DD HH:mm:ss')}</td>
                <td>{r.finished_at ? formatAt(r.finished_at, 'YYYY-MM-DD HH:mm:ss') : '-'}</td>
                <td className="purge-outcome">{outcomeOf(r)}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <PagePager pager={pager} page={page} onPage={setPage} />
    </Card>
  );
}
