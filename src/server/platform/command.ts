import type { DB } from '../db';

/** A command of the platform CLI (./cli.ts). `run` returns what is printed (an object as JSON). */
export interface PlatformCommand {
  name: string;
  summary: string;
  usage: string;
  run(db: DB, args: Record<string, string>): Promise<unknown>;
}

/** `--key value` pairs (a bare `--flag` is "true"). */
export function parseArgs(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error(`无法识别的参数：${a}`);
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) out[a.slice(2)] = 'true';
    else {
      out[a.slice(2)] = next;
      i++;
    }
  }
  return out;
}

export function required(args: Record<string, string>, key: string): string {
  const v = args[key];
  if (!v || v === 'true') throw new Error(`缺少参数 --${key}`);
  return v;
}
