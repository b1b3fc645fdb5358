/**
 * The declarations bundled into the console: webpack finds every folder under schemas/settings
 * (the '@settings' alias of webpack.config.ts, which SCHEMAS_DIR can point elsewhere),
 * so a new folder is picked up by the next build with no code. Fixtures are left out of this chunk.
 */
import { SettingRegistry } from '../schemas/registry';
import { createAjv } from '../schemas/vocabulary';
import type { Declaration, SettingMeta, SettingRules } from '../schemas/types';

function collect(): Declaration[] {
  const ctx = require.context('@settings', true, /^\.\/[a-z0-9_]+\/(setting\.json|schema\.json|ui\.json|rules\.ts)$/);
  const byId = new Map<string, Partial<Declaration>>();
  for (const key of ctx.keys()) {
    const [, folder, file] = /^\.\/([^/]+)\/(.+)$/.exec(key)!;
    const d = byId.get(folder) ?? {};
    const mod = ctx(key);
    if (file === 'setting.json') d.meta = mod as SettingMeta;
    else if (file === 'schema.json') d.schema = mod;
    else if (file === 'ui.json') d.ui = mod;
    else if (file === 'rules.ts') d.rules = (mod.default ?? mod) as SettingRules;
    byId.set(folder, d);
  }
  return [...byId.values()]
    .filter((d) => d.meta && d.schema)
    .map((d) => ({ meta: d.meta!, schema: d.schema!, ui: d.ui ?? {}, rules: d.rules ?? {} }));
}

export const registry = new SettingRegistry(collect(), createAjv());
