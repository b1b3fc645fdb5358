/**
 * The domains tab of a service page (docs/service-tabs.md): the service's domains 15 a page with the
 * CNAME each must point to and whether it does, searching, adding (the add_domain declaration) and
 * removing, at most 10 per service; the default domain for the exempt accounts and buckets. An account
 * without real-name verification gets the real-name prompt (spec 000 §2.9) instead of the add form: the
 * server refuses the binding with 22005 anyway (docs/security.md "Domain ownership").
 */
import { recordEvent } from '../api/events';
import { useCallback, useEffect, useState } from 'react';
import { useAtomValue } from 'jotai';
import { Alert, Button, Callout, Card, H5, HTMLTable, InputGroup, NonIdealState, Spinner, Tag, type Intent } from '@blueprintjs/core';
import addDomainSchema from '../../../schemas/forms/add_domain/schema.json';
import addDomainUi from '../../../schemas/forms/add_domain/ui.json';
import { CursorPagerButtons } from '../../../renderers/CursorPager';
import { validator } from '../../../renderers/theme';
import { api, failureText } from '../api/client';
import { FormDialog } from '../common/FormDialog';
import { notify } from '../common/toaster';
import type { CursorPager } from '../../shared/buckets';
import { SEARCH_DEBOUNCE_MS } from '../../shared/services';
import { CNAME_STATUS_TEXTS, DOMAIN_PAGE_SIZE, DOMAIN_TEXTS, domainText, type CnameStatus, type DomainEntry } from '../../shared/domains';
import { formatAt } from '../../shared/format';
import { isChild } from '../../shared/permissions';
import type { CurrentUser } from '../../shared/account';
import { sessionAtom } from '../state';
import { RealnamePrompt } from '../common/RealnamePrompt';

/**
 * Whether binding a domain waits for real-name verification, as the console can tell: a main account's own
 * verify_status. A sub-account acts for its main account, which the console does not see (a sub-account
 * exists only under a verified one): the server decides for it (src/server/accounts/realname.ts).
 */
export function bindNeedsRealName(user: CurrentUser | null): boolean {
  return user !== null && !isChild(user) && user.verify_status !== 'yes';
}

interface ListAnswer { data: DomainEntry[]; pager: CursorPager; total: number; limit: number; default_domain: string | null }

const STATUS_INTENT: Record<CnameStatus, Intent> = { ok: 'success', mismatch: 'warning', missing: 'warning', timeout: 'none', error: 'danger' };

function CnameState({ entry }: { entry: DomainEntry }) {
  if (!entry.check) return <span className="muted">未检查</span>;
  const tip = entry.check.resolved.length ? `当前指向：${entry.check.resolved.join('、')}` : undefined;
  return (
    <Tag minimal intent={STATUS_INTENT[entry.check.status]} title={tip} className={`cname-${entry.check.status}`}>
      {CNAME_STATUS_TEXTS[entry.check.status]}
    </Tag>
  );
}

/** A live service's domain as its 推流与播放域名 setting uses it (live_domain: push_domain, play_domains). */
const LIVE_ROLES = { push: '推流域名', play: '播放域名', none: '未使用' } as const;

