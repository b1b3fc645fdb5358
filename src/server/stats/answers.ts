/**
 * The success answers of the stats routes (issue 23 item 2): see src/server/http/answers.ts.
 */
import { CARRIERS } from '../../shared/stats/constants';
import { ok, str, num, bool, obj, map, arr, cursorPager, type AnswerTable } from '../http/answers';
import { billingMode, priceConfig } from '../billing/answers';

/** One day of the usage history (spec 001 §3 flow history record; src/server/stats/routes.ts `history`). */
const flowHistoryRecord = obj({
  date: str,
  timestamp: num,
  flow_time: str,
  bytes: num,
  reqs: num,
  dreqs: num,
  sreqs: num,
  hreqs: num,
  hit_reqs: num,
  bandwidth: num,
  peak_time: str,
  time: num,
  peak_exact: bool,
  rps: num,
  bill_bytes: num,
  bf_cp_bytes: num,
  cp_bytes: num,
  bf_cp_bandwidth: num,
  bill_bandwidth: num,
  flow_total: num,
  service_flow_total: num,
  wsbytes: num,
  wsbandwidth: num,
  peak_time_ws: str,
});
const historySummary = { summary: obj({ flow_total: num, service_flow_total: num, days: num }) };

/** The 95th-percentile bandwidth of a period (query.ts `bandwidth95`); null where the query is not the edge traffic of the whole selection. */
const bandwidth95Fields = { bandwidth95: num, time: num, samples: num, dropped: num, valid_days: num };

/**
 * A chart of a flow type (routes.ts `chartPayload` and `statistic`), the same for every variant: the
 * series, the chart's datasets in display units, the totals, the 95; the attack fields only for scdn.
 */
const statistic = ok(obj({
  flow_type: str,
  start_day: str,
  end_day: str,
  period: num,
  start: num,
  end: num,
  granularity: num,
  tier: str,
  times: arr(num),
  bandwidth: arr(num),
  traffic: arr(num),
  requests: arr(num),
  _dataset: obj({
    columns: obj({
      yLeftData: obj({ data: arr(num), yAxisMax: num }),
      yRightData: obj({ data: arr(num), yAxisMax: num }),
    }),
    unit: obj({ yLeftUnit: str, yRightUnitReq: str }),
  }),
  transfer_dataset: obj({ data: arr(num), yAxisMax: num, unit: str }),
  usageData: obj({ flow_total: num, reqs_total: num, peak_bandwidth: num, peak_time: num }),
  attack: arr(num),
  filtered: arr(num),
  attack_dataset: obj({ inflow: arr(num), filtered: arr(num), yAxisMax: num, unit: str }),
  bandwidth95: obj(bandwidth95Fields),
}));

/** One value per carrier (src/shared/stats/constants.ts CARRIERS, and `other`), as the proportion's columns name them. */
const perCarrier = (value: Record<string, unknown>) => Object.fromEntries([...CARRIERS, 'other'].map((c) => [c, value]));

/** The services and domains ranked by traffic (routes.ts `rankings`): the flow top and the SCDN top. */
const rankings = ok(obj({
  total_bytes: num,
  buckets: arr(obj({
    rank: num,
    bucket_name: str,
    bytes: num,
    reqs: num,
    attack_bytes: num,
    attacks: num,
    domains: num,
    share: num,
  })),
  domains: arr(obj({
    rank: num,
    domain: str,
    bucket_name: str,
    bytes: num,
    reqs: num,
    peak_bandwidth: num,
    attack_bytes: num,
    xss: num,
    sql: num,
    other: num,
    share: num,
  })),
}));

