/**
 * /toolbox/createCertificate/{certs}: choose brand, level and kind from the catalogue, the years and
 * domain counts (the certificate_order declaration), see the price (crm/calculate), create the order
 * and go to the pay page. {certs} preselects a brand.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, Callout, Card, FormGroup, H3, HTMLSelect } from '@blueprintjs/core';
import { useNavigate, useParams } from 'react-router-dom';
import orderSchema from '../../../../schemas/forms/certificate_order/schema.json';
import orderUi from '../../../../schemas/forms/certificate_order/ui.json';
import { DeclarationForm } from '../../../../renderers/DeclarationForm';
import { api, failureText } from '../../api/client';
import { CERT_KINDS, countsAllowed, type CertKind, type CertProduct } from '../../../shared/certificates';
import { formatMoney } from '../../../shared/format';

type Product = CertProduct & { brand_name: string; level_name: string; kind_name: string };

export default function CreateCertificatePage() {
  const { certs } = useParams();
  const navigate = useNavigate();
  const [products, setProducts] = useState<Product[]>([]);
  const [brand, setBrand] = useState<string>('');
  const [level, setLevel] = useState<string>('');
  const [kind, setKind] = useState<string>('');
  const [form, setForm] = useState<Record<string, unknown>>({ years: 1, default_domain: 1, general_domain: 0 });
  const [price, setPrice] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const formRef = useRef<any>(null);

  useEffect(() => {
    api
      .get<{ data: Product[] }>('/api/https/trustasia/products/')
      .then((r) => {
        setProducts(r.data);
        const first = r.data.find((p) => p.brand.toLowerCase() === (certs ?? '').toLowerCase()) ?? r.data[0];
        if (first) {
          setBrand(first.brand);
          setLevel(first.level);
          setKind(first.kind);
        }
      })
      .catch((e) => setFailure(failureText(e)));
  }, [certs]);

  const brands = useMemo(() => [...new Map(products.map((p) => [p.brand, p.brand_name])).entries()], [products]);
  const levels = useMemo(() => [...new Map(products.filter((p) => p.brand === brand).map((p) => [p.level, p.level_name])).entries()], [products, brand]);
  const kinds = useMemo(() => products.filter((p) => p.brand === brand && p.level === level).map((p) => p.kind), [products, brand, level]);
  const product = products.find((p) => p.brand === brand && p.level === level && p.kind === kind);

  // the counts a kind takes by default
  useEffect(() => {
    if (!product) return;
    setForm((f) => ({ ...f, default_domain: product.included_default, general_domain: product.included_general }));
  }, [product?.product_id]); // eslint-disable-line react-hooks/exhaustive-deps

  const payload = product ? { ...form, product_id: product.product_id } : null;
  const countError = product ? countsAllowed(product.kind, Number(form.default_domain), Number(form.general_domain)) : null;
  useEffect(() => {
    setPrice(null);
    if (!payload || countError) return;
    const t = setTimeout(() => {
      api
        .post<{ data: { price: number } }>('/api/https/v2/certificate/crm/calculate/', payload)
        .then((r) => setPrice(r.data.price))
        .catch(() => setPrice(null));
    }, 300);
    return () => clearTimeout(t);
  }, [JSON.stringify(payload), countError]); // eslint-disable-line react-hooks/exhaustive-deps

  async function buy() {
    if (!payload || !formRef.current?.validateForm()) return;
    setSaving(true);
    try {
      const res = await api.post<{ data: { order_id: number } }>('/api/https/v2/certificate/order/', payload);
      navigate(`/toolbox/certificatePay/?order_id=${res.data.order_id}`);
    } catch (e) {
      setFailure(failureText(e));
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="create-certificate-page">
      <div className="page-head">
        <H3>购买证书</H3>
        <Button icon="arrow-left" variant="minimal" onClick={() => navigate('/toolbox/ssl/?active=apply')} style={{ marginLeft: 'auto' }}>
          返回
        </Button>
      </div>
      <Card>
        <FormGroup label="品牌" labelFor="cert-brand">
          <HTMLSelect id="cert-brand" value={brand} onChange={(e) => { const b = e.currentTarget.value; setBrand(b); const p = products.find((x) => x.brand === b); if (p) { setLevel(p.level); setKind(p.kind); } }} options={brands.map(([value, label]) => ({ value, label }))} />
        </FormGroup>
        <FormGroup label="验证级别" labelFor="cert-level">
          <HTMLSelect id="cert-level" value={level} onChange={(e) => { const l = e.currentTarget.value; setLevel(l); const p = products.find((x) => x.brand === brand && x.level === l); if (p) setKind(p.kind); }} options={levels.map(([value, label]) => ({ value, label }))} />
        </FormGroup>
        <FormGroup label="证书类型" labelFor="cert-kind">
          <HTMLSelect id="cert-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value)} options={kinds.map((k) => ({ value: k, label: CERT_KINDS[k as CertKind] }))} />
        </FormGroup>
        <DeclarationForm formRef={formRef} schema={orderSchema} ui={orderUi} formData={{ ...form, product_id: product?.product_id ?? '' }} onChange={(d) => setForm(d)} errors={countError ? [{ path: '/default_domain', message: countError }] : undefined} />
        <p className="order-price">
          价格：<strong>{price === null ? '-' : `${formatMoney(price)} 元`}</strong>
        </p>
        {failure && (
          <Callout intent="danger" role="alert">
            {failure}
          </Callout>
        )}
        <Button intent="primary" onClick={buy} loading={saving} disabled={!product || Boolean(countError)} className="order-create">
          立即购买
        </Button>
      </Card>
    </div>
  );
}
