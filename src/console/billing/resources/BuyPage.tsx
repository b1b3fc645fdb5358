/**
 * Buying a resource package (spec 001 §2.5 "resources/buy/{index} (cat, resource)", transcode/buy/{index},
 * sms/buy/, …): the kind's specs, one chosen by `?resource={spec}` when it names one of the kind's specs,
 * else by its index in the URL (none: the first); an index that is not one of the specs goes to
 * /billing/{kind}/buy/. Then the pay page.
 */
import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { Button, Callout, Card, Spinner, Tag } from '@blueprintjs/core';
import { api, failureText } from '../../api/client';
import { RESOURCE_KIND_LABELS, type ResourceSpec } from '../../../shared/billing/resources';
import { useResourceKind } from './kind';
import { formatMoney } from '../../../shared/format';

type Spec = ResourceSpec & { index: number; available: boolean };

export default function BuyPage() {
  const kind = useResourceKind();
  const navigate = useNavigate();
  const rawIndex = useParams().index;
  const [params] = useSearchParams();
  const resource = params.get('resource');
  const [specs, setSpecs] = useState<Spec[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    api
      .get<{ data: Spec[] }>('/api/resources/specs/', { kind })
      .then((r) => setSpecs(r.data))
      .catch((e) => setError(failureText(e)));
  }, [kind]);
  const bad = <Navigate to={{ pathname: `/billing/${kind}/buy/`, search: params.toString() ? `?${params}` : '' }} replace />;
  if (rawIndex !== undefined && !/^\d+$/.test(rawIndex)) return bad;
  if (error) return <Callout intent="danger">{error}</Callout>;
  if (!specs) return <Spinner aria-label="加载中" />;
  if (specs.length === 0) return <Callout intent="warning">暂无可购买的规格</Callout>;
  const byIndex = rawIndex === undefined ? specs[0] : specs.find((s) => s.index === Number(rawIndex));
  if (!byIndex) return bad;
  const chosen = (resource && specs.find((s) => s.id === resource)) || byIndex;
  return (
    <div>
      <div className="billing-toolbar">
        <Link to={`/billing/${kind}/`}>{RESOURCE_KIND_LABELS[kind]}</Link>
        <span>/</span>
        <h3 className="bp6-heading" style={{ margin: 0 }}>
          购买{RESOURCE_KIND_LABELS[kind]}
        </h3>
      </div>
      <div className="resource-specs" role="radiogroup" aria-label="规格">
        {specs.map((s) => (
          <Card
            key={s.id}
            role="radio"
            aria-checked={s.index === chosen.index}
            aria-label={s.name}
            interactive={s.available}
            className={`resource-spec${s.index === chosen.index ? ' selected' : ''}`}
            onClick={() => s.available && navigate(`/billing/${kind}/buy/${s.index}`, { replace: true })}
          >
            <h5>
              {s.name} {s.promo && <Tag intent="warning" minimal>优惠</Tag>}
            </h5>
            <div className="billing-stat-value">
              {formatMoney(s.price)} <small>元</small>
            </div>
            <div className="bill-line-explain">{s.description}</div>
            {!s.available && <div className="bill-line-explain">近 3 个月已购买过优惠包</div>}
          </Card>
        ))}
      </div>
      <div className="billing-foot">
        <Button intent="primary" large disabled={!chosen.available} onClick={() => navigate(`/billing/${kind}/pay/?cat=billing&resource=${chosen.id}`)}>
          立即购买（{formatMoney(chosen.price)} 元）
        </Button>
      </div>
    </div>
  );
}
