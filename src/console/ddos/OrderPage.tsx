/** /services/ddos/order/: the packages of DDoS 高防 IP (src/shared/ddos.ts), each leading to /services/create/ddos/?package=. */
import { Link, useNavigate } from 'react-router-dom';
import { Button, Card, H3, H4, Icon } from '@blueprintjs/core';
import { DDOS_PACKAGES } from '../../shared/ddos';
import { useEventOnOpen } from '../api/events';
import './ddos.css';
import { formatMoney } from '../../shared/format';

export default function OrderPage() {
  const navigate = useNavigate();
  useEventOnOpen('buried', 'ddos_order_open');
  return (
    <div className="ddos-page">
      <Link to="/services/ddos/instance/" className="back-link">
        <Icon icon="arrow-left" size={12} /> 返回 DDoS 高防 IP
      </Link>
      <div className="page-head">
        <H3>购买 DDoS 高防 IP</H3>
      </div>
      <div className="ddos-packages">
        {DDOS_PACKAGES.map((p) => (
          <Card key={p.id} className="ddos-package" data-testid={`ddos-package-${p.id}`}>
            <H4>{p.name}</H4>
            <div className="ddos-package-price">
              ¥{formatMoney(p.price_month)}
              <small> / IP / 月</small>
            </div>
            <ul>
              <li>保底防护 {p.protect_gbps} Gbps</li>
              <li>弹性防护最高 {p.elastic_gbps} Gbps</li>
              <li>业务带宽 {p.business_mbps} Mbps</li>
              <li>网站业务规则 {p.max_websites} 条</li>
              <li>非网站业务规则 {p.max_ports} 条</li>
            </ul>
            <Button intent="primary" text="立即购买" fill onClick={() => navigate(`/services/create/ddos/?package=${p.id}`)} />
          </Card>
        ))}
      </div>
    </div>
  );
}
