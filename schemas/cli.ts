/**
 * The schema command line: `npm run schemas -- <command>` (tsx runs this file).
 *
 *   check [dir]                          every check of every declaration (schemas/check.ts)
 *   validate <setting> <payload.json|->  one payload through schema, normalisation and guard
 *   new <id> [--dir <dir>]               scaffold a declaration folder that passes `check`
 *   help                                 usage
 *
 * The logic lives in exported functions that take arguments and return { code, out } so jest can
 * call them without spawning a process; the entry at the bottom only prints and exits.
 * Exit codes: 0 success, 1 failures found (check) or payload refused (validate), 2 usage errors
 * (unknown command or setting, unreadable file, refused id).
 */
// first: stops at once on another Node.js than package.json engines.node (scripts/require-node.cjs)
import '../scripts/require-node.cjs';
import fs from 'node:fs';
import path from 'node:path';
import { checkAll, type CheckFailure } from './check';
import { loadDeclarations, settingsDir } from './load';
import { SettingRegistry } from './registry';

export interface CliResult {
  /** Process exit status. */
  code: number;
  /** Text for stdout (ends with a newline when not empty). */
  out: string;
}

export interface CliOptions {
  /** Paths printed by `check` are made relative to this folder (default process.cwd()). */
  cwd?: string;
  /** Reads stdin for `validate <setting> -` (default: fd 0). */
  readStdin?: () => string;
}

const ID_PATTERN = /^[a-z][a-z0-9_]*$/;

function result(code: number, lines: string[]): CliResult {
  return { code, out: lines.length ? `${lines.join('\n')}\n` : '' };
}

export const USAGE = [
  '用法：npm run schemas -- <命令> [参数]',
  '',
  '命令：',
  '  check [目录]                      检查所有设置声明（元数据、模式、UI 模式、样例）',
  '                                    目录默认为 schemas/settings（或环境变量 SCHEMAS_DIR）',
  '  validate <设置> <文件.json | ->   用某个设置的模式、规范化和规则校验一份数据',
  '                                    文件可以是数据本身，也可以是样例 {"payload": ...}；- 表示从标准输入读取',
  '  new <设置> [--dir <目录>]         在 schemas/settings/<设置>/（或指定目录）下生成一个新设置的骨架',
  '  help                              显示本说明',
  '',
  '退出码：0 成功；1 检查发现问题或数据未通过校验；2 用法错误（未知的命令或设置、文件无法读取、设置名不合法或已存在）',
  '',
  '示例：',
  '  npm run schemas -- check',
  '  npm run schemas -- validate error_pages schemas/settings/error_pages/fixtures/invalid/relative-url.json',
  '  echo \'{"tls": true}\' | npm run schemas -- validate tls13 -',
  '  npm run schemas -- new http2',
].join('\n');

export function helpCommand(): CliResult {
  return result(0, [USAGE]);
}

/** A path for display: relative to cwd when it lies inside it, absolute otherwise. */
export function displayPath(file: string, cwd = process.cwd()): string {
  const abs = path.resolve(cwd, file);
  const rel = path.relative(cwd, abs);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : abs;
}

export function formatFailure(f: CheckFailure, cwd = process.cwd()): string {
  return `${displayPath(f.file, cwd)} ${f.path || '/'}: ${f.problem}`;
}

/** `check [dir]`: every check of every declaration found in dir. */
export function checkCommand(dir: string = settingsDir(), opts: CliOptions = {}): CliResult {
  const cwd = opts.cwd ?? process.cwd();
  const abs = path.resolve(cwd, dir);
  if (!fs.existsSync(abs) || !fs.statSync(abs).isDirectory()) return result(2, [`目录不存在：${displayPath(abs, cwd)}`]);
  let declarations;
  try {
    declarations = loadDeclarations(abs);
  } catch (e) {
    return result(1, [`无法读取设置声明：${(e as Error).message}`, '检查未完成，1 个问题']);
  }
  const failures = checkAll(declarations);
  return result(failures.length ? 1 : 0, [
    ...failures.map((f) => formatFailure(f, cwd)),
    `检查了 ${declarations.length} 个设置，${failures.length} 个问题`,
  ]);
}

/** A fixture file {"description", "payload", "errors"} rather than a bare payload. */
function isFixtureWrapper(v: unknown): v is { payload: unknown } {
  if (!v || typeof v !== 'object' || Array.isArray(v) || !('payload' in v)) return false;
  return Object.keys(v).every((k) => ['payload', 'description', 'errors'].includes(k));
}

