/**
 * Referral list (spec 000 §2.4 recommendation/list/; docs/referrals.md): invited accounts, newest first,
 * with since/max paging, the rebate each brought, and its credits in a dialog.
 */
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, ButtonGroup, Callout, Dialog, DialogBody, H3, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { api, failureText } from '../../api/client';
import { REFERRAL_PAGE_SIZE, type Invitation, type InvitationDetail } from '../../../shared/referrals';
import type { CursorPager } from '../../../shared/buckets';
import { formatMoney, formatAt } from '../../../shared/format';

interface ListAnswer {
  invitations: Invitation[];
  pager: CursorPager;
  total: number;
  rebate_total: number;
}

const day = (s: string) => formatAt(s, 'YYYY-MM-DD HH:mm');
const yuan = (n: number) => `${formatMoney(n)} 元`;

export default function ListPage() {
  const navigate = useNavigate();
  const [cursor, setCursor] = useState<{ since?: number; max?: number }>({});
  const [list, setList] = useState<ListAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [detail, setDetail] = useState<InvitationDetail | null>(null);
  const load = useCallback(() => {
    api.get<{ data: ListAnswer }>('/api/accounts/invitations/', { limit: REFERRAL_PAGE_SIZE, ...cursor }).then(
      (r) => setList(r.data),
      (e) => setError(failureText(e)),
    );
  }, [cursor]);
  useEffect(load, [load]);
  async function open(id: number) {
    try {
      setDetail((await api.get<{ data: InvitationDetail }>('/api/accounts/invitations/detail', { invitee_id: id })).data);
    } catch (e) {
      setError(failureText(e));
    }
  }
  return (
    <div className="recommendation-page">
      <H3>推荐列表</H3>
      {error && <Callout intent="danger">{error}</Callout>}
      {!list ? (
        <Spinner aria-label="加载中" />
      ) : (
        <>
          <p className="recommendation-summary">
            已邀请 <strong>{list.total}</strong> 位用户，累计返利 <strong>{yuan(list.rebate_total)}</strong>
          </p>
          {list.invitations.length === 0 ? (
            <NonIdealState icon="people" title="暂无推荐记录" description="把邀请链接分享给好友，好友注册并充值后即可获得返利。" action={<Button intent="primary" text="获取邀请链接" onClick={() => navigate('/account/recommendation/introduction/')} />} />
          ) : (
            <HTMLTable striped className="recommendation-table">
              <thead>
                <tr>
                  <th>用户名</th>
                  <th>注册时间</th>
                  <th>实名状态</th>
                  <th>返利截止</th>
                  <th>累计返利</th>
                  <th>操作</th>
                </tr>
              </thead>
              <tbody>
                {list.invitations.map((i) => (
                  <tr key={i.invitee_id}>
                    <td>{i.username}</td>
                    <td>{day(i.registered_at)}</td>
                    <td>{i.verify_status === 'yes' ? <Tag intent="success">已认证</Tag> : <Tag>未认证</Tag>}</td>
                    <td>{formatAt(i.rebate_until, 'YYYY-MM-DD')}</td>
                    <td>{yuan(i.rebate)}</td>
                    <td>
                      <Button variant="minimal" intent="primary" text="明细" onClick={() => void open(i.invitee_id)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          )}
          <ButtonGroup className="recommendation-pager">
            <Button icon="chevron-left" text="上一页" disabled={list.pager.since === null} onClick={() => setCursor({ since: list.pager.since! })} />
            <Button endIcon="chevron-right" text="下一页" disabled={list.pager.max === null} onClick={() => setCursor({ max: list.pager.max! })} />
          </ButtonGroup>
        </>
      )}
      <Dialog isOpen={detail !== null} title="返利明细" onClose={() => setDetail(null)}>
        <DialogBody>
          {detail && (
            <>
              <p>
                {detail.invitee.username}，注册于 {day(detail.invitee.registered_at)}，返利截止 {formatAt(detail.invitee.rebate_until, 'YYYY-MM-DD')}
              </p>
              {detail.credits.length === 0 ? (
                <p>暂无返利记录</p>
              ) : (
                <HTMLTable compact>
                  <thead>
                    <tr>
                      <th>充值订单</th>
                      <th>充值金额</th>
                      <th>返利</th>
                      <th>时间</th>
                    </tr>
                  </thead>
                  <tbody>
                    {detail.credits.map((c) => (
                      <tr key={c.order_no}>
                        <td>{c.order_no}</td>
                        <td>{yuan(c.recharge)}</td>
                        <td>{yuan(c.rebate)}</td>
                        <td>{day(c.created_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </HTMLTable>
              )}
            </>
          )}
        </DialogBody>
      </Dialog>
    </div>
  );
}
