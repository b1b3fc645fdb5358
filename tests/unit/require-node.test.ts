/**
 * The runtime check (scripts/require-node.cjs, issue 40): the tests themselves run on the project's own
 * Node.js (package.json engines.node); an entry point started by hand on the machine's older node — the
 * server, or scripts/start.mjs — stops at once, non-zero, with one line naming the version it needs and
 * how to get it. Needs /usr/bin/node to be an older major (Node.js 20 on these machines): skipped otherwise.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const ROOT = path.resolve(__dirname, '../..');
const range: string = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).engines.node;
const required = Number(/>=\s*(\d+)/.exec(range)![1]);
const major = (v: string) => Number(v.replace(/^v/, '').split('.')[0]);

const OLD_NODE = '/usr/bin/node';
const oldVersion = fs.existsSync(OLD_NODE) ? spawnSync(OLD_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim() : '';
const oldIs20 = major(oldVersion) === 20;

test('the tests run on the Node.js package.json asks for', () => {
  expect(major(process.version)).toBe(required);
});

test('the node pin and @types/node have the major engines.node names (docs/operations.md "Moving to the next LTS")', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  expect(pkg.dependencies.node).toMatch(/^\d+\.\d+\.\d+$/); // exact: the runtime is locked like everything else
  expect(major(pkg.dependencies.node)).toBe(required);
  expect(major(pkg.devDependencies['@types/node'].replace(/^[\^~]/, ''))).toBe(required);
  expect(range).toBe(`>=${required} <${required + 1}`);
  expect(pkg.allowScripts.node).toBe(true); // its preinstall fetches the binary
});

(oldIs20 ? describe : describe.skip)(`on ${OLD_NODE} (${oldVersion || 'missing'})`, () => {
  const expectOneLine = (r: ReturnType<typeof spawnSync>) => {
    expect(r.status).toBe(1);
    const lines = String(r.stderr).trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`本项目需要 Node.js ${required}`);
    expect(lines[0]).toContain(oldVersion);
    expect(lines[0]).toContain('npm ci');
    expect(lines[0]).toContain('node_modules/.bin/node');
    expect(String(r.stdout)).toBe('');
  };
  const env = { ...process.env, NODE_OPTIONS: '', DATA_DIR: 'memory://', PORT: '0' };

  test('the check itself', () => {
    expectOneLine(spawnSync(OLD_NODE, ['scripts/require-node.cjs'], { cwd: ROOT, env, encoding: 'utf8', timeout: 20_000 }));
  });

  test('the server through tsx stops before loading anything else', () => {
    expectOneLine(spawnSync(OLD_NODE, ['--import', 'tsx', 'src/server/main.ts'], { cwd: ROOT, env, encoding: 'utf8', timeout: 30_000 }));
  });

  test('npm start’s script', () => {
    expectOneLine(spawnSync(OLD_NODE, ['scripts/start.mjs'], { cwd: ROOT, env, encoding: 'utf8', timeout: 20_000 }));
  });
});
