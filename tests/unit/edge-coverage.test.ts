/** Every setting says what it does on the edge: an edge.ts in its folder, or an `edge` note in setting.json saying why not. */
import fs from 'node:fs';
import path from 'node:path';
import { loadDeclarations } from '../../schemas/load';

test('every setting has an edge.ts or says why it has none', () => {
  const silent = loadDeclarations()
    .filter((d) => !fs.existsSync(path.join(d.dir!, 'edge.ts')) && !d.meta.edge)
    .map((d) => d.meta.id);
  expect(silent).toEqual([]);
});
