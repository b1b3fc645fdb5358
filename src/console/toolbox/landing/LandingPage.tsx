/**
 * In-console landing pages of the toolbox products (spec 000 §3 named states toolbox.sms,
 * toolbox.oneclicklogin, toolbox.oncdp, toolbox.blockchainIntro, toolbox.phone-traffic, and service.mainpageProcess
 * (/services/process/) (toolbox.audit is ./AuditPage);
 * docs/external-products.md): what the product is, and the way in — the external console when its
 * address is configured (useExternalEntry), the purchase page of its resource package, or a work order.
 */
import { useEventOnOpen } from '../../api/events';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useSetAtom } from 'jotai';
import { Button, Callout, Card, H3, H5 } from '@blueprintjs/core';
import { businessTypeAtom } from '../../state';
import { useExternalEntry } from '../../external/useExternalEntry';
import type { ExternalProduct } from '../../../shared/external';
import './landing.css';

interface Landing {
  title: string;
  summary: string;
  features: { title: string; text: string }[];
  /** the external console this page leads to */
  product?: ExternalProduct;
  /** the purchase page of the product's resource package (billing) */
  buy?: string;
}

export const LANDINGS: Record<string, Landing> = {
  sms: {
    title: '短信服务',
    summary: '验证码、通知与营销短信，三网合一，秒级到达。',
    features: [
      { title: '验证码短信', text: '注册、登录、支付等场景的验证码，平均 5 秒内送达。' },
      { title: '通知短信', text: '订单、物流、账单等业务通知，支持模板变量。' },
      { title: '发送统计', text: '按天查看发送量、成功率与失败原因。' },
    ],
    product: 'sms',
    buy: '/billing/sms/buy/',
  },
  oneclicklogin: {
    title: '一键登录',
    summary: '基于运营商网关认证，用户无需输入验证码即可完成登录或注册。',
    features: [
      { title: '三网覆盖', text: '支持中国移动、中国联通、中国电信。' },
      { title: '安全可靠', text: '运营商网关取号，防止验证码被拦截。' },
      { title: '按次计费', text: '仅对认证成功的请求计费。' },
    ],
    product: 'oneclicklogin',
    buy: '/billing/oneclicklogin/buy/',
  },
  oncdp: {
    title: '流量营销（CDP）',
    summary: '合作伙伴的客户数据平台：人群圈选、精准触达与效果分析。',
    features: [
      { title: '人群圈选', text: '按标签组合圈选目标用户。' },
      { title: '多渠道触达', text: '短信、推送等渠道统一管理。' },
      { title: '效果分析', text: '转化漏斗与渠道归因。' },
    ],
    product: 'cdp',
  },
  'phone-traffic': {
    title: '流量营销',
    summary: '手机流量充值与流量包营销，用于拉新、促活与会员权益。',
    features: [
      { title: '全国流量', text: '三网全国通用流量包。' },
      { title: '接口发放', text: '通过接口按手机号实时发放。' },
    ],
    product: 'cdp',
  },
  process: {
    title: '云处理',
    summary: '图片处理、音视频转码与截图，处理结果直接写回云存储。',
    features: [
      { title: '图片处理', text: '缩放、裁剪、水印与格式转换，通过 URL 参数实时处理。' },
      { title: '音视频转码', text: '多种分辨率与码率模板，支持 HLS 切片。' },
      { title: '视频截图', text: '按时间点或间隔截取画面。' },
    ],
    buy: '/billing/transcode/buy/',
  },
  blockchainIntro: {
    title: '区块链',
    summary: '文件存证上链，为图片、视频等内容提供可信的时间与归属证明。',
    features: [
      { title: '存证上链', text: '上传文件的摘要写入联盟链，不可篡改。' },
      { title: '证书查询', text: '生成存证证书，可在线核验。' },
    ],
    buy: '/billing/blockchain/buy/',
  },
};

/** The usage event each landing page counts (docs/events.md); the others have no usage type. */
const LANDING_USAGE: Record<string, string> = { sms: 'sms', blockchainIntro: 'blockchain', process: 'process' };

export default function LandingPage() {
  const { pathname } = useLocation();
  const key = pathname.split('/').filter(Boolean)[1] ?? '';
  const landing = LANDINGS[key];
  const navigate = useNavigate();
  const setBusinessType = useSetAtom(businessTypeAtom);
  useEffect(() => setBusinessType(null), [setBusinessType]);
  useEventOnOpen('usage', LANDING_USAGE[key]);
  if (!landing) return null;
  return (
    <div className="toolbox-landing">
      <H3>{landing.title}</H3>
      <p className="landing-summary">{landing.summary}</p>
      <div className="landing-features">
        {landing.features.map((f) => (
          <Card key={f.title} className="landing-feature">
            <H5>{f.title}</H5>
            <p>{f.text}</p>
          </Card>
        ))}
      </div>
      <div className="landing-actions">
        {landing.product && <EnterButton product={landing.product} />}
        {landing.buy && <Button text="购买资源包" icon="shopping-cart" onClick={() => navigate(landing.buy!)} />}
        <Button variant="minimal" text="提交工单咨询" icon="help" onClick={() => navigate('/work/')} />
      </div>
    </div>
  );
}

function EnterButton({ product }: { product: ExternalProduct }) {
  const [closed, setClosed] = useState(false);
  const { enter, busy, promptElement } = useExternalEntry(product, () => setClosed(true));
  return (
    <>
      <Button intent="primary" text="进入控制台" loading={busy} onClick={() => void enter()} />
      {promptElement}
      {closed && (
        <Callout intent="primary" className="landing-closed">
          {product === 'audit' ? '您尚未开通内容审核账号，请提交工单联系我们开通。' : '该产品的控制台暂未开放，请提交工单联系我们开通。'}
        </Callout>
      )}
    </>
  );
}
