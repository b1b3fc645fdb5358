/**
 * Finds every declaration folder on disk: schemas/settings/<id>/ with setting.json, schema.json,
 * ui.json, optional rules.ts and fixtures/{valid,invalid}/*.json. Used by the server, the CLI and jest.
 * SCHEMAS_DIR points it at another folder (tests use a temporary one).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Declaration, Fixture, SettingRules } from './types';
import { SettingRegistry } from './registry';

export const DEFAULT_SETTINGS_DIR = path.join(__dirname, 'settings');

function readJson(file: string): any {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`);
  }
}

function readFixtures(dir: string): Fixture[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const file = path.join(dir, f);
      const raw = readJson(file);
      return { file, description: raw.description, payload: raw.payload, errors: raw.errors };
    });
}

export function loadDeclaration(dir: string): Declaration {
  const meta = readJson(path.join(dir, 'setting.json'));
  const schema = readJson(path.join(dir, 'schema.json'));
  const uiFile = path.join(dir, 'ui.json');
  const ui = fs.existsSync(uiFile) ? readJson(uiFile) : {};
  let rules: SettingRules = {};
  for (const name of ['rules.ts', 'rules.js']) {
    const f = path.join(dir, name);
    if (fs.existsSync(f)) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mod = require(f);
      rules = mod.default ?? mod.rules ?? mod;
      break;
    }
  }
  return {
    meta,
    schema,
    ui,
    rules,
    dir,
    fixtures: { valid: readFixtures(path.join(dir, 'fixtures', 'valid')), invalid: readFixtures(path.join(dir, 'fixtures', 'invalid')) },
  };
}

export function settingsDir(): string {
  return process.env.SCHEMAS_DIR ? path.resolve(process.env.SCHEMAS_DIR) : DEFAULT_SETTINGS_DIR;
}

export function loadDeclarations(dir = settingsDir()): Declaration[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(dir, e.name, 'setting.json')))
    .map((e) => loadDeclaration(path.join(dir, e.name)))
    .sort((a, b) => a.meta.id.localeCompare(b.meta.id));
}

export function loadRegistry(dir = settingsDir()): SettingRegistry {
  return new SettingRegistry(loadDeclarations(dir));
}
