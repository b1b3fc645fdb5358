/**
 * The command transcripts of docs/testing-schemas.md are replayed: every `$ … npm run schemas -- …`
 * line of a fenced block is run through the CLI and must print exactly the lines that follow it.
 * Blocks fenced as ```text show a situation and are not run; blocks with an ellipsis "…"
 * abbreviate their output and are skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../../schemas/cli';

const ROOT = path.resolve(__dirname, '../..');
const doc = fs.readFileSync(path.join(ROOT, 'docs/testing-schemas.md'), 'utf8');

interface Transcript {
  command: string;
  argv: string[];
  stdin?: string;
  expected: string;
}

function transcripts(markdown: string): Transcript[] {
  const out: Transcript[] = [];
  // plain ``` blocks hold transcripts; ```json, ```ts and others hold files and are skipped
  const blocks: string[] = [];
  let fence: { plain: boolean; lines: string[] } | null = null;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) {
      if (fence) {
        if (fence.plain) blocks.push(fence.lines.join('\n'));
        fence = null;
      } else fence = { plain: line === '```', lines: [] };
      continue;
    }
    fence?.lines.push(line);
  }
  for (const text of blocks) {
    if (text.includes('…')) continue;
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const m = /^\$ (?:echo '(.*)' \| )?npm run schemas -- (.+)$/.exec(lines[i]);
      if (!m) continue;
      const expected: string[] = [];
      for (let j = i + 1; j < lines.length && !lines[j].startsWith('$ '); j++) expected.push(lines[j]);
      while (expected.length && expected[expected.length - 1] === '') expected.pop();
      out.push({ command: lines[i], argv: m[2].split(/\s+/), stdin: m[1], expected: expected.join('\n') + '\n' });
    }
  }
  return out;
}

const all = transcripts(doc);

it('finds the worked example transcripts', () => {
  expect(all.filter((t) => t.argv[0] === 'validate').length).toBeGreaterThanOrEqual(5);
});

it.each(all.map((t) => [t.command, t] as const))('%s', async (_c, t) => {
  const result = await runCli(t.argv, { cwd: ROOT, readStdin: () => t.stdin ?? '' });
  if (t.argv[0] === 'check') {
    // the count line depends on the folders of the day
    expect(result.out.replace(/检查了 \d+ 个设置/, '检查了 N 个设置')).toBe(t.expected.replace(/检查了 \d+ 个设置/, '检查了 N 个设置'));
  } else {
    expect(result.out).toBe(t.expected);
  }
});
