/**
 * A message (spec 000 §2.8, /{cat}/message/{id}/): opening it marks it read. The list's query string
 * (type, status, page) comes along, and 返回 goes back to the same filtered page.
 */
import { useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import { Callout, Card, H3, Spinner, Tag } from '@blueprintjs/core';
import { api, failureText } from '../api/client';
import { MESSAGE_TYPES } from '../../shared/messages';
import { MESSAGE_TEXTS, type AccountMessage } from '../../shared/message-centre';
import { refreshUnread } from './unread';
import './message.css';
import { formatAt } from '../../shared/format';

export default function MessageDetailPage() {
  const { cat = 'account', id } = useParams();
  const { search } = useLocation();
  const [m, setM] = useState<AccountMessage | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    api
      .get<{ data: AccountMessage }>('/api/message/', { id: Number(id) || 0 })
      .then((r) => {
        setM(r.data);
        refreshUnread();
      })
      .catch((e) => setFailure(failureText(e)));
  }, [id]);
  return (
    <div className="message-page">
      <Link to={`/${cat}/message/${search}`}>← {MESSAGE_TEXTS.back}</Link>
      {failure && <Callout intent="danger">{failure}</Callout>}
      {!m && !failure && <Spinner aria-label="加载中" />}
      {m && (
        <Card className="message-detail">
          <H3>{m.title}</H3>
          <div className="message-meta">
            <Tag minimal>{MESSAGE_TYPES[m.type]}</Tag> {formatAt(m.create_at, 'YYYY-MM-DD HH:mm:ss')}
          </div>
          <div className="message-body">{m.body}</div>
          {m.link && (
            <p>
              <Link to={m.link}>查看详情</Link>
            </p>
          )}
        </Card>
      )}
    </div>
  );
}
