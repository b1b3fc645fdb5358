/** One DDoS flow series drawn with visx: 5-minute points, the peak marked; bps series in Gbps. */
import { useEffect, useRef, useState } from 'react';
import { Group } from '@visx/group';
import { scaleLinear } from '@visx/scale';
import { AxisBottom, AxisLeft } from '@visx/axis';
import { AreaClosed, LinePath } from '@visx/shape';
import { timeTicks, timeTickLabel } from '../../shared/time-axis';
import { GBPS } from '../../shared/ddos';

export interface FlowSeries {
  type: number;
  title: string;
  unit: 'bps' | 'pps';
  points: { time: number; value: number }[];
  peak: number;
  peak_gbps?: number;
}

const HEIGHT = 200;
const M = { top: 10, right: 16, bottom: 28, left: 56 };

export function formatValue(unit: string, v: number): string {
  if (unit === 'bps') return `${(v / GBPS).toFixed(2)} Gbps`;
  if (v >= 1e6) return `${(v / 1e6).toFixed(2)} Mpps`;
  if (v >= 1e3) return `${(v / 1e3).toFixed(1)} Kpps`;
  return `${v} pps`;
}

/** An axis label of a packet rate: 20 M, 500 K, 80. */
function compact(v: number): string {
  if (v >= 1e6) return `${+(v / 1e6).toFixed(1)} M`;
  if (v >= 1e3) return `${+(v / 1e3).toFixed(1)} K`;
  return String(v);
}

export function FlowChart({ series, color }: { series: FlowSeries; color: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(600);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth || 600);
    const ro = new ResizeObserver(() => setWidth(el.clientWidth || 600));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const pts = series.points;
  const scale = series.unit === 'bps' ? GBPS : 1;
  const innerW = Math.max(100, width - M.left - M.right);
  const innerH = HEIGHT - M.top - M.bottom;
  const t0 = pts[0]?.time ?? 0;
  const t1 = pts[pts.length - 1]?.time ?? 1;
  const x = scaleLinear({ domain: [t0, Math.max(t1, t0 + 1)], range: [0, innerW] });
  const ticks = timeTicks(t0, t1, Math.max(2, Math.floor(innerW / 90)));
  const y = scaleLinear({ domain: [0, Math.max(series.peak / scale, 1e-9) * 1.1], range: [innerH, 0], nice: true });
  return (
    <div className="ddos-chart" ref={ref} data-testid={`ddos-flow-${series.type}`}>
      <div className="ddos-chart-head">
        <span className="ddos-chart-title">{series.title}</span>
        <span className="ddos-chart-peak">峰值 {formatValue(series.unit, series.peak)}</span>
      </div>
      {pts.length === 0 ? (
        <div className="ddos-chart-empty">暂无数据</div>
      ) : (
        <svg width={width} height={HEIGHT} role="img" aria-label={series.title}>
          <Group left={M.left} top={M.top}>
            <AreaClosed data={pts} x={(p) => x(p.time)} y={(p) => y(p.value / scale)} yScale={y} fill={color} fillOpacity={0.15} />
            <LinePath data={pts} x={(p) => x(p.time)} y={(p) => y(p.value / scale)} stroke={color} strokeWidth={1.5} />
            <AxisLeft scale={y} numTicks={4} tickFormat={(v) => (series.unit === 'bps' ? `${Number(v)} G` : compact(Number(v)))} />
            <AxisBottom top={innerH} scale={x} tickValues={ticks.values} tickFormat={(v) => timeTickLabel(Number(v), ticks)} />
          </Group>
        </svg>
      )}
    </div>
  );
}
