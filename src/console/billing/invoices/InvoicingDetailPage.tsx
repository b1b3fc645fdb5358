/** /billing/invoicingDetail/{id}/ (spec 001 §2.5): one invoice. */
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { Callout, Card, H4, HTMLTable, Spinner, Tag } from '@blueprintjs/core';
import { api, failureText } from '../../api/client';
import { INVOICE_STATUS, INVOICE_TYPES } from '../../../shared/billing-money';
import type { InvoiceRow } from './InvoicingPage';
import { formatTime } from '../../../shared/stats/time';
import { formatMoney } from '../../../shared/format';

export default function InvoicingDetailPage() {
  const { id } = useParams();
  const [row, setRow] = useState<InvoiceRow | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    void api.get<{ data: InvoiceRow }>('/api/account/invoice', { invoice_id: id }).then((r) => setRow(r.data)).catch((e) => setError(failureText(e)));
  }, [id]);
  if (error) return <Callout intent="danger">{error}</Callout>;
  if (!row) return <Spinner size={24} />;
  const lines: [string, string][] = [
    ['状态', INVOICE_STATUS[row.status]],
    ['金额', `${formatMoney(row.amount)} 元`],
    ['发票类型', INVOICE_TYPES[row.info.type as keyof typeof INVOICE_TYPES] ?? ''],
    ['发票抬头', row.info.title],
    ['纳税人识别号', row.info.tax_no],
    ['收件人', `${row.address.recipient} ${row.address.mobile}`],
    ['收件地址', row.address.address],
    ['申请时间', formatTime(row.create_at)],
    ['备注', row.remark ?? ''],
  ];
  // set by the platform's invoice-review: the reason of a rejection, or a note on an issued invoice
  if (row.status !== 'INIT' && row.update_at) lines.push(['处理时间', formatTime(row.update_at)]);
  if (row.reason) lines.push([row.status === 'CANCEL' ? '驳回原因' : '开具说明', row.reason]);
  return (
    <div className="billing-invoice-detail">
      <H4>开票详情</H4>
      <Card>
        <HTMLTable>
          <tbody>
            {lines.map(([k, v]) => (
              <tr key={k}>
                <th>{k}</th>
                <td>{k === '状态' ? <Tag minimal>{v}</Tag> : v}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </Card>
      <Link to="/billing/invoicing/">返回发票管理</Link>
    </div>
  );
}
