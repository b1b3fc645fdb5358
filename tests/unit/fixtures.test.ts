/**
 * Every fixture of every declaration, driven by the registry: a new folder's fixtures run with no code.
 */
import { loadDeclarations } from '../../schemas/load';
import { SettingRegistry } from '../../schemas/registry';
import { sortErrors } from '../../schemas/check';

const declarations = loadDeclarations();
const registry = new SettingRegistry(declarations);

describe.each(declarations.map((d) => [d.meta.id, d] as const))('setting %s', (id, d) => {
  const valid = d.fixtures!.valid;
  const invalid = d.fixtures!.invalid;

  it('has at least one valid and one invalid fixture', () => {
    expect(valid.length).toBeGreaterThan(0);
    expect(invalid.length).toBeGreaterThan(0);
  });

  it.each(valid.map((f) => [f.file.split('/').slice(-1)[0], f] as const))('valid fixture %s passes', async (_n, f) => {
    expect(registry.check(id, f.payload)).toEqual([]);
    const result = await registry.validate(id, f.payload);
    expect(result.ok).toBe(true);
  });

  it.each(invalid.map((f) => [f.file.split('/').slice(-1)[0], f] as const))('invalid fixture %s fails with its messages', async (_n, f) => {
    expect(f.errors && f.errors.length).toBeTruthy();
    expect(sortErrors(registry.check(id, f.payload))).toEqual(sortErrors(f.errors!));
  });
});
