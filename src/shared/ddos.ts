/**
 * DDoS 高防 IP (spec 002 "DDoS"): the packages, the nodes, the prices, the limits, the flow series
 * and the texts, read by the server (src/server/ddos/) and the console (src/console/ddos/). The rule
 * forms' field rules are in their declarations (schemas/forms/ddos_*); everything else is here.
 * Where the spec says "not shown" the values are ours (docs/ddos.md).
 */

/** Who may use the DDoS pages and calls: main accounts only (docs/ddos.md "Access"). */
export const DDOS_ACCESS = 'parent' as const;

export interface DdosPackage {
  id: string;
  name: string;
  /** guaranteed protection, Gbps */
  protect_gbps: number;
  /** elastic protection ceiling, Gbps */
  elastic_gbps: number;
  /** clean business bandwidth, Mbps */
  business_mbps: number;
  /** website (L7) rules an instance may hold */
  max_websites: number;
  /** non-website (port forwarding) rules an instance may hold */
  max_ports: number;
  /** price of one protected IP for one month, yuan */
  price_month: number;
}

export const DDOS_PACKAGES: DdosPackage[] = [
  { id: 'basic', name: '基础版', protect_gbps: 20, elastic_gbps: 100, business_mbps: 100, max_websites: 10, max_ports: 20, price_month: 1980 },
  { id: 'standard', name: '标准版', protect_gbps: 50, elastic_gbps: 300, business_mbps: 200, max_websites: 30, max_ports: 50, price_month: 5980 },
  { id: 'enterprise', name: '企业版', protect_gbps: 100, elastic_gbps: 600, business_mbps: 500, max_websites: 50, max_ports: 100, price_month: 12800 },
];

export function packageOf(id: string): DdosPackage | undefined {
  return DDOS_PACKAGES.find((p) => p.id === id);
}

/** The protection nodes (spec 002 §3 "Node list items: id, name"); each ordered node gives one protected IP. */
export const DDOS_NODES: { id: number; name: string; prefix: string }[] = [
  { id: 1, name: '华东-杭州 BGP', prefix: '103.211.40' },
  { id: 2, name: '华南-广州 BGP', prefix: '103.211.41' },
  { id: 3, name: '华北-北京 BGP', prefix: '103.211.42' },
  { id: 4, name: '西南-成都 电信', prefix: '103.211.43' },
];

/** Durations one may order, months, and the discount of each (a year costs ten months). */
export const DDOS_MONTHS = [1, 3, 6, 12] as const;
export const DDOS_DISCOUNT: Record<number, number> = { 1: 1, 3: 1, 6: 0.95, 12: 10 / 12 };
/** At most this many nodes in one order. */
export const DDOS_MAX_NODES = DDOS_NODES.length;

/** The price of an order, yuan with two decimals: package × nodes × months, with the duration's discount. */
export function ddosPrice(pkg: DdosPackage, nodes: number, months: number): { original: number; price: number } {
  const original = pkg.price_month * nodes * months;
  const price = Math.round(original * (DDOS_DISCOUNT[months] ?? 1) * 100) / 100;
  return { original, price };
}

/** Peaks are stored in bit/s and shown as Gbps (spec 002 §9: divided by 10^9). */
export const GBPS = 1e9;
export function toGbps(bps: number): string {
  return (bps / GBPS).toFixed(2);
}

/**
 * The four flow series (spec 002 §7: GET /api/ddos/stat/flow with type 1, 3, 4 and 5), 5-minute points.
 * Types 2 (outbound) is not drawn by the console and not offered.
 */
export const FLOW_TYPES = {
  1: { title: '入方向总流量', unit: 'bps' },
  3: { title: '攻击流量', unit: 'bps' },
  4: { title: '清洗后业务流量', unit: 'bps' },
  5: { title: '入方向包速率', unit: 'pps' },
} as const;
export type FlowType = 1 | 3 | 4 | 5;
export const FLOW_TYPE_IDS: FlowType[] = [1, 3, 4, 5];
/** A flow query spans at most this many days. */
export const FLOW_MAX_DAYS = 31;

export const ATTACK_TYPES: Record<string, string> = {
  syn_flood: 'SYN Flood',
  udp_flood: 'UDP Flood',
  ack_flood: 'ACK Flood',
  icmp_flood: 'ICMP Flood',
  dns_reflection: 'DNS 反射',
  ntp_reflection: 'NTP 反射',
  cc: 'CC 攻击',
};

export const INSTANCE_STATUS: Record<string, string> = { normal: '正常', expired: '已过期' };
export const IP_STATUS: Record<string, string> = { normal: '正常', cleaning: '清洗中', blackhole: '黑洞中' };
export const ATTACK_STATUS: Record<string, string> = { attacking: '攻击中', ended: '已结束' };
export const ORDER_STATUS: Record<string, string> = { unpaid: '待支付', paid: '已支付' };
export const RULE_STATUS: Record<string, string> = { on: '已启用', off: '已停用' };

export const L4_TYPES: Record<string, string> = {
  blacklist: 'IP 黑名单',
  whitelist: 'IP 白名单',
  port_block: '端口封禁',
  rate_limit: '源 IP 限速',
};

export const CC_LEVELS: Record<string, string> = { off: '关闭', normal: '正常', strict: '严格', emergency: '紧急' };
export const WAF_MODES: Record<string, string> = { block: '拦截', observe: '仅记录' };

/** Where to top up when the balance is short (222xx). */
export const CHARGE_LINK = '/billing/charge/';

/** The tabs of /services/ddos/ (spec 002 §2). */
export const DDOS_TABS = [
  { id: 'instance', title: '实例管理' },
  { id: 'website', title: '网站业务' },
  { id: 'nonwebsite', title: '非网站业务' },
  { id: 'protectlog', title: '防护日志' },
] as const;

/** Page size of the rule and attack lists. */
export const DDOS_PAGE_SIZE = 20;

export interface DdosInstance {
  id: number;
  name: string;
  package: string;
  package_name: string;
  protect_gbps: number;
  elastic_gbps: number;
  business_mbps: number;
  max_websites: number;
  max_ports: number;
  status: string;
  start_time: string;
  end_time: string;
  ip_count: number;
}

export interface DdosIp {
  id: number;
  instance_id: number;
  ip: string;
  node_id: number;
  node_name: string;
  status: string;
}

export interface DdosL7Rule {
  id: number;
  instance_id: number;
  /** website | non_website */
  type: string;
  ip: string;
  domain: string | null;
  protocols: string[];
  port: number | null;
  origin_port: number | null;
  origins: string[];
  cc_level: string | null;
  waf: boolean;
  waf_mode: string;
  status: string;
  created_at: string;
}

export interface DdosL4Rule {
  id: number;
  instance_id: number;
  ip: string;
  type: string;
  values: string[];
  limit: number | null;
  status: string;
  created_at: string;
}

export interface DdosAttack {
  id: number;
  instance_id: number;
  ip: string;
  type: string;
  start_time: string;
  end_time: string | null;
  peak_bps: number;
  peak_pps: number;
  status: string;
}
