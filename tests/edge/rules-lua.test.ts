/**
 * The Lua runtime of edge rules on its own (src/edge/lua/edgerules.lua, edgerules/fn.lua): every case of
 * tests/edge/rules-cases.ts compiled by src/edge/rules/lua.ts and run by the runtime inside a bare nginx
 * (content_by_lua, the real ngx.re), compared with the evaluator's decision. And the modules set no
 * globals (the luajit -bl listing, as OpenResty's lua-releng checks).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { evaluate, pcre } from '../../src/shared/edgerules';
import { compileRules } from '../../src/edge/rules/lua';
import { CASES } from './rules-cases';
import { freePort, nginxInstalled } from './harness';
import { fromLua, fromOutcome, loosen, luaValue, rawRequest, rowOf } from './rules-common';

/** Patterns on which JavaScript and PCRE tend to differ, and everyday ones (src/shared/edgerules/regex.ts pcreRefuses). */
const PATTERNS = [
  "(?<=a+)b",
  "(?<!a*)b",
  "(?<=a|bc)x",
  "(?<=(a|bc))x",
  "(?<=a{2})b",
  "(?<=a{1,2})b",
  "(?<=a?)b",
  "\\u0041",
  "\\u",
  "\\c",
  "\\c1",
  "\\k",
  "\\k<x>",
  "(?<x>a)\\k<x>",
  "\\8",
  "\\9",
  "(a)\\2",
  "(a)\\1",
  "a{,3}",
  "\\p{L}",
  "\\x",
  "\\_",
  "\\e",
  "\\g",
  "\\i",
  "\\j",
  "\\l",
  "\\L",
  "\\N",
  "\\o",
  "\\q",
  "\\y",
  "\\m",
  "\\M",
  "\\T",
  "\\Y",
  "\\O",
  "\\I",
  "\\J",
  "\\U",
  "\\F",
  "\\C",
  "\\E",
  "\\Q",
  "\\z",
  "\\Z",
  "\\G",
  "\\A",
  "\\K",
  "\\R",
  "\\X",
  "\\h",
  "\\H",
  "\\v",
  "\\V",
  "[]",
  "[^]",
  "[]a]",
  "[\\]]",
  "(?P<n>x)",
  "(?<n$>x)",
  "a(?=b)*",
  "\\/",
  "\\-",
  "[\\i]",
  "[\\u0041]",
  "[\\k]",
  "\\a",
  "\\0",
  "\\01",
  "\\07",
  "\\10",
  "(?:a|bb)",
  "(?i)abc",
  "^\\.m3u8$",
  "\\.m3u8$",
  "(",
  "[z-a]",
  "a**",
  "(?<=\\d+)x",
  "(?<=\\w{3,})x",
  "(?<=ab|c)x",
  "(?<=[ab]c)x",
  "(?<!\\d)x",
  "(?<=a\\b)x",
  "(?<=(?:a|b)c)x",
  "(?<=a.)x",
  "(?<=x*?)y",
  "^/img/([0-9]+)x([0-9]+)/(.+)$",
  "(?i)^hello$",
  "\\.(jpg|png)$",
  "^/blog/(.*)$",
  "(\\w+)/(\\d+)",
  "\\2",
  "\\1",
  "(?<=[[:alpha:]])x",
  "[[:digit:]]+",
  "(?<y>a)\\k{y}",
  "\\g1",
  "(a)\\g1",
  "\\o{101}",
  "(?<=\\x41)b",
  "(?<=\\x{41}{2})b",
  "(?<=(?:ab|cd))x",
  "(?<=(?:ab|c))x",
];

const ROOT = path.resolve(__dirname, '../..');
const LUA_DIR = path.join(ROOT, 'src/edge/lua');
const d = nginxInstalled ? describe : describe.skip;

/** Global names a module may read (the standard library and ngx); it may set none. */
const KNOWN_GLOBALS = new Set(['ngx', 'string', 'table', 'math', 'os', 'io', 'type', 'tostring', 'tonumber', 'pairs', 'ipairs', 'error', 'pcall', 'require', 'next', 'select', 'setmetatable', 'getmetatable', 'unpack', 'rawget', 'rawset', 'assert']);

function luaFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? luaFiles(path.join(dir, e.name)) : e.name.endsWith('.lua') ? [path.join(dir, e.name)] : []));
}

