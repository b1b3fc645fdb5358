/**
 * Finds every declaration folder on disk: schemas/settings/<id>/ with setting.json, schema.json,
 * ui.json, optional rules.ts and fixtures/{valid,invalid}/*.json. Used by the server, the CLI and jest.
 * SCHEMAS_DIR points it at another folder (tests use a temporary one).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Declaration, Fixture, FormDeclaration, FormRules, SettingRules } from './types';
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
      return { file, description: raw.description, payload: raw.payload, errors: raw.errors, ...(raw.context !== undefined ? { context: raw.context } : {}) };
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

/** Forms: schemas/forms/<id>/ (any folder with a schema.json). FORMS_DIR points elsewhere. */
export const DEFAULT_FORMS_DIR = path.join(__dirname, 'forms');

export function formsDir(): string {
  return process.env.FORMS_DIR ? path.resolve(process.env.FORMS_DIR) : DEFAULT_FORMS_DIR;
}

function requireRules(dir: string): Record<string, unknown> {
  for (const name of ['rules.ts', 'rules.js']) {
    const f = path.join(dir, name);
    if (fs.existsSync(f)) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mod = require(f);
      return (mod.default && typeof mod.default === 'object' ? { ...mod, ...mod.default } : mod) as Record<string, unknown>;
    }
  }
  return {};
}

/** One form folder: schema.json (required), ui.json, rules.ts and fixtures/{valid,invalid} (optional). */
export function loadForm(dir: string): FormDeclaration {
  const schema = readJson(path.join(dir, 'schema.json'));
  const uiFile = path.join(dir, 'ui.json');
  const fixturesDir = path.join(dir, 'fixtures');
  const fixtures = { valid: readFixtures(path.join(fixturesDir, 'valid')), invalid: readFixtures(path.join(fixturesDir, 'invalid')) };
  return {
    id: path.basename(dir),
    schema,
    ui: fs.existsSync(uiFile) ? readJson(uiFile) : {},
    rules: requireRules(dir) as FormRules,
    fixtures,
    hasFixtures: fixtures.valid.length + fixtures.invalid.length > 0,
    dir,
  };
}

/** Every form folder (those without a schema.json are not forms and are left alone), by id. */
export function loadForms(dir = formsDir()): FormDeclaration[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(dir, e.name, 'schema.json')))
    .map((e) => loadForm(path.join(dir, e.name)))
    .sort((a, b) => a.id.localeCompare(b.id));
}
