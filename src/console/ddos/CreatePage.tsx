/**
 * /services/create/ddos/?package=: the order form (the declaration schemas/forms/ddos_order), the price
 * from POST /api/ddos/calculate as it changes, and POST /api/ddos/order, then the pay page with
 * package, order, nodesId2Name and vm2req (spec 002 §2).
 */
import { recordEvent, useEventOnOpen } from '../api/events';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Button, Card, H3, Icon } from '@blueprintjs/core';
import orderSchema from '../../../schemas/forms/ddos_order/schema.json';
import orderUi from '../../../schemas/forms/ddos_order/ui.json';
import { DeclarationForm } from '../../../renderers/DeclarationForm';
import { api } from '../api/client';
import { packageOf } from '../../shared/ddos';
import { formatMoney } from '../../shared/format';
import { FailureCallout, toFailure, type Failure } from './common';
import './ddos.css';

interface Quote {
  package_name: string;
  original_price: string;
  price: string;
  nodesId2Name: Record<string, string>;
}

export default function CreatePage() {
  useEventOnOpen('buried', 'ddos_order_package');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const initial = packageOf(params.get('package') ?? '') ? params.get('package')! : 'basic';
  const [value, setValue] = useState<{ package: string; nodes: number[]; months: number }>({ package: initial, nodes: [1], months: 1 });
  const [quote, setQuote] = useState<Quote | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [saving, setSaving] = useState(false);
  const formRef = useRef<any>(null);
  // ddos_order_nodes (docs/events.md): the customer changed the protection nodes, once a page
  const nodesTouched = useRef(false);
  useEffect(() => {
    if (nodesTouched.current || JSON.stringify(value.nodes) === JSON.stringify([1])) return;
    nodesTouched.current = true;
    recordEvent('buried', 'ddos_order_nodes');
  }, [value.nodes]);

  useEffect(() => {
    let alive = true;
    if (!value.nodes?.length) return setQuote(null);
    api
      .post<{ data: Quote }>('/api/ddos/calculate', value)
      .then((r) => alive && setQuote(r.data))
      .catch(() => alive && setQuote(null));
    return () => {
      alive = false;
    };
  }, [value]);

  async function submit() {
    setFailure(null);
    if (!formRef.current?.validateForm()) return;
    setSaving(true);
    try {
      const r = await api.post<{ data: Quote & { order_id: number } }>('/api/ddos/order', value);
      recordEvent('buried', 'ddos_order_submit');
      const q = new URLSearchParams({ package: value.package, order: String(r.data.order_id), nodesId2Name: JSON.stringify(r.data.nodesId2Name), vm2req: JSON.stringify(value) });
      navigate(`/services/create/ddos/pay?${q}`);
    } catch (e) {
      setFailure(toFailure(e));
      setSaving(false);
    }
  }

  return (
    <div className="ddos-page">
      <Link to="/services/ddos/order/" className="back-link">
        <Icon icon="arrow-left" size={12} /> 返回套餐选择
      </Link>
      <div className="page-head">
        <H3>购买 DDoS 高防 IP</H3>
      </div>
      <Card className="ddos-order-form">
        <FailureCallout failure={failure} />
        <DeclarationForm schema={orderSchema} ui={orderUi} formData={value} onChange={setValue} errors={failure?.errors} formRef={formRef} />
        <div className="ddos-price" data-testid="ddos-price">
          {quote ? (
            <>
              应付金额：<strong>¥{formatMoney(Number(quote.price))}</strong>
              {quote.original_price !== quote.price && <s className="ddos-original">¥{formatMoney(Number(quote.original_price))}</s>}
            </>
          ) : (
            '请选择套餐、防护节点和购买时长'
          )}
        </div>
        <Button intent="primary" large text="提交订单" loading={saving} onClick={submit} />
      </Card>
    </div>
  );
}
