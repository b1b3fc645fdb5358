/**
 * The statistics charts, drawn with visx (only in the lazy "stats" chunk): a trend chart with one or
 * two value axes and an optional horizontal 95 line, a pie with clickable slices, horizontal bars
 * (plain or stacked by carrier). Tooltips show the exact value and time. Series longer than the
 * chart's width are thinned per pixel column (keeping each column's highest value), so even 30 days
 * of 5-minute points draw no more than two points per pixel.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Group } from '@visx/group';
import { scaleLinear, scaleBand } from '@visx/scale';
import { AxisBottom, AxisLeft, AxisRight } from '@visx/axis';
import { LinePath, AreaClosed, Line, Pie, Bar } from '@visx/shape';
import { formatTime } from '../../shared/stats/time';
import { timeTicks, timeTickLabel } from '../../shared/time-axis';
import './charts.css';
import { axisMax } from '../../shared/stats/units';

export const COLORS = ['#2d72d2', '#29a634', '#d9822b', '#7961db', '#d13913', '#00a396', '#db2c6f', '#8f398f', '#946638', '#634dbf', '#5f6b7c'];

/** The width of a container, following resizes. */
export function useWidth<T extends HTMLElement>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [w, setW] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    setW(el.clientWidth);
    const ro = new ResizeObserver(() => setW(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, w];
}

export interface LineSeries {
  key: string;
  label: string;
  color: string;
  values: number[];
  axis?: 'left' | 'right';
  area?: boolean;
  /** formats a value for the tooltip (in display units) */
  format: (v: number) => string;
}

/** Keeps at most `columns` points: per column the point with the highest value of the first series. */
export function thin(times: number[], series: number[][], columns: number): { idx: number[] } {
  const n = times.length;
  if (n <= columns * 2 || columns <= 0) return { idx: times.map((_, i) => i) };
  const per = n / columns;
  const idx: number[] = [];
  for (let c = 0; c < columns; c++) {
    const a = Math.floor(c * per);
    const b = Math.min(n, Math.floor((c + 1) * per));
    let best = a;
    for (let i = a; i < b; i++) if (series[0][i] > series[0][best]) best = i;
    idx.push(best);
  }
  return { idx };
}


