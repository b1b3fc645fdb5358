/**
 * The message centre (spec 000 §2.8, /{cat}/message/): tabs by type with unread counts, a status
 * filter, the list with selection, mark read, mark all read, delete, paging; a title opens the detail.
 * Type, status and page live in the query string, which the detail keeps for its way back.
 * Main accounts only (sub-accounts neither load nor see messages).
 */
import { useCallback, useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { Alert, Button, ButtonGroup, Callout, Checkbox, H3, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { Tab, Tabs } from '../common/Tabs';
import { api, failureText } from '../api/client';
import { notify } from '../common/toaster';
import { MESSAGE_TYPES, type MessageType } from '../../shared/messages';
import { MESSAGE_PAGE_SIZE, MESSAGE_STATUS_TEXTS, MESSAGE_TEXTS, type AccountMessage } from '../../shared/message-centre';
import { refreshUnread } from './unread';
import './message.css';
import { formatAt } from '../../shared/format';

type Unread = { total: number; by_type: Record<MessageType, number> };
const TYPES = Object.keys(MESSAGE_TYPES) as MessageType[];

export default function MessagePage() {
  const { cat = 'account' } = useParams();
  const [search, setSearch] = useSearchParams();
  const type = (TYPES as string[]).includes(search.get('type') ?? '') ? (search.get('type') as MessageType) : null;
  const status = search.get('status') === 'unread' || search.get('status') === 'readed' ? search.get('status')! : null;
  const page = Math.max(1, Number(search.get('page')) || 1);
  const [rows, setRows] = useState<AccountMessage[] | null>(null);
  const [total, setTotal] = useState(0);
  const [unread, setUnread] = useState<Unread | null>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [failure, setFailure] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);

  const load = useCallback(async () => {
    try {
      const r = await api.get<{ data: AccountMessage[]; total: number; unread: Unread }>('/api/messages/', { page, limit: MESSAGE_PAGE_SIZE, ...(type ? { type } : {}), ...(status ? { status } : {}) });
      setRows(r.data);
      setTotal(r.total);
      setUnread(r.unread);
      setSelected(new Set());
      setFailure(null);
    } catch (e) {
      setFailure(`${MESSAGE_TEXTS.loadFailed}：${failureText(e)}`);
    }
  }, [page, type, status]);
  useEffect(() => {
    void load();
  }, [load]);

  function go(next: { type?: string | null; status?: string | null; page?: number }) {
    const q = new URLSearchParams();
    const t = next.type !== undefined ? next.type : type;
    const s = next.status !== undefined ? next.status : status;
    if (t) q.set('type', t);
    if (s) q.set('status', s);
    if (next.page && next.page > 1) q.set('page', String(next.page));
    setSearch(q);
  }

  async function act(body: object, text: string) {
    try {
      await api.post('/api/messages/', body);
      notify(text, 'success');
      refreshUnread();
      await load();
    } catch (e) {
      notify(failureText(e), 'danger');
    }
  }

  const pages = Math.max(1, Math.ceil(total / MESSAGE_PAGE_SIZE));
  // the detail carries the list's filters and page, so 返回 comes back to the same list
  const listQuery = search.toString() ? `?${search.toString()}` : '';
  const count = (n: number | undefined) => (n ? <Tag round intent="danger" className="message-count">{n}</Tag> : null);

  return (
    <div className="message-page">
      <H3>{MESSAGE_TEXTS.title}</H3>
      <Tabs id="message-types" selectedTabId={type ?? 'all'} onChange={(id) => go({ type: id === 'all' ? null : String(id), page: 1 })}>
        <Tab id="all" title={<span>{MESSAGE_TEXTS.all} {count(unread?.total)}</span>} />
        {TYPES.map((t) => (
          <Tab key={t} id={t} title={<span>{MESSAGE_TYPES[t]} {count(unread?.by_type[t])}</span>} />
        ))}
      </Tabs>
      <div className="message-toolbar">
        <ButtonGroup>
          {([null, 'unread', 'readed'] as const).map((s) => (
            <Button key={s ?? 'all'} active={status === s} onClick={() => go({ status: s, page: 1 })}>
              {s ? MESSAGE_STATUS_TEXTS[s] : '全部'}
            </Button>
          ))}
        </ButtonGroup>
        <span className="message-toolbar-gap" />
        <Button disabled={selected.size === 0} onClick={() => act({ ids: [...selected], action: 'readed' }, MESSAGE_TEXTS.marked)} className="message-mark">
          {MESSAGE_TEXTS.markRead}
        </Button>
        <Button disabled={!unread || (type ? !unread.by_type[type] : !unread.total)} onClick={() => act({ all: true, ...(type ? { type } : {}), action: 'readed' }, MESSAGE_TEXTS.marked)} className="message-mark-all">
          {MESSAGE_TEXTS.markAllRead}
        </Button>
        <Button intent="danger" disabled={selected.size === 0} onClick={() => setDeleting(true)} className="message-delete">
          {MESSAGE_TEXTS.remove}
        </Button>
      </div>
      {failure && <Callout intent="danger">{failure}</Callout>}
      {!rows ? (
        <Spinner aria-label="加载中" />
      ) : rows.length === 0 ? (
        <NonIdealState className="subaccount-empty" icon="inbox" title={MESSAGE_TEXTS.empty} description="平台公告、功能更新、市场活动与服务反馈都会出现在这里。" />
      ) : (
        <HTMLTable className="message-table" interactive>
          <thead>
            <tr>
              <th>
                <Checkbox
                  aria-label="全选"
                  checked={selected.size === rows.length}
                  indeterminate={selected.size > 0 && selected.size < rows.length}
                  onChange={() => setSelected(selected.size === rows.length ? new Set() : new Set(rows.map((r) => r.account_message_id)))}
                />
              </th>
              <th>标题</th>
              <th>类型</th>
              <th>时间</th>
              <th>状态</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((m) => (
              <tr key={m.account_message_id} className={m.status === 'unread' ? 'message-unread' : ''} data-message={m.title}>
                <td>
                  <Checkbox
                    aria-label={`选择 ${m.title}`}
                    checked={selected.has(m.account_message_id)}
                    onChange={() => {
                      const next = new Set(selected);
                      if (next.has(m.account_message_id)) next.delete(m.account_message_id);
                      else next.add(m.account_message_id);
                      setSelected(next);
                    }}
                  />
                </td>
                <td>
                  <Link to={`/${cat}/message/${m.account_message_id}/${listQuery}`} className="message-title">
                    {m.title}
                  </Link>
                  <div className="message-summary">{m.summary}</div>
                </td>
                <td>{MESSAGE_TYPES[m.type]}</td>
                <td className="log-time">{formatAt(m.create_at, 'YYYY-MM-DD HH:mm')}</td>
                <td>
                  <Tag minimal intent={m.status === 'unread' ? 'primary' : 'none'}>
                    {MESSAGE_STATUS_TEXTS[m.status]}
                  </Tag>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {/* no count or arrows under an empty first page */}
      {!(rows?.length === 0 && page <= 1) && (
        <div className="subaccount-foot">
          <span className="subaccount-remark-empty">
            共 {total} 条，第 {page} / {pages} 页
          </span>
          <ButtonGroup className="pager">
            <Button icon="chevron-left" aria-label="上一页" disabled={page <= 1} onClick={() => go({ page: page - 1 })} />
            <Button icon="chevron-right" aria-label="下一页" disabled={page >= pages} onClick={() => go({ page: page + 1 })} />
          </ButtonGroup>
        </div>
      )}
      <Alert
        isOpen={deleting}
        intent="danger"
        icon="trash"
        cancelButtonText="取消"
        confirmButtonText="删除"
        onCancel={() => setDeleting(false)}
        onConfirm={() => {
          setDeleting(false);
          void act({ ids: [...selected], action: 'delete' }, MESSAGE_TEXTS.removed);
        }}
      >
        <p>{MESSAGE_TEXTS.removeConfirm}</p>
      </Alert>
    </div>
  );
}
