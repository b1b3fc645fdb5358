/**
 * The schema command line (schemas/cli.ts): its commands are called as functions, and once as a
 * real process through tsx, as `npm run schemas -- check` runs it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { checkCommand, newCommand, runCli, validateCommand } from '../../schemas/cli';

const ROOT = path.resolve(__dirname, '../..');
const SETTINGS = path.join(ROOT, 'schemas', 'settings');
const ERROR_PAGES_FIXTURES = path.join(SETTINGS, 'error_pages', 'fixtures');

const temps: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schemas-cli-'));
  temps.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

describe('check', () => {
  it('passes on the real declarations', () => {
    const r = checkCommand(SETTINGS, { cwd: ROOT });
    expect(r.out).toMatch(/^检查了 \d+ 个设置，0 个问题\n$/);
    expect(r.code).toBe(0);
  });

  it('names the fixture file and path when an invalid fixture expects another message', () => {
    // the copy keeps its place beside src/: a rule may use the project's shared code (src/shared/origins.ts)
    const root = tempDir();
    const dir = path.join(root, 'schemas', 'settings');
    fs.cpSync(SETTINGS, dir, { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'src'), path.join(root, 'src'));
    const file = path.join(dir, 'error_pages', 'fixtures', 'invalid', 'relative-url.json');
    const fixture = JSON.parse(fs.readFileSync(file, 'utf8'));
    fixture.errors[0].message = '被改过的错误信息';
    fs.writeFileSync(file, JSON.stringify(fixture));

    const r = checkCommand(dir, { cwd: dir });
    expect(r.code).toBe(1);
    const rel = path.join('error_pages', 'fixtures', 'invalid', 'relative-url.json');
    expect(r.out).toContain(`${rel} /options/0/url: 缺少预期的错误：被改过的错误信息`);
    expect(r.out).toContain(`${rel} /options/0/url: 出现未列出的错误：请填写正确的 URI 地址，以 / 开头`);
    expect(r.out).toMatch(new RegExp(`检查了 ${fs.readdirSync(dir).length} 个设置，2 个问题\\n$`));
  });

  it('refuses a folder that does not exist', () => {
    const r = checkCommand(path.join(tempDir(), 'missing'));
    expect(r.code).toBe(2);
    expect(r.out).toContain('目录不存在');
  });
});

describe('validate', () => {
  it('accepts a valid fixture file and prints the normalised value', async () => {
    const r = await validateCommand('error_pages', path.join(ERROR_PAGES_FIXTURES, 'valid', 'two-rules.json'));
    expect(r.code).toBe(0);
    const [first, ...rest] = r.out.split('\n');
    expect(first).toBe('通过');
    const value = JSON.parse(rest.join('\n'));
    expect(value.status).toBe('enable'); // added by rules.ts normalize
    expect(value.options).toHaveLength(2);
  });

  it('prints the errors of an invalid fixture file', async () => {
    const r = await validateCommand('error_pages', path.join(ERROR_PAGES_FIXTURES, 'invalid', 'no-code.json'));
    expect(r.code).toBe(1);
    expect(r.out.trim().split('\n').sort()).toEqual(
      ['/options/0/code 请至少选择一个状态码', '/options/0/url 响应地址不能为空', '/options/1/code/0 不支持的状态码'].sort(),
    );
  });

  it('reads a bare payload from stdin', async () => {
    const r = await runCli(['validate', 'tls13', '-'], { readStdin: () => '{"tls": "on"}' });
    expect(r).toEqual({ code: 1, out: '/tls TLS 1.3 状态只能是开启或关闭\n' });
  });

  it('refuses an unknown setting with status 2', async () => {
    const r = await validateCommand('no_such_setting', path.join(ERROR_PAGES_FIXTURES, 'valid', 'empty.json'));
    expect(r).toEqual({ code: 2, out: '未知的设置：no_such_setting\n' });
  });
});

describe('new', () => {
  it('scaffolds a declaration that passes check at once', () => {
    const dir = tempDir();
    const r = newCommand('http2_push', { dir });
    expect(r.code).toBe(0);
    for (const f of ['setting.json', 'schema.json', 'ui.json', 'fixtures/valid/on.json', 'fixtures/invalid/not-boolean.json']) {
      expect(fs.existsSync(path.join(dir, 'http2_push', f))).toBe(true);
    }
    const meta = JSON.parse(fs.readFileSync(path.join(dir, 'http2_push', 'setting.json'), 'utf8'));
    expect(meta).toMatchObject({ id: 'http2_push', title: '新设置 http2_push', kinds: ['cdn'], tab: 'optimize', panel: 'dialog', success: '配置成功' });
    expect(meta.summary[meta.summary.length - 1]).toEqual({ label: '未开启', intent: 'none' });

    const c = checkCommand(dir, { cwd: dir });
    expect(c.out).toBe('检查了 1 个设置，0 个问题\n');
    expect(c.code).toBe(0);
  });

  it('is reachable through runCli with --dir', async () => {
    const dir = tempDir();
    expect((await runCli(['new', 'gzip_static', '--dir', dir])).code).toBe(0);
    expect((await runCli(['check', dir])).code).toBe(0);
  });

  it.each(['Bad', '1abc', 'with-dash', 'a b', '_x'])('refuses the bad id %p', (id) => {
    const dir = tempDir();
    const r = newCommand(id, { dir });
    expect(r.code).toBe(2);
    expect(r.out).toContain('设置名不合法');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('refuses an id that already exists', () => {
    const dir = tempDir();
    expect(newCommand('twice', { dir }).code).toBe(0);
    const before = fs.readFileSync(path.join(dir, 'twice', 'setting.json'), 'utf8');
    const r = newCommand('twice', { dir });
    expect(r.code).toBe(2);
    expect(r.out).toContain('设置已存在');
    expect(fs.readFileSync(path.join(dir, 'twice', 'setting.json'), 'utf8')).toBe(before);
    // a real setting is refused as well (nothing is written before the refusal)
    expect(newCommand('tls13', { dir: SETTINGS }).code).toBe(2);
  });
});

describe('help', () => {
  it('prints the usage with no command or help', async () => {
    for (const argv of [[], ['help']]) {
      const r = await runCli(argv);
      expect(r.code).toBe(0);
      expect(r.out).toContain('用法：npm run schemas -- <命令>');
    }
  });

  it('refuses an unknown command', async () => {
    const r = await runCli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.out).toContain('未知的命令：frobnicate');
  });
});

describe('as a process', () => {
  it('node --import tsx schemas/cli.ts check exits 0', () => {
    const env = { ...process.env };
    delete env.SCHEMAS_DIR;
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'schemas/cli.ts', 'check'], { cwd: ROOT, env, encoding: 'utf8', timeout: 60000 });
    expect(r.stdout).toMatch(/检查了 \d+ 个设置，0 个问题/);
    expect(r.status).toBe(0);
  }, 90000);
});