export const statsAnswers: AnswerTable = {
  // src/server/stats/ingest.ts
  'POST /api/flow/ingest/token': ok(obj({ token: str })),
  // src/server/stats/ingest.ts
  'POST /api/flow/ingest/': ok(obj({ slot: num, domains: num, records: num })),
  // src/server/stats/lists.ts
  'GET /api/stats/buckets/': ok(arr(obj({
      bucket_id: num,
      bucket_name: str,
      kind: str,
      type: str,
      remark: str,
      domains: arr(obj({ domain: str })),
    })), { pager: cursorPager }),
  // src/server/stats/lists.ts
  'GET /api/domains/buckets': ok(arr(obj({ domain: str, bucket_name: str, type: str, status: str })), { pager: cursorPager }),
  // src/server/stats/lists.ts
  'GET /api/flow/backsource/follow/': ok(arr(obj({ domain: str, bucket_name: str, follows: bool }))),
  // src/server/stats/routes.ts: the chart of each flow type
  'GET /api/flow/statistic/': statistic,
  'GET /api/flow/pcdn/statistic': statistic,
  'GET /api/flow/websocket/statistic': statistic,
  'GET /api/cdn/mingmou/statistic': statistic,
  'GET /api/flow/abroad/statistic': statistic,
  'GET /api/flow/scdn/statistic': statistic,
  'GET /api/scdn/flow': statistic,
  // src/server/stats/routes.ts
  'GET /api/flow/bandwidth95/': ok(obj({ ...bandwidth95Fields, value: num, unit: str, peak_time: str })),
  // src/server/stats/routes.ts
  'GET /api/flow/proportion/': ok(obj({
      total_bytes: num,
      isp_proportion: arr(obj({ isp: str, name: str, bytes: num, reqs: num, share: num })),
      region_proportion: arr(obj({ region: str, name: str, bytes: num, share: num })),
      region_rank: arr(obj({
        rank: num,
        region: str,
        name: str,
        bytes: num,
        reqs: num,
        share: num,
        carriers: map(num),
      })),
      top_of_region_and_proportion: arr(obj({
        province: str,
        name: str,
        bytes: num,
        share: num,
        ...perCarrier(num),
      })),
      ip_proportion: arr(obj({ ip_type: str, name: str, bytes: num, share: num })),
      origin_proportion: arr(obj({ source: str, name: str, bytes: num, share: num })),
      region_top: obj({
        regions: arr(obj({ region: str, name: str })),
        columns: obj(perCarrier(arr(num))),
        carriers: arr(obj({ isp: str, name: str })),
        unit: str,
      }),
    })),
  // src/server/stats/routes.ts
  'GET /api/flow/map/': ok(arr(obj({ region: str, name: str, bytes: num, reqs: num, share: num }))),
  // src/server/stats/routes.ts
  'GET /api/flow/amount/history/': ok(arr(flowHistoryRecord), historySummary),
  // src/server/stats/routes.ts
  'GET /api/flow/scdn/amount/history': ok(arr(flowHistoryRecord), historySummary),
  // src/server/stats/routes.ts
  'GET /api/cdn/mingmou/history': ok(arr(flowHistoryRecord), historySummary),
  // src/server/stats/routes.ts
  'GET /api/flow/abroad/history': ok(arr(flowHistoryRecord), historySummary),
  // src/server/stats/routes.ts
  'GET /api/flow/status/history/': ok(obj({ times: arr(num), s2xx: arr(num), s3xx: arr(num), s4xx: arr(num), s5xx: arr(num) })),
  // src/server/stats/routes.ts
  'GET /api/flow/health_degree/detail/': ok(arr(obj({
      timestamp: num,
      health_degree: num,
      hit_degree: num,
      avg_download_speed: num,
      avg_time_spend: num,
      avg_size: num,
      xss: num,
      sql: num,
      other: num,
    }))),
  // src/server/stats/routes.ts
  'GET /api/buckets/stats_top/': rankings,
  // src/server/stats/routes.ts
  'GET /api/scdn/stats/top/': rankings,
  // src/server/stats/routes.ts: the price configuration and the billing modes, as billing declares them
  'GET /api/accounts/price_config': ok(priceConfig),
  'GET /api/flow/billing_mode/': ok(billingMode),
  // 'GET /api/flow/statistic/download/': not answered in the tests (src/server/stats/routes.ts)
  // 'GET /api/flow/websocket/download/': not answered in the tests (src/server/stats/routes.ts)
  // 'GET /api/flow/abroad/download/': not answered in the tests (src/server/stats/routes.ts)
  // 'GET /api/flow/scdn/statistic/download/': not answered in the tests (src/server/stats/routes.ts)
  // 'GET /api/cdn/mingmou/download': not answered in the tests (src/server/stats/routes.ts)
};