describe('the Lua of edge rules sets no globals', () => {
  it.each(luaFiles(LUA_DIR).filter((f) => path.basename(f).startsWith('edgerules') || f.includes('/edgerules/')).map((f) => [path.relative(ROOT, f)]))('%s', (file) => {
    const listing = execFileSync('luajit', ['-bl', path.join(ROOT, file)], { encoding: 'utf8' });
    const sets = [...listing.matchAll(/GSET[^\n]*; "([^"\n]+)"/g)].map((m) => m[1]);
    const reads = [...listing.matchAll(/GGET[^\n]*; "([^"\n]+)"/g)].map((m) => m[1]).filter((g) => !KNOWN_GLOBALS.has(g));
    expect({ sets, reads }).toEqual({ sets: [], reads: [] });
  });

  it('the compiled rules of every case set none either', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rules-lua-'));
    for (const [i, c] of CASES.entries()) {
      const file = path.join(dir, `c${i}.lua`);
      fs.writeFileSync(file, `local f = ${compileRules(c.rules.map(rowOf)).factory}\nreturn f`);
      const listing = execFileSync('luajit', ['-bl', file], { encoding: 'utf8' });
      expect([c.name, [...listing.matchAll(/GSET[^\n]*; "([^"\n]+)"/g)].map((m) => m[1])]).toEqual([c.name, []]);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

d('the Lua runtime decides as the evaluator does', () => {
  let dir: string;
  let child: ChildProcess;
  let port: number;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rules-lua-'));
    port = await freePort();
    for (const sub of ['logs', 'tmp']) fs.mkdirSync(path.join(dir, sub));
    const conf = [
      'load_module /usr/lib/nginx/modules/ndk_http_module.so;',
      'load_module /usr/lib/nginx/modules/ngx_http_lua_module.so;',
      'daemon off;',
      'master_process off;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/logs/error.log warn;`,
      'events { worker_connections 64; }',
      'http {',
      `  client_body_temp_path ${dir}/tmp;`,
      `  proxy_temp_path ${dir}/tmp;`,
      `  fastcgi_temp_path ${dir}/tmp;`,
      `  uwsgi_temp_path ${dir}/tmp;`,
      `  scgi_temp_path ${dir}/tmp;`,
      `  access_log off;`,
      `  lua_package_path "${LUA_DIR}/?.lua;;";`,
      `  server { listen 127.0.0.1:${port}; client_body_buffer_size 4m; client_max_body_size 4m;`,
      `    location = /run { content_by_lua_file ${path.join(__dirname, 'lua/rules_runner.lua')}; } }`,
      '}',
    ].join('\n');
    fs.writeFileSync(path.join(dir, 'nginx.conf'), conf);
    child = spawn('/usr/sbin/nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      try {
        await post('return { factory = function(R) return { rules = {} } end, reqs = {} }');
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    throw new Error(`nginx 未启动：${fs.readFileSync(path.join(dir, 'logs/error.log'), 'utf8')}`);
  });

  afterAll(() => {
    child?.kill('SIGQUIT');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  function post(body: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const r = http.request({ host: '127.0.0.1', port, path: '/run', method: 'POST', agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(Buffer.concat(chunks).toString('utf8')))));
      });
      r.on('error', reject);
      r.end(body);
    });
  }

  it('the shared check refuses exactly the patterns the edge\'s PCRE refuses (and those JavaScript refuses)', async () => {
    const lua = `return { factory = function(R) return { rules = {} } end, reqs = {}, patterns = ${luaValue(PATTERNS)} }`;
    const edge: boolean[] = JSON.parse(await post(lua));
    const js = (p: string) => {
      try {
        new RegExp(p.replace(/^\(\?[imsx]+\)/, '').replace(/\(\?P</g, '(?<'));
        return true;
      } catch {
        return false;
      }
    };
    const differ = PATTERNS.map((p, i) => ({ pattern: p, edge: edge[i] && js(p), shared: pcre(p) !== null })).filter((x) => x.edge !== x.shared);
    expect(differ).toEqual([]);
  });

  it.each(CASES.map((c) => [c.name, c]))('%s', async (_name, c) => {
    const time = c.request.time ?? Math.floor(Date.now() / 1000);
    const request = { ...c.request, time };
    const { factory } = compileRules(c.rules.map(rowOf));
    const answer = JSON.parse(await post(`return { factory = ${factory}, reqs = { ${luaValue(rawRequest(request))} } }`));
    if (answer[0].error) throw new Error(`运行时出错：${answer[0].error}`);
    const lua = loosen(fromLua(answer[0]), c);
    const evaluator = loosen(fromOutcome(evaluate(c.rules, request, { now: time * 1000 })), c);
    expect(lua).toEqual(evaluator);
  });
});