/** `validate <setting> <file|->`: schema, normalisation and (context-free) guard, as the server does. */
export async function validateCommand(id: string | undefined, source: string | undefined, opts: CliOptions & { dir?: string } = {}): Promise<CliResult> {
  const cwd = opts.cwd ?? process.cwd();
  if (!id || !source) return result(2, ['用法：npm run schemas -- validate <设置> <文件.json | ->']);
  let registry: SettingRegistry;
  try {
    registry = new SettingRegistry(loadDeclarations(opts.dir ? path.resolve(cwd, opts.dir) : settingsDir()));
  } catch (e) {
    return result(2, [`无法读取设置声明：${(e as Error).message}`]);
  }
  if (!registry.get(id)) return result(2, [`未知的设置：${id}`]);
  let text: string;
  try {
    text = source === '-' ? (opts.readStdin ?? (() => fs.readFileSync(0, 'utf8')))() : fs.readFileSync(path.resolve(cwd, source), 'utf8');
  } catch (e) {
    return result(2, [`无法读取文件：${source}（${(e as Error).message}）`]);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return result(2, [`不是有效的 JSON：${source === '-' ? '标准输入' : source}（${(e as Error).message}）`]);
  }
  const payload = isFixtureWrapper(data) ? data.payload : data;
  const r = await registry.validate(id, payload);
  if (r.ok) return result(0, ['通过', JSON.stringify(r.value, null, 2)]);
  return result(1, r.errors.map((e) => `${e.path || '/'} ${e.message}`));
}

/** The files of a new declaration, by path relative to its folder. */
export function scaffoldFiles(id: string): Record<string, unknown> {
  const title = `新设置 ${id}`;
  const typeMessage = '开启状态只能是开启或关闭';
  return {
    'setting.json': {
      id,
      title,
      kinds: ['cdn'],
      tab: 'optimize',
      panel: 'dialog',
      success: '配置成功',
      summary: [
        { when: { properties: { enable: { const: true } } }, label: '已开启', intent: 'success' },
        { label: '未开启', intent: 'none' },
      ],
    },
    'schema.json': {
      type: 'object',
      title,
      required: ['enable'],
      additionalProperties: false,
      properties: {
        enable: { type: 'boolean', title: '开启', default: false, errorMessage: { type: typeMessage } },
      },
      errorMessage: { required: { enable: '请选择是否开启' }, additionalProperties: '包含不支持的配置项' },
    },
    'ui.json': { enable: { 'ui:widget': 'switch' } },
    'fixtures/valid/on.json': { description: '开启', payload: { enable: true } },
    'fixtures/invalid/not-boolean.json': {
      description: 'enable 不是布尔值',
      payload: { enable: 'on' },
      errors: [{ path: '/enable', message: typeMessage }],
    },
  };
}

/** `new <id> [--dir <dir>]`: scaffolds <dir>/<id>/ so that `check` passes at once. */
export function newCommand(id: string | undefined, opts: CliOptions & { dir?: string } = {}): CliResult {
  const cwd = opts.cwd ?? process.cwd();
  if (!id) return result(2, ['用法：npm run schemas -- new <设置> [--dir <目录>]']);
  if (!ID_PATTERN.test(id)) return result(2, [`设置名不合法：${id}（须为小写字母开头，只含小写字母、数字或下划线）`]);
  const root = opts.dir ? path.resolve(cwd, opts.dir) : settingsDir();
  const folder = path.join(root, id);
  if (fs.existsSync(folder)) return result(2, [`设置已存在：${displayPath(folder, cwd)}`]);
  const files = scaffoldFiles(id);
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(folder, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`);
  }
  return result(0, [
    `已创建 ${displayPath(folder, cwd)}：`,
    ...Object.keys(files).map((rel) => `  ${rel}`),
    '请修改标题、适用的服务类型、标签页和字段，然后运行 npm run schemas -- check',
  ]);
}

/** Takes `--dir <dir>` (or `--dir=<dir>`) out of argv. */
function takeDirOption(args: string[]): { rest: string[]; dir?: string; error?: string } {
  const rest: string[] = [];
  let dir: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--dir') {
      if (i + 1 >= args.length) return { rest, error: '--dir 需要一个目录' };
      dir = args[++i];
    } else if (a.startsWith('--dir=')) dir = a.slice('--dir='.length);
    else rest.push(a);
  }
  return { rest, dir };
}

/** The whole command line: argv without node and the script. */
export async function runCli(argv: string[], opts: CliOptions = {}): Promise<CliResult> {
  const [command, ...args] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') return helpCommand();
  const { rest, dir, error } = takeDirOption(args);
  if (error) return result(2, [error]);
  switch (command) {
    case 'check':
      return checkCommand(dir ?? rest[0] ?? settingsDir(), opts);
    case 'validate':
      return validateCommand(rest[0], rest[1], { ...opts, dir });
    case 'new':
      return newCommand(rest[0], { ...opts, dir });
    default:
      return result(2, [`未知的命令：${command}`, '', USAGE]);
  }
}

if (require.main === module) {
  runCli(process.argv.slice(2)).then(
    (r) => {
      process.stdout.write(r.out);
      process.exitCode = r.code;
    },
    (e) => {
      process.stderr.write(`${(e as Error).stack ?? e}\n`);
      process.exitCode = 2;
    },
  );
}