export function DomainsTab({ bucketName, locked, live = false, kind }: { bucketName: string; locked?: string; live?: boolean; kind?: string }) {
  const [answer, setAnswer] = useState<ListAnswer | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [term, setTerm] = useState('');
  const [cursor, setCursor] = useState<{ since?: number; max?: number }>({});
  const [checking, setChecking] = useState(false);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<DomainEntry | null>(null);
  const session = useAtomValue(sessionAtom);
  const needsRealName = bindNeedsRealName(session.status === 'signedIn' ? session.user : null);
  const [realnamePrompt, setRealnamePrompt] = useState(false);
  // live: which domain pushes and which play (GET /api/settings/live_domain/), set on the 基础配置 tab
  const [liveUse, setLiveUse] = useState<{ push_domain: string; play_domains: string[] } | null>(null);
  useEffect(() => {
    if (!live) return;
    api
      .get<{ data: { push_domain: string; play_domains: string[] } }>('/api/settings/live_domain/', { bucket_name: bucketName })
      .then((r) => setLiveUse(r.data))
      .catch(() => setLiveUse(null));
  }, [live, bucketName]);
  const roleOf = (domain: string) => (liveUse?.push_domain === domain ? LIVE_ROLES.push : liveUse?.play_domains.includes(domain) ? LIVE_ROLES.play : LIVE_ROLES.none);

  const load = useCallback(
    async (check = false) => {
      try {
        const res = await api.get<ListAnswer>('/api/account/domains/', { bucket_name: bucketName, limit: DOMAIN_PAGE_SIZE, ...(term ? { domain: term } : {}), ...cursor, ...(check ? { check: true } : {}) });
        setAnswer(res);
        setFailure(null);
      } catch (e) {
        setFailure(failureText(e));
      }
    },
    [bucketName, term, cursor],
  );

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    const t = setTimeout(() => {
      setTerm(search.trim());
      setCursor({});
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [search]);

  async function checkAll() {
    setChecking(true);
    await load(true);
    setChecking(false);
  }

  async function checkOne(entry: DomainEntry) {
    try {
      const res = await api.get<{ data: DomainEntry }>('/api/account/domains/cname/', { bucket_name: bucketName, domain: entry.domain });
      setAnswer((a) => a && { ...a, data: a.data.map((d) => (d.domain === entry.domain ? { ...d, check: res.data.check } : d)) });
    } catch (e) {
      notify(failureText(e), 'danger');
    }
  }

  async function remove(entry: DomainEntry) {
    try {
      await api.del('/api/account/domains/', { bucket_name: bucketName, domain: entry.domain });
      notify(DOMAIN_TEXTS.removed, 'success');
      await load();
    } catch (e) {
      notify(failureText(e), 'danger');
    }
  }

  const full = answer ? answer.total >= answer.limit : true;
  return (
    <Card className="setting-panel domains-panel" data-panel="domains">
      <div className="setting-panel-head">
        <H5 className="setting-panel-title">{live ? '直播域名' : '加速域名'}</H5>
        {answer && <Tag minimal>{domainText(DOMAIN_TEXTS.count, { n: answer.total, max: answer.limit })}</Tag>}
        <span className="setting-panel-actions">
          <InputGroup leftIcon="search" placeholder={DOMAIN_TEXTS.search} value={search} onChange={(e) => setSearch(e.target.value)} size="small" aria-label={DOMAIN_TEXTS.search} />
          <Button icon="refresh" text={DOMAIN_TEXTS.check} loading={checking} onClick={() => void checkAll()} />
          <Button
            intent="primary"
            icon="add"
            text={DOMAIN_TEXTS.add}
            disabled={full && !locked}
            title={full && answer ? domainText(DOMAIN_TEXTS.count, { n: answer.total, max: answer.limit }) : undefined}
            onClick={() => (locked ? notify(locked, 'danger') : needsRealName ? setRealnamePrompt(true) : setAdding(true))}
          />
        </span>
      </div>
      <p className="setting-panel-help">{DOMAIN_TEXTS.cnameHelp}</p>
      {live && <p className="setting-panel-help">推流域名供主播推流，播放域名供观众播放：添加域名后，在“基础配置”的“推流与播放域名”中指定每个域名的用途。</p>}
      {failure && <Callout intent="danger">{failure}</Callout>}
      {answer === null ? (
        <Spinner size={20} />
      ) : answer.data.length === 0 && !answer.default_domain ? (
        <NonIdealState icon="globe-network" description={term ? '没有找到匹配的域名' : DOMAIN_TEXTS.empty} />
      ) : (
        <HTMLTable compact striped className="domains-table">
          <thead>
            <tr>
              <th>域名</th>
              <th>CNAME</th>
              <th>CNAME 状态</th>
              {live && <th>用途</th>}
              <th>添加时间</th>
              <th>操作</th>
            </tr>
          </thead>
          <tbody>
            {answer.default_domain && !cursor.since && !cursor.max && (
              <tr data-domain={answer.default_domain}>
                <td>
                  {answer.default_domain} <Tag minimal>{DOMAIN_TEXTS.defaultDomain}</Tag>
                </td>
                <td colSpan={live ? 5 : 4} className="muted">平台默认域名，无需配置 CNAME</td>
              </tr>
            )}
            {answer.data.map((d) => (
              <tr key={d.id} data-domain={d.domain}>
                <td>{d.domain}</td>
                <td>
                  <code>{d.cname}</code>
                </td>
                <td>
                  <CnameState entry={d} />
                </td>
                {live && (
                  <td className="live-domain-role">
                    <Tag minimal intent={roleOf(d.domain) === LIVE_ROLES.none ? 'none' : 'primary'}>{roleOf(d.domain)}</Tag>
                  </td>
                )}
                <td>{formatAt(d.created_at, 'YYYY-MM-DD HH:mm')}</td>
                <td>
                  <Button variant="minimal" size="small" text="检查" onClick={() => void checkOne(d)} />
                  <Button variant="minimal" size="small" intent="danger" text="删除" onClick={() => (locked ? notify(locked, 'danger') : setRemoving(d))} />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <CursorPagerButtons pager={answer?.pager ?? null} onCursor={setCursor} small />
      <RealnamePrompt isOpen={realnamePrompt} purpose={DOMAIN_TEXTS.realnamePurpose} onClose={() => setRealnamePrompt(false)} />
      {adding && (
        <AddDomainDialog
          kind={kind}
          bucketName={bucketName}
          onClose={(added) => {
            setAdding(false);
            if (added) void load();
          }}
        />
      )}
      <Alert
        isOpen={removing !== null}
        intent="danger"
        cancelButtonText="取消"
        confirmButtonText="删除"
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          const d = removing!;
          setRemoving(null);
          void remove(d);
        }}
      >
        <H5>{DOMAIN_TEXTS.removeTitle}</H5>
        <p>{removing && domainText(DOMAIN_TEXTS.removeConfirm, { domain: removing.domain })}</p>
      </Alert>
    </Card>
  );
}

function AddDomainDialog({ bucketName, kind, onClose }: { bucketName: string; kind?: string; onClose(added: boolean): void }) {
  const [formData, setFormData] = useState<{ domain?: string }>({});
  // the declaration alone decides (a server refusal shown under the field does not keep 确定 disabled)
  const valid = validator.isValid(addDomainSchema as object, formData, addDomainSchema as object);

  return (
    <FormDialog<{ domain?: string }>
      title={DOMAIN_TEXTS.addTitle}
      className="add-domain-dialog"
      canOutsideClickClose
      schema={addDomainSchema}
      ui={addDomainUi}
      value={formData}
      onChange={setFormData}
      submitDisabled={!valid}
      onSubmit={async (value) => {
        await api.post('/api/account/domains/', { bucket_name: bucketName, domain: value.domain });
        notify(DOMAIN_TEXTS.added, 'success');
        // the SCDN funnel (docs/events.md): a domain added to a security CDN service
        if (kind === 'scdn') recordEvent('buried', 'scdn_domain_added');
        onClose(true);
      }}
      onClose={() => onClose(false)}
    />
  );
}