export function TrendChart(props: {
  times: number[];
  granularity: number;
  series: LineSeries[];
  leftUnit: string;
  rightUnit?: string;
  leftMax?: number;
  rightMax?: number;
  /** a horizontal line on the left axis, in its unit */
  line95?: { value: number; label: string } | null;
  height?: number;
  testId?: string;
  empty?: ReactNode;
}) {
  const renderStart = performance.now();
  const [ref, width] = useWidth<HTMLDivElement>();
  // the time from this render to the next frame after the commit (read by tests/bench/stats.ts)
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || width <= 0) return;
    delete el.dataset.renderMs;
    requestAnimationFrame(() => (el.dataset.renderMs = (performance.now() - renderStart).toFixed(1)));
  });
  const height = props.height ?? 300;
  const margin = { top: 28, right: props.rightUnit ? 64 : 20, bottom: 34, left: 64 };
  const innerW = Math.max(10, width - margin.left - margin.right);
  const innerH = height - margin.top - margin.bottom;
  const [hover, setHover] = useState<number | null>(null);
  const { times } = props;
  const left = props.series.filter((s) => (s.axis ?? 'left') === 'left');
  const right = props.series.filter((s) => s.axis === 'right');
  const { idx } = useMemo(() => thin(times, props.series.map((s) => s.values), Math.floor(innerW)), [times, props.series, innerW]);
  // a single point sits in the middle of its own width
  const t0 = times.length > 1 ? times[0] : (times[0] ?? 0) - props.granularity / 2;
  const t1 = times.length > 1 ? times[times.length - 1] : t0 + props.granularity;
  const x = scaleLinear({ domain: [t0, t1], range: [0, innerW] });
  const leftMax = props.leftMax ?? axisMax(Math.max(0, ...left.flatMap((s) => s.values), props.line95?.value ?? 0));
  const yL = scaleLinear({ domain: [0, Math.max(leftMax, props.line95 ? props.line95.value * 1.05 : 0)], range: [innerH, 0], nice: false });
  const yR = scaleLinear({ domain: [0, props.rightMax ?? axisMax(Math.max(0, ...right.flatMap((s) => s.values)))], range: [innerH, 0] });
  // ticks on whole hours and days, one date per day (src/shared/time-axis.ts)
  const ticks = timeTicks(t0, t1, Math.min(8, Math.max(2, Math.floor(innerW / 90))));
  const onMove = (e: React.MouseEvent<SVGRectElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    const t = x.invert(e.clientX - box.left);
    // nearest point
    let lo = 0;
    let hi = times.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (times[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    const i = lo > 0 && Math.abs(times[lo - 1] - t) < Math.abs(times[lo] - t) ? lo - 1 : lo;
    setHover(i);
  };
  return (
    <div className="trend-chart" ref={ref} data-testid={props.testId} data-points={times.length}>
      <div className="chart-legend">
        {props.series.map((s) => (
          <span key={s.key} className="legend-item">
            <i style={{ background: s.color }} />
            {s.label}
          </span>
        ))}
        {props.line95 && (
          <span className="legend-item legend-95" data-testid="legend-95">
            <i style={{ background: '#d13913' }} />
            {props.line95.label}
          </span>
        )}
      </div>
      {width > 0 && (
        <svg width={width} height={height} role="img" aria-label={props.series.map((s) => s.label).join('、')}>
          <Group left={margin.left} top={margin.top}>
            {yL.ticks(5).map((v) => (
              <line key={v} x1={0} x2={innerW} y1={yL(v)} y2={yL(v)} stroke="#e5e8eb" />
            ))}
            {props.series.map((s) => {
              const y = (s.axis ?? 'left') === 'left' ? yL : yR;
              const pts = idx.map((i) => ({ t: times[i], v: s.values[i] ?? 0 }));
              return (
                <g key={s.key} data-series={s.key}>
                  {s.area && <AreaClosed data={pts} x={(d) => x(d.t)} y={(d) => y(d.v)} yScale={y} fill={s.color} fillOpacity={0.12} />}
                  <LinePath data={pts} x={(d) => x(d.t)} y={(d) => y(d.v)} stroke={s.color} strokeWidth={1.5} className="series-line" />
                  {pts.length <= 3 && pts.map((d) => <circle key={d.t} cx={x(d.t)} cy={y(d.v)} r={3.5} fill={s.color} />)}
                </g>
              );
            })}
            {props.line95 && (
              <g data-testid="line-95">
                <Line from={{ x: 0, y: yL(props.line95.value) }} to={{ x: innerW, y: yL(props.line95.value) }} stroke="#d13913" strokeDasharray="6 4" strokeWidth={1.5} />
                <text x={innerW - 4} y={yL(props.line95.value) - 6} textAnchor="end" fontSize={12} fill="#d13913">
                  {props.line95.label}：{props.line95.value} {props.leftUnit}
                </text>
              </g>
            )}
            <AxisLeft scale={yL} numTicks={5} label={props.leftUnit} labelOffset={40} tickLabelProps={{ fontSize: 11, fill: '#5f6b7c' }} />
            {props.rightUnit && <AxisRight left={innerW} scale={yR} numTicks={5} label={props.rightUnit} labelOffset={40} tickLabelProps={{ fontSize: 11, fill: '#5f6b7c' }} />}
            <AxisBottom top={innerH} scale={x} tickValues={ticks.values} tickFormat={(v) => timeTickLabel(Number(v), ticks)} tickLabelProps={{ fontSize: 11, fill: '#5f6b7c' }} />
            {hover !== null && times[hover] !== undefined && <line x1={x(times[hover])} x2={x(times[hover])} y1={0} y2={innerH} stroke="#8f99a8" strokeDasharray="3 3" />}
            <rect width={innerW} height={innerH} fill="transparent" onMouseMove={onMove} onMouseLeave={() => setHover(null)} data-testid={props.testId ? `${props.testId}-overlay` : undefined} />
          </Group>
        </svg>
      )}
      {hover !== null && times[hover] !== undefined && (
        <div className="chart-tooltip" role="tooltip" style={{ left: Math.min(width - 220, margin.left + x(times[hover]) + 12), top: margin.top + 8 }}>
          <div className="tooltip-time">{formatTime(times[hover])}</div>
          {props.series.map((s) => (
            <div key={s.key}>
              <i style={{ background: s.color }} />
              {s.label}：{s.format(s.values[hover] ?? 0)}
            </div>
          ))}
        </div>
      )}
      {times.length === 0 && <div className="chart-empty">{props.empty ?? '暂无数据'}</div>}
    </div>
  );
}

export interface Slice {
  key: string;
  label: string;
  value: number;
  share: number;
}

export function PieChart(props: { slices: Slice[]; onSlice?: (s: Slice) => void; format: (v: number) => string; testId?: string; size?: number }) {
  const size = props.size ?? 220;
  const r = size / 2;
  const [hover, setHover] = useState<Slice | null>(null);
  const total = props.slices.reduce((a, s) => a + s.value, 0);
  return (
    <div className="pie-chart" data-testid={props.testId}>
      <svg width={size} height={size}>
        <Group top={r} left={r}>
          {total > 0 ? (
            <Pie data={props.slices} pieValue={(s) => s.value} outerRadius={r - 4} innerRadius={r * 0.5} padAngle={0.01}>
              {(pie) =>
                pie.arcs.map((arc, i) => (
                  <path
                    key={arc.data.key}
                    d={pie.path(arc) ?? ''}
                    fill={COLORS[i % COLORS.length]}
                    className="pie-slice"
                    data-slice={arc.data.key}
                    aria-label={`${arc.data.label} ${arc.data.share}%`}
                    // a named slice: a button where a slice opens something, else a picture (an SVG path takes no name of its own)
                    role={props.onSlice ? 'button' : 'img'}
                    tabIndex={props.onSlice ? 0 : undefined}
                    onKeyDown={(e) => {
                      if (props.onSlice && (e.key === 'Enter' || e.key === ' ')) {
                        e.preventDefault();
                        props.onSlice(arc.data);
                      }
                    }}
                    onFocus={() => setHover(arc.data)}
                    onBlur={() => setHover(null)}
                    onClick={() => props.onSlice?.(arc.data)}
                    onMouseEnter={() => setHover(arc.data)}
                    onMouseLeave={() => setHover(null)}
                  />
                ))
              }
            </Pie>
          ) : (
            <circle r={r - 4} fill="#f0f2f5" />
          )}
          <text textAnchor="middle" dy={-4} fontSize={12} fill="#5f6b7c">
            {hover ? hover.label : '合计'}
          </text>
          <text textAnchor="middle" dy={14} fontSize={13} fontWeight={600} fill="#1c2127">
            {hover ? `${hover.share}%` : props.format(total)}
          </text>
        </Group>
      </svg>
      <ul className="pie-legend">
        {props.slices.map((s, i) => (
          <li key={s.key} onClick={() => props.onSlice?.(s)} title={`${s.label}：${props.format(s.value)}（${s.share}%）`}>
            <i style={{ background: COLORS[i % COLORS.length] }} />
            <span className="legend-label">{s.label}</span>
            <span className="legend-share">{s.share}%</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Horizontal bars; with `stack`, each bar is split by the stack keys (carriers). Row height 37 px (spec 001 §9). */
export function BarChart(props: {
  rows: { key: string; label: string; values: Record<string, number> }[];
  stack: { key: string; label: string }[];
  format: (v: number) => string;
  onRow?: (key: string) => void;
  testId?: string;
}) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const rowH = 37;
  const height = props.rows.length * rowH + 30;
  const margin = { left: 72, right: 90, top: 4 };
  const innerW = Math.max(10, width - margin.left - margin.right);
  const totals = props.rows.map((r) => props.stack.reduce((a, s) => a + (r.values[s.key] ?? 0), 0));
  const x = scaleLinear({ domain: [0, Math.max(1, ...totals)], range: [0, innerW] });
  const y = scaleBand({ domain: props.rows.map((r) => r.key), range: [0, props.rows.length * rowH], padding: 0.35 });
  const [hover, setHover] = useState<{ row: string; key: string; v: number; top: number } | null>(null);
  return (
    <div className="bar-chart" ref={ref} data-testid={props.testId}>
      {props.stack.length > 1 && (
        <div className="chart-legend">
          {props.stack.map((s, i) => (
            <span key={s.key} className="legend-item">
              <i style={{ background: COLORS[i % COLORS.length] }} />
              {s.label}
            </span>
          ))}
        </div>
      )}
      {width > 0 && (
        <svg width={width} height={height}>
          <Group left={margin.left} top={margin.top}>
            {props.rows.map((r, ri) => {
              let acc = 0;
              return (
                <g key={r.key} className="bar-row" onClick={() => props.onRow?.(r.key)} data-row={r.key}>
                  <text x={-8} y={(y(r.key) ?? 0) + y.bandwidth() / 2} dy="0.35em" textAnchor="end" fontSize={12} fill="#1c2127">
                    {r.label}
                  </text>
                  {props.stack.map((s, i) => {
                    const v = r.values[s.key] ?? 0;
                    const x0 = x(acc);
                    acc += v;
                    return (
                      <Bar
                        key={s.key}
                        x={x0}
                        y={y(r.key)}
                        width={Math.max(0, x(acc) - x0)}
                        height={y.bandwidth()}
                        fill={COLORS[(props.stack.length > 1 ? i : ri) % COLORS.length]}
                        onMouseEnter={() => setHover({ row: r.label, key: s.label, v, top: (y(r.key) ?? 0) })}
                        onMouseLeave={() => setHover(null)}
                      />
                    );
                  })}
                  <text x={x(totals[ri]) + 6} y={(y(r.key) ?? 0) + y.bandwidth() / 2} dy="0.35em" fontSize={11} fill="#5f6b7c">
                    {props.format(totals[ri])}
                  </text>
                </g>
              );
            })}
          </Group>
        </svg>
      )}
      {hover && (
        <div className="chart-tooltip" role="tooltip" style={{ left: margin.left + 8, top: hover.top + 36 }}>
          {hover.row} · {hover.key}：{props.format(hover.v)}
        </div>
      )}
    </div>
  );
}
