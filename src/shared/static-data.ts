/**
 * The static data the console reads (spec 000 §7 "Other"), served by the console's own server under
 * /api/static/ and never fetched from an outside host: the country-code map, locations, industries
 * and the China map.
 */
import { COUNTRIES } from './edgerules/countries';

export const STATIC_DATA = ['country-codes', 'locations', 'industries', 'china-map'] as const;
export type StaticDataName = (typeof STATIC_DATA)[number];

/** Hong Kong, Macau and Taiwan, merged into the mainland entry of the country-code map. */
export const MERGED_INTO_CN = ['HK', 'MO', 'TW'] as const;

/**
 * The country-code map: every code of the edge-rule list with its Chinese name, the mainland entry
 * merged with Hong Kong, Macau and Taiwan (their codes name 中国, as the spec's map does).
 */
export function countryCodeMap(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [code, name] of Object.entries(COUNTRIES)) out[code] = (MERGED_INTO_CN as readonly string[]).includes(code) ? COUNTRIES.CN : name;
  return out;
}

/** Industries offered by the company real-name and profile forms. */
export const INDUSTRIES = [
  '互联网', '电子商务', '游戏', '视频 / 直播', '社交 / 社区', '在线教育', '金融 / 保险', '医疗健康', '政府 / 公共事业', '新闻 / 媒体 / 出版',
  '软件 / 信息服务', '通信 / 运营商', '制造业', '零售 / 消费品', '物流 / 交通', '旅游 / 酒店', '房地产 / 建筑', '汽车 / 出行', '能源 / 环保', '农业', '其他',
] as const;
