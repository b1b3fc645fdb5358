/**
 * /billing/invoicing/ (spec 001 §2.5, §7): what may be invoiced, the invoices (view, delete while not
 * issued), and the saved titles and addresses. 申请开票 opens /billing/createInvoicing/ with
 * cat, total, freeze and listNumber.
 */
import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Alert, Button, Card, Classes, H4, H5, HTMLTable, NonIdealState, Tag } from '@blueprintjs/core';
import { Tab, Tabs } from '../../common/Tabs';
import { api, failureText } from '../../api/client';
import { notify } from '../../common/toaster';
import { PageLinks } from '../orders/PageLinks';
import { INVOICE_PAGE_SIZE, INVOICE_STATUS, INVOICE_TYPES, type InvoiceConsume, type InvoiceStatus } from '../../../shared/billing-money';
import { VALUE_KINDS, ValueDialog, type ValueKind } from './ValueDialog';
import { formatTime } from '../../../shared/stats/time';
import { formatMoney } from '../../../shared/format';

export interface InvoiceRow {
  invoice_id: number;
  amount: number;
  info: Record<string, string>;
  address: Record<string, string>;
  remark: string | null;
  status: InvoiceStatus;
  reason: string | null;
  create_at: number;
  update_at: number | null;
}

function Saved({ kind }: { kind: ValueKind }) {
  const def = VALUE_KINDS[kind];
  const [rows, setRows] = useState<Record<string, any>[]>([]);
  const [dialog, setDialog] = useState<{ editing: Record<string, unknown> | null } | null>(null);
  const load = useCallback(async () => {
    const r = await api.get<{ data: Record<string, Record<string, any>[]> }>(def.url);
    setRows(r.data[kind === 'info' ? 'infos' : 'addresses']);
  }, [def.url, kind]);
  useEffect(() => {
    void load().catch(() => undefined);
  }, [load]);
  async function remove(id: number) {
    try {
      await api.del(def.url, { [def.idKey]: id });
      notify('删除成功');
      await load();
    } catch (e) {
      notify(failureText(e), 'danger');
    }
  }
  return (
    <div>
      <HTMLTable striped className="full-width">
        <tbody>
          {rows.map((r) => (
            <tr key={r[def.idKey]}>
              <td>{kind === 'info' ? `${r.title}（${INVOICE_TYPES[r.type as keyof typeof INVOICE_TYPES]}，${r.tax_no}）` : `${r.recipient} ${r.mobile} ${r.address}`}</td>
              <td>
                <Button minimal small onClick={() => setDialog({ editing: r })}>
                  编辑
                </Button>
                <Button minimal small intent="danger" onClick={() => void remove(r[def.idKey])}>
                  删除
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <Button icon="add" onClick={() => setDialog({ editing: null })}>
        添加{def.title}
      </Button>
      {dialog && <ValueDialog kind={kind} editing={dialog.editing} onClose={() => setDialog(null)} onSaved={() => (setDialog(null), notify('保存成功'), void load())} />}
    </div>
  );
}

export default function InvoicingPage() {
  const navigate = useNavigate();
  const [consume, setConsume] = useState<InvoiceConsume | null>(null);
  const [rows, setRows] = useState<InvoiceRow[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<InvoiceRow | null>(null);
  const load = useCallback(async () => {
    setConsume((await api.get<{ data: InvoiceConsume }>('/api/account/invoice/consume/')).data);
    const r = await api.get<{ data: { invoices: InvoiceRow[] }; pager: { total: number } }>('/api/account/invoices', { page, size: INVOICE_PAGE_SIZE });
    setRows(r.data.invoices);
    setTotal(r.pager.total);
  }, [page]);
  useEffect(() => {
    void load().catch(() => undefined);
  }, [load]);
  async function remove(row: InvoiceRow) {
    setDeleting(null);
    try {
      await api.del('/api/account/invoice', { invoice_id: row.invoice_id });
      notify('删除成功');
      await load();
    } catch (e) {
      notify(failureText(e), 'danger');
    }
  }
  return (
    <div className="billing-invoicing">
      <H4>发票管理</H4>
      <Card className="invoice-consume">
        <span>可开票金额</span> <strong data-testid="invoice-available">{consume ? formatMoney(consume.available) : '—'}</strong> 元
        {consume && <span className={Classes.TEXT_MUTED}>（累计 {formatMoney(consume.total)} 元，开具中 {formatMoney(consume.freeze)} 元，已开具 {formatMoney(consume.invoiced)} 元）</span>}
        <Button intent="primary" disabled={!consume || consume.available <= 0} onClick={() => consume && navigate(`/billing/createInvoicing/?cat=billing&total=${consume.available}&freeze=${consume.freeze}&listNumber=${total}`)}>
          申请开票
        </Button>
      </Card>
      <Tabs id="invoice-tabs" renderActiveTabPanelOnly>
        <Tab
          id="list"
          title="开票记录"
          panel={
            rows.length === 0 ? (
              <NonIdealState icon="document" title="暂无开票记录" />
            ) : (
              <>
                <HTMLTable striped className="full-width">
                  <thead>
                    <tr>
                      <th>申请时间</th>
                      <th>发票抬头</th>
                      <th>金额（元）</th>
                      <th>状态</th>
                      <th>操作</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((r) => (
                      <tr key={r.invoice_id}>
                        <td>{formatTime(r.create_at)}</td>
                        <td>{r.info.title}</td>
                        <td>{formatMoney(r.amount)}</td>
                        <td>
                          <Tag minimal>{INVOICE_STATUS[r.status]}</Tag>
                        </td>
                        <td>
                          <Link to={`/billing/invoicingDetail/${r.invoice_id}/`}>查看</Link>
                          {r.status !== 'DONE' && (
                            <Button minimal small intent="danger" onClick={() => setDeleting(r)}>
                              删除
                            </Button>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </HTMLTable>
                <PageLinks page={page} total={total} size={INVOICE_PAGE_SIZE} onPage={setPage} />
              </>
            )
          }
        />
        <Tab id="info" title="发票抬头" panel={<Saved kind="info" />} />
        <Tab id="address" title="收件地址" panel={<Saved kind="address" />} />
      </Tabs>
      <H5 className={Classes.TEXT_MUTED}>发票按实际到账的充值与在线支付金额开具，赠送余额与代金券不开票。</H5>
      <Alert isOpen={deleting !== null} cancelButtonText="取消" confirmButtonText="删除" intent="danger" onCancel={() => setDeleting(null)} onConfirm={() => deleting && void remove(deleting)}>
        确定删除这条开票申请吗？
      </Alert>
    </div>
  );
}
