/**
 * Every error code the server can answer with has a Chinese text in the catalogue
 * (src/shared/errors.ts), so no person ever sees the 21000 fallback for a known refusal.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ERROR_TEXTS } from '../../src/shared/errors';

const ROOT = path.resolve(__dirname, '../..');

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : []));
}

/** Codes written as `new ApiError(21xxx` or `code: 21xxx` in the server and the declarations' rules. */
function emittedCodes(): Map<number, string> {
  const codes = new Map<number, string>();
  const sources = [...files(path.join(ROOT, 'src/server')), ...files(path.join(ROOT, 'schemas')).filter((f) => f.endsWith('rules.ts')), path.join(ROOT, 'src/shared/services.ts')];
  for (const f of sources) {
    const text = fs.readFileSync(f, 'utf8');
    for (const m of text.matchAll(/new ApiError\(\s*(\d{5})|\bcode: (\d{5})\b|return (\d{5});/g)) {
      codes.set(Number(m[1] ?? m[2] ?? m[3]), path.relative(ROOT, f));
    }
  }
  return codes;
}

it('finds the codes the server emits', () => {
  expect(emittedCodes().size).toBeGreaterThan(20);
});

it.each([...emittedCodes()].map(([code, file]) => [code, file]))('code %i (%s) has a Chinese text', (code) => {
  expect(ERROR_TEXTS[code as number]).toMatch(/[\u4e00-\u9fff]/);
});

it('holds no code twice with the same text but a different meaning', () => {
  const texts = Object.values(ERROR_TEXTS);
  expect(new Set(texts).size).toBe(texts.length);
});
