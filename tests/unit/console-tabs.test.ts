/**
 * Every tab list is drawn by src/console/common/Tabs.tsx (issue 24): it gives each Blueprint `Tab` the
 * `disabled={false}` that React 19 no longer takes from `defaultProps`, without which the arrow keys,
 * Enter and Space do nothing. A file that imports `Tab` or `Tabs` from Blueprint itself is named.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const OWN = 'src/console/common/Tabs.tsx';

function filesOf(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...filesOf(rel));
    else if (/\.tsx?$/.test(e.name)) out.push(rel);
  }
  return out;
}

test('no file but common/Tabs.tsx takes Tab or Tabs from @blueprintjs/core', () => {
  const offenders = [...filesOf('src/console'), ...filesOf('renderers')].filter((file) => {
    if (file === OWN) return false;
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    return [...text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@blueprintjs\/core'/g)].some((m) =>
      m[1].split(',').some((n) => ['Tab', 'Tabs'].includes(n.trim().split(/\s+as\s+/)[0])),
    );
  });
  expect(offenders).toEqual([]);
});

test('the check sees an import of Tabs from Blueprint', () => {
  const text = "import { Button, Tabs } from '@blueprintjs/core';";
  expect([...text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@blueprintjs\/core'/g)][0][1]).toContain('Tabs');
});
