import dayjs from 'dayjs';
import type { PlatformCommand } from '../platform/command';
import { EVENT_FAMILIES, type EventFamily } from '../../shared/events';
import { eventCounts } from './repo';

export const eventCommands: PlatformCommand[] = [
  {
    name: 'events',
    summary: '统计事件计数（按类型与日期）',
    usage: '--family verify|usage|buried  --from YYYY-MM-DD  --to YYYY-MM-DD（默认最近 7 天）',
    async run(db, args) {
      const family = args.family as EventFamily | undefined;
      if (family && !EVENT_FAMILIES[family]) throw new Error('--family 只能是 verify、usage 或 buried');
      const to = args.to ?? dayjs().format('YYYY-MM-DD');
      const from = args.from ?? dayjs(to).subtract(6, 'day').format('YYYY-MM-DD');
      const rows = await eventCounts(db, { family, from, to });
      if (!rows.length) return '这段时间没有统计事件';
      return rows.map((r) => `${r.day}  ${r.family.padEnd(6)} ${String(r.type).padStart(2)} ${EVENT_FAMILIES[r.family as EventFamily].names[r.type - 1].padEnd(20)} ${String(r.count).padStart(6)} 次  ${r.accounts} 个账号`).join('\n');
    },
  },
];
