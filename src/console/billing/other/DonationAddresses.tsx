/**
 * Donation addresses (spec 001 §3 "Donation: type (BTC or ETH), address", §7 POST /api/coin/address/bind;
 * the place and texts are ours, docs/billing.md "Donation addresses"): the account's receiving address
 * per coin, bound through the declaration schemas/forms/coin_address, replaced by binding again.
 */
import { useEffect, useRef, useState } from 'react';
import { Button, Callout, Card, H5, HTMLTable } from '@blueprintjs/core';
import coinSchema from '../../../../schemas/forms/coin_address/schema.json';
import coinUi from '../../../../schemas/forms/coin_address/ui.json';
import { DeclarationForm } from '../../../../renderers/DeclarationForm';
import { api, ApiFailure, failureText } from '../../api/client';
import { notify } from '../../common/toaster';
import type { FieldError } from '../../../shared/errors';
import { formatTime } from '../../../shared/stats/time';

interface CoinAddress {
  type: 'BTC' | 'ETH';
  address: string;
  updated_at: number;
}
const COIN = { BTC: '比特币（BTC）', ETH: '以太坊（ETH）' } as const;

export function DonationAddresses() {
  const [list, setList] = useState<CoinAddress[] | null>(null);
  const [form, setForm] = useState<{ type?: string; address?: string }>({ type: 'BTC' });
  const [failure, setFailure] = useState<{ message: string; errors?: FieldError[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<any>(null);
  useEffect(() => {
    api
      .get<{ data: CoinAddress[] }>('/api/coin/address')
      .then((r) => setList(r.data))
      .catch((e) => setFailure({ message: failureText(e) }));
  }, []);

  const call = async (fn: () => Promise<{ data: CoinAddress[] }>, done: string) => {
    setBusy(true);
    setFailure(null);
    try {
      setList((await fn()).data);
      notify(done, 'success');
      return true;
    } catch (e) {
      setFailure({ message: failureText(e), errors: e instanceof ApiFailure ? e.errors : undefined });
      return false;
    } finally {
      setBusy(false);
    }
  };
  const bind = async () => {
    if (!formRef.current?.validateForm()) return;
    if (await call(() => api.post('/api/coin/address/bind', form), '捐赠地址已绑定')) setForm({ type: form.type });
  };

  return (
    <Card className="donation-addresses" aria-label="数字货币捐赠地址">
      <H5>数字货币捐赠地址</H5>
      {list && list.length > 0 && (
        <HTMLTable className="billing-table" compact aria-label="已绑定的捐赠地址">
          <thead>
            <tr>
              <th>币种</th>
              <th>收款地址</th>
              <th>绑定时间</th>
              <th>操作</th>
            </tr>
          </thead>
          <tbody>
            {list.map((a) => (
              <tr key={a.type}>
                <td>{COIN[a.type]}</td>
                <td className="coin-address">{a.address}</td>
                <td>{formatTime(a.updated_at)}</td>
                <td>
                  <Button minimal small intent="danger" text="解绑" disabled={busy} onClick={() => void call(() => api.del(`/api/coin/address?type=${a.type}`), '已解绑')} />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <div className="donation-form">
        <DeclarationForm formRef={formRef} schema={coinSchema} ui={coinUi} formData={form} errors={failure?.errors} onChange={(d: { type?: string; address?: string }) => setForm(d)} />
        <Button intent="primary" loading={busy} onClick={() => void bind()} text="绑定" />
      </div>
      {failure && !failure.errors?.length && <Callout intent="danger">{failure.message}</Callout>}
    </Card>
  );
}
