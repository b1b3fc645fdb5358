/**
 * Resource packages (spec 001 §2.5, §9; issue 8): the kinds, their purchase specs, units and validity.
 * Traffic sizes and prices are the provider's (provider-facts.md); the other kinds' figures are ours
 * (docs/billing.md "Resource packages").
 */
export const RESOURCE_KINDS = ['resources', 'transcode', 'sms', 'oneclicklogin', 'sslpack', 'blockchain'] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

export const RESOURCE_KIND_LABELS: Record<ResourceKind, string> = {
  resources: '流量包',
  transcode: '转码时长包',
  sms: '短信包',
  oneclicklogin: '一键登录包',
  sslpack: '免费证书续期包',
  blockchain: '区块链存证包',
};

export interface ResourceSpec {
  /** stable id, used in URLs (/billing/{kind}/buy/{index}) by its index in the kind's list */
  id: string;
  kind: ResourceKind;
  name: string;
  amount: number;
  unit: string;
  /** yuan */
  price: number;
  /** months of validity from the purchase day, effective the same day */
  valid_months: number;
  /** promotional: one of the kind's promotional specs per `promo_months` */
  promo?: boolean;
  description: string;
}

const traffic = (id: string, gb: number, name: string, price: number, promo = false): ResourceSpec => ({
  id,
  kind: 'resources',
  name,
  amount: gb,
  unit: 'GB',
  price,
  valid_months: 3,
  promo,
  description: promo ? '国内 CDN 流量，3 个月有效，购买当日生效；100 GB 与 500 GB 优惠包每 3 个月限购其一' : '国内 CDN 流量，3 个月有效，购买当日生效，过期未用完的流量不能抵扣',
});
const yearly = (kind: ResourceKind, id: string, amount: number, unit: string, price: number, description: string): ResourceSpec => ({ id, kind, name: `${amount.toLocaleString('en-US')} ${unit}`, amount, unit, price, valid_months: 12, description });

export const RESOURCE_SPECS: ResourceSpec[] = [
  traffic('traffic_100g', 100, '100 GB', 20, true),
  traffic('traffic_500g', 500, '500 GB', 100, true),
  traffic('traffic_1t', 1024, '1 TB', 270),
  traffic('traffic_2t', 2048, '2 TB', 540),
  traffic('traffic_5t', 5120, '5 TB', 1335),
  traffic('traffic_10t', 10240, '10 TB', 2670),
  yearly('transcode', 'transcode_1000', 1000, '分钟', 30, '音视频转码时长，1 年有效'),
  yearly('transcode', 'transcode_10000', 10000, '分钟', 280, '音视频转码时长，1 年有效'),
  yearly('transcode', 'transcode_100000', 100000, '分钟', 2600, '音视频转码时长，1 年有效'),
  yearly('sms', 'sms_1000', 1000, '条', 45, '国内短信，1 年有效'),
  yearly('sms', 'sms_10000', 10000, '条', 420, '国内短信，1 年有效'),
  yearly('sms', 'sms_100000', 100000, '条', 4000, '国内短信，1 年有效'),
  yearly('oneclicklogin', 'oneclicklogin_10000', 10000, '次', 300, '一键登录认证次数，1 年有效'),
  yearly('oneclicklogin', 'oneclicklogin_100000', 100000, '次', 2800, '一键登录认证次数，1 年有效'),
  yearly('sslpack', 'sslpack_10', 10, '张', 100, '免费证书续期次数，1 年有效'),
  yearly('sslpack', 'sslpack_50', 50, '张', 450, '免费证书续期次数，1 年有效'),
  yearly('blockchain', 'blockchain_10000', 10000, '次', 200, '区块链存证次数，1 年有效'),
  yearly('blockchain', 'blockchain_100000', 100000, '次', 1800, '区块链存证次数，1 年有效'),
];

export function specsOf(kind: ResourceKind): ResourceSpec[] {
  return RESOURCE_SPECS.filter((s) => s.kind === kind);
}
export function findSpec(id: string): ResourceSpec | undefined {
  return RESOURCE_SPECS.find((s) => s.id === id);
}
export const PROMO_MONTHS = 3;

/** A package as GET /api/resources/account/ lists it. */
export interface ResourcePackage {
  id: number;
  kind: ResourceKind;
  spec: string;
  name: string;
  amount: number;
  remain: number;
  unit: string;
  price: number;
  auto_renew: boolean;
  /** epoch seconds */
  starts_at: number;
  expires_at: number;
  created_at: number;
  status: 'VALID' | 'USED' | 'EXPIRED';
}

/** Remaining traffic as the header shows it: the largest 1024-based unit (GB, TB) holding at least 1. */
export function flowRemain(gb: number): { value: number; unit: string } {
  if (gb >= 1024) return { value: Math.round((gb / 1024) * 1000) / 1000, unit: 'TB' };
  return { value: Math.round(gb * 1000) / 1000, unit: 'GB' };
}
