/**
 * /billing/rebateApplyMessage/ (spec 001 §2.6 "Rebate application detail"): status, create time,
 * processing time (only when not pending), cancel reason, masked applicant. The record comes from the
 * list; without it the page goes back to the list.
 */
import { Navigate, useLocation, Link } from 'react-router-dom';
import { Callout, Card, H4, HTMLTable, Tag } from '@blueprintjs/core';
import { DRAW_TYPES, maskAccount, maskName, RECEIVE_TYPES, REBATE_STATUS, type RebateRecord } from '../../../shared/billing-money';
import { STATUS_INTENT } from './RebateListPage';
import { formatTime } from '../../../shared/stats/time';
import { formatMoney } from '../../../shared/format';

const time = (s: number | null) => (s ? formatTime(s) : '');

export default function RebateDetailPage() {
  const rebate = (useLocation().state as { rebate?: RebateRecord } | null)?.rebate;
  if (!rebate) return <Navigate to="/billing/rebateAmount/" replace />;
  return (
    <div className="billing-rebate-detail">
      <H4>返利申请详情</H4>
      <Card>
        <HTMLTable className="detail-table">
          <tbody>
            <tr>
              <th>状态</th>
              <td>
                <Tag minimal intent={STATUS_INTENT[rebate.status]}>{REBATE_STATUS[rebate.status]}</Tag>
              </td>
            </tr>
            <tr>
              <th>申请金额</th>
              <td>{formatMoney(rebate.sum)} 元</td>
            </tr>
            <tr>
              <th>提现方式</th>
              <td>{DRAW_TYPES[rebate.draw_type]}</td>
            </tr>
            <tr>
              <th>创建时间</th>
              <td>{time(rebate.create_at)}</td>
            </tr>
            {rebate.status !== 'INIT' && (
              <tr>
                <th>处理时间</th>
                <td>{time(rebate.update_at)}</td>
              </tr>
            )}
            {rebate.draw_type === 'WITHDRAWAL' && (
              <>
                <tr>
                  <th>收款方式</th>
                  <td>{rebate.receive_type ? RECEIVE_TYPES[rebate.receive_type] : ''}</td>
                </tr>
                <tr>
                  <th>收款人</th>
                  <td>{maskName(rebate.name)}</td>
                </tr>
                <tr>
                  <th>收款账号</th>
                  <td>{maskAccount(rebate.open_account)}</td>
                </tr>
                <tr>
                  <th>身份证号</th>
                  <td>{maskAccount(rebate.id_code)}</td>
                </tr>
              </>
            )}
          </tbody>
        </HTMLTable>
        {rebate.status === 'CANCEL' && rebate.reason && (
          <Callout intent="warning" title="取消原因">
            {rebate.reason}
          </Callout>
        )}
      </Card>
      <Link to="/billing/rebateAmount/">返回返利列表</Link>
    </div>
  );
}
