/**
 * Who may import whom (docs/architecture.md, docs/edge.md "The wall"): the edge imports only schemas/
 * and src/shared/; the server never imports the edge or the console; the console never imports the
 * server or the edge; schemas/ and src/shared/ import neither side. A file that breaks a wall is named.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

function filesOf(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesOf(rel));
    else if (/\.(ts|tsx)$/.test(e.name)) out.push(rel);
  }
  return out;
}

/** The project folders a file imports (resolved relative imports, type-only ones included). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const specs = [...text.matchAll(/(?:from\s+|import\(\s*|require\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
  return specs.map((s) => path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, file)), s)));
}

const inside = (p: string, dir: string) => p === dir || p.startsWith(dir + '/');

function breaches(from: string, allowed: string[]): string[] {
  const out: string[] = [];
  for (const file of filesOf(from)) {
    for (const target of importsOf(file)) {
      if (inside(target, from)) continue;
      if (!allowed.some((a) => inside(target, a))) out.push(`${file} → ${target}`);
    }
  }
  return out;
}

test('the edge imports only schemas/ and src/shared/', () => {
  expect(breaches('src/edge', ['schemas', 'src/shared'])).toEqual([]);
});

test('the server never imports the edge, the console or the form engine', () => {
  expect(breaches('src/server', ['schemas', 'src/shared', 'package.json'])).toEqual([]);
});

test('the demo origin is a part of its own', () => {
  expect(breaches('src/origin', ['src/shared'])).toEqual([]);
});

test('the console never imports the server or the edge', () => {
  const out = breaches('src/console', ['renderers', 'schemas', 'src/shared', 'types']);
  expect(out).toEqual([]);
});

test('schemas/ and src/shared/ import neither side', () => {
  expect(breaches('schemas', ['src/shared'])).toEqual([]);
  expect(breaches('src/shared', [])).toEqual([]);
});
