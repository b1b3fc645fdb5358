/**
 * /account/log/ (spec 000 §2.4 "Operation log"): every change made by the account and its
 * sub-accounts, newest first: when, who, what, on what, from which address; previous/next arrows.
 */
import { useEffect, useState } from 'react';
import { Button, Callout, H3, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { api, failureText } from '../api/client';
import type { CursorPager } from '../../shared/buckets';
import { LOG_PAGE_SIZE, type LogEntry } from '../../shared/oplog';
import { CursorPagerButtons } from '../../../renderers/CursorPager';
import { formatAt } from '../../shared/format';

type Cursor = { since?: number; max?: number };

function intentOf(action: string) {
  if (action.endsWith('.delete') || action.endsWith('.revoke') || action.endsWith('.disable')) return 'danger' as const;
  if (action.endsWith('.create') || action.endsWith('.grant') || action.endsWith('.enable')) return 'success' as const;
  return 'primary' as const;
}

export default function LogPage() {
  const [rows, setRows] = useState<LogEntry[] | null>(null);
  const [pager, setPager] = useState<CursorPager>({ since: null, max: null });
  const [cursor, setCursor] = useState<Cursor>({});
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    setRows(null);
    api
      .get<{ data: LogEntry[]; pager: CursorPager }>('/api/logs/', { limit: LOG_PAGE_SIZE, ...cursor })
      .then((res) => {
        if (!live) return;
        setRows(res.data);
        setPager(res.pager);
        setFailure(null);
      })
      .catch((e) => live && (setFailure(failureText(e)), setRows([])));
    return () => {
      live = false;
    };
  }, [cursor]);

  return (
    <div className="log-page">
      <div className="page-head">
        <H3>操作日志</H3>
      </div>
      <p className="subaccount-intro">记录主账号及其子账号在控制台中所做的每一项修改。</p>
      {failure && (
        <Callout intent="danger" className="setting-failure">
          {failure}
        </Callout>
      )}
      {rows === null ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <NonIdealState className="subaccount-empty" icon="history" title="暂无操作记录" description="修改服务配置、账号或子账号后，这里会记录操作人、时间和内容。" />
      ) : (
        <HTMLTable className="log-table" striped>
          <thead>
            <tr>
              <th>时间</th>
              <th>操作人</th>
              <th>操作</th>
              <th>对象</th>
              <th>IP 地址</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td className="log-time">{formatAt(r.created_at, 'YYYY-MM-DD HH:mm:ss')}</td>
                <td>{r.username ?? '—'}</td>
                <td>
                  <Tag minimal intent={intentOf(r.action)}>
                    {r.action_text}
                  </Tag>
                </td>
                <td>{r.target}</td>
                <td className="log-ip">{r.ip ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <CursorPagerButtons pager={pager} onCursor={setCursor} />
    </div>
  );
}
