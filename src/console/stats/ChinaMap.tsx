/**
 * The China map of the statistics page (GET /api/flow/map/ over the province outlines of
 * /api/static/china-map.json): each province shaded by its share of the traffic, the exact value and
 * share on hover, a click opens the region's detail like a slice of the region pie.
 */
import { useEffect, useMemo, useState } from 'react';
import { geoMercator, geoPath, type ExtendedFeature } from '@visx/vendor/d3-geo';
import { api } from '../api/client';
import { useWidth } from './charts';

type Geo = { type: 'FeatureCollection'; features: (ExtendedFeature & { properties: { name: string; region: string | null } })[] };

let outlines: Promise<Geo> | null = null;
/** The outlines are static: fetched once per page load, from our own server. */
function loadOutlines(): Promise<Geo> {
  outlines ??= api.get<Geo>('/api/static/china-map.json').catch((e) => {
    outlines = null;
    throw e;
  });
  return outlines;
}

export interface MapRow {
  region: string;
  name: string;
  bytes: number;
  share: number;
}

/** A blue from light (little) to deep (the most): the share relative to the largest province. */
function shade(ratio: number): string {
  const r = Math.max(0, Math.min(1, ratio));
  const from = [223, 235, 250];
  const to = [24, 76, 160];
  return `rgb(${from.map((f, i) => Math.round(f + (to[i] - f) * Math.sqrt(r))).join(',')})`;
}

export function ChinaMap(props: { rows: MapRow[]; format: (bytes: number) => string; onRegion?: (region: string, name: string) => void; testId?: string }) {
  const [geo, setGeo] = useState<Geo | null>(null);
  const [failed, setFailed] = useState(false);
  const [ref, width] = useWidth<HTMLDivElement>();
  const [hover, setHover] = useState<{ name: string; row?: MapRow; x: number; y: number } | null>(null);
  useEffect(() => {
    loadOutlines().then(setGeo, () => setFailed(true));
  }, []);
  const height = Math.max(240, Math.round(width * 0.75));
  // the outlines projected once per size (Mercator fitted to the box, as @visx/geo's Mercator does): new
  // traffic changes only the colours, a hover only the tooltip — projecting every province again on each
  // took more of the statistics page's update than its charts (tests/bench/stats.ts, docs/performance.md)
  const outlinesPaths = useMemo(() => {
    if (!geo || width <= 0) return [];
    const path = geoPath().projection(geoMercator().fitSize([width, height], geo as unknown as ExtendedFeature));
    return geo.features.map((feature) => ({ feature, d: path(feature) ?? '' }));
  }, [geo, width, height]);
  const byRegion = new Map(props.rows.map((r) => [r.region, r]));
  const max = Math.max(1, ...props.rows.map((r) => r.bytes));
  return (
    <div ref={ref} className="china-map" data-testid={props.testId} style={{ position: 'relative' }}>
      {failed && <div className="chart-empty">地图数据加载失败，请刷新重试</div>}
      {geo && width > 0 && (
        <svg width={width} height={height} role="img" aria-label="流量分布地图">
          {outlinesPaths.map(({ feature, d }, i) => {
            const region = feature.properties.region;
            const row = region ? byRegion.get(region) : undefined;
            return (
              <path
                key={i}
                d={d}
                className="map-province"
                data-region={region ?? undefined}
                fill={region ? (row ? shade(row.bytes / max) : '#f5f8fa') : '#e1e8ed'}
                stroke="#fff"
                strokeWidth={0.6}
                style={{ cursor: row && props.onRegion ? 'pointer' : 'default' }}
                onMouseMove={(e) => {
                  const box = (e.currentTarget.ownerSVGElement as SVGSVGElement).getBoundingClientRect();
                  setHover({ name: feature.properties.name, row, x: e.clientX - box.left, y: e.clientY - box.top });
                }}
                onMouseLeave={() => setHover(null)}
                onClick={() => row && props.onRegion?.(row.region, row.name)}
              />
            );
          })}
        </svg>
      )}
      {hover && (
        <div className="chart-tooltip map-tooltip" style={{ left: hover.x + 12, top: hover.y + 12 }} data-testid="map-tooltip">
          <strong>{hover.name}</strong>
          <div>{hover.row ? `${props.format(hover.row.bytes)}（${hover.row.share}%）` : '无流量'}</div>
        </div>
      )}
    </div>
  );
}
