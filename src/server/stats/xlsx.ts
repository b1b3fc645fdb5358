/**
 * The Excel download (spec 001 §7 "Downloads"): a real .xlsx workbook built from the same series as
 * the chart, one sheet per series. Each sheet starts with a title row, the period and the unit, then
 * a header row (时间 + the series with its unit) and one row per point. Server-side only: exceljs never
 * reaches the console bundle.
 */
import ExcelJS from 'exceljs';
import type { Series } from './query';
import { BANDWIDTH_UNITS, BYTE_UNITS, REQUEST_UNITS, inUnit, pickUnit, type Unit } from '../../shared/stats/units';
import { formatTime } from '../../shared/stats/time';
import { FLOW_TYPE_LABELS, type FlowType } from '../../shared/stats/constants';

interface SheetSpec {
  name: string;
  label: string;
  values: number[];
  units: Unit[];
}

export async function seriesWorkbook(s: Series, meta: { flowType: FlowType; start: number; end: number; scopeText: string }): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = '云控制台';
  wb.created = new Date();
  const sheets: SheetSpec[] = [
    { name: '带宽', label: '带宽', values: s.bandwidth, units: BANDWIDTH_UNITS },
    { name: '流量', label: '流量', values: s.traffic, units: BYTE_UNITS },
    { name: '请求数', label: '请求数', values: s.requests, units: REQUEST_UNITS },
  ];
  if (s.attack && s.filtered) {
    sheets.push({ name: '攻击流入带宽', label: '攻击流入带宽', values: s.attack, units: BANDWIDTH_UNITS });
    sheets.push({ name: '清洗带宽', label: '清洗带宽', values: s.filtered, units: BANDWIDTH_UNITS });
  }
  const step = s.granularity === 300 ? '5 分钟' : s.granularity === 3600 ? '1 小时' : '1 天';
  for (const spec of sheets) {
    const unit = pickUnit(Math.max(0, ...spec.values), spec.units);
    const ws = wb.addWorksheet(spec.name);
    ws.addRow([`${FLOW_TYPE_LABELS[meta.flowType]} ${spec.label}（${meta.scopeText}）`]);
    ws.addRow([`时间范围：${formatTime(meta.start)} 至 ${formatTime(meta.end)}（UTC+8），粒度 ${step}，单位 ${unit.label}`]);
    const header = ws.addRow(['时间', `${spec.label}（${unit.label}）`]);
    header.font = { bold: true };
    for (let i = 0; i < s.times.length; i++) ws.addRow([formatTime(s.times[i]), inUnit(spec.values[i], unit)]);
    ws.getColumn(1).width = 22;
    ws.getColumn(2).width = 20;
    ws.views = [{ state: 'frozen', ySplit: 3 }];
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}
