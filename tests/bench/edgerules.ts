/**
 * Edge-rule figures (run by `npm run bench`, or alone: `npx tsx tests/bench/edge.ts`); prints, asserts nothing.
 *  1. Parse time: programs of the size users write, and a program near the 4096-character limit.
 *  2. Evaluator throughput on one core: a set of 50 rules (general and custom, as a service might
 *     have them) run on a mix of requests; rule evaluations per second = requests × 50 / seconds.
 *     The goal is at least 100,000 per second.
 */
// first: stops at once on another Node.js than package.json engines.node (scripts/require-node.cjs)
import '../../scripts/require-node.cjs';
import { compileGeneral, compileRuleSet, parse, run, type Condition, type RunnableRule, type SampleRequest } from '../../src/shared/edgerules';

const cond = (value: string, rvalue: string, operator: Condition['operator'] = 'equal', case_sensitive = true): Condition => ({ lvalue: { type: 'variable', value }, rvalue: { type: 'literal', value: rvalue }, operator, case_sensitive });

/** 50 rules: 30 general (each of the seven features), 20 custom (the language document's kinds of rule). */
export function ruleSet(): RunnableRule[] {
  const rules: RunnableRule[] = [];
  const add = (r: Omit<RunnableRule, 'priority' | 'break' | 'status' | 'describe'> & Partial<RunnableRule>) =>
    rules.push({ describe: `rule ${rules.length + 1}`, priority: rules.length + 1, break: false, status: 'ON', ...r } as RunnableRule);
  for (let i = 0; i < 6; i++) {
    add({ type: 'general', content: { conditions: [cond('http_uri', `^/static/v${i}/.*\\.(css|js)$`, 'match', false), cond('http_method', 'GET')], actions: [{ type: 'header', kind: 'response', operate: 'add', name: `X-Static-${i}`, value: 'max-age=86400', cover: true }] } });
    add({ type: 'general', content: { conditions: [cond('http_header_user-agent', `BadBot${i}`, 'match', false)], actions: [{ type: 'access_control', code: 403 }] } });
    add({ type: 'general', content: { conditions: [cond('http_uri', `/old-${i}/`, 'match'), cond('country_code', 'CN')], actions: [{ type: 'movement', kind: 'redirect', code: 301, capture: `^/old-${i}/(.*)$`, target: `https://www.example.com/new-${i}/$1` }] } });
    add({ type: 'general', content: { conditions: [cond('http_args_token', `t${i}`, 'not_equal'), cond('http_uri', `^/private${i}/`, 'match')], actions: [{ type: 'movement', kind: 'errorpage', code: 404, target: '/404.html' }] } });
    add({ type: 'general', content: { conditions: [cond('http_uri', `\\.mp4$`, 'match'), cond('http_cookie_vip', `${i}`, 'not_equal')], actions: [{ type: 'limit_rate', rate: '512KB', after: '2MB' }] } });
  }
  for (let i = 0; i < 5; i++) {
    add({ type: 'custom', pattern: '', rule: `$WHEN($MATCH($_URI, '\\.m3u8$'), $NOT($_GET_sign${i}), $EQ($_HOST, live${i}.example.com))$EXIT(403)` });
    add({ type: 'custom', pattern: `^/img${i}/([0-9]+)x([0-9]+)/(.+)$`, rule: '/$3?w=$1&h=$2' });
    add({ type: 'custom', pattern: '', rule: `$WHEN($EQ($_SCHEME, http), $EQ($_HOST_1, shop${i}))$REDIRECT(https://$_HOST$_URI, 301)` });
    add({ type: 'custom', pattern: '', rule: `$WHEN($GT($LEN($_URI), 200))$ADD_RSP_HEADER(X-Long-${i}, $SUB($MD5($_URI), 1, 8))` });
  }
  return rules;
}

/** Requests that run most rules to the end (the expensive case: nothing ends the set early). */
export function requests(): SampleRequest[] {
  const headers = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120 Safari/537.36', cookie: 'vip=9; sid=abcdef', host: 'www.example.com' };
  return [
    { method: 'GET', scheme: 'https', host: 'www.example.com', uri: '/static/v3/app.JS', query: 'v=12', headers, ip: '203.0.113.9', country: 'CN' },
    { method: 'GET', scheme: 'https', host: 'www.example.com', uri: '/video/intro.mp4', headers, ip: '203.0.113.9', country: 'US' },
    { method: 'POST', scheme: 'https', host: 'api.example.com', uri: '/api/v1/orders', query: 'page=2&size=20', headers, ip: '198.51.100.7', country: 'CN' },
    { method: 'GET', scheme: 'https', host: 'img.example.com', uri: '/img3/200x100/cat.png', headers, ip: '192.0.2.1', country: 'JP' },
  ];
}

function time(fn: () => void, minMs = 1000): { n: number; ms: number } {
  let n = 0;
  const start = performance.now();
  let ms = 0;
  do {
    fn();
    n++;
    ms = performance.now() - start;
  } while (ms < minMs);
  return { n, ms };
}

export function edgeBench(log: (s: string) => void = console.log): { evaluationsPerSecond: number; parseUs: number; parseLongUs: number; compileMs: number } {
  const rules = ruleSet();
  const programs = rules.map((r) => (r.type === 'custom' ? r.rule! : compileGeneral(r.content!).rule));
  // warm up
  for (let i = 0; i < 200; i++) for (const p of programs) parse(p);
  const parsed = time(() => {
    for (const p of programs) parse(p);
  });
  const parseUs = (parsed.ms * 1000) / (parsed.n * programs.length);
  const avgLen = Math.round(programs.reduce((a, p) => a + p.length, 0) / programs.length);
  const long = `$WHEN(${Array.from({ length: 80 }, (_, i) => `$EQ($_GET_p${i}, '${'v'.repeat(30)}')`).join(', ')})$EXIT(403)`.slice(0, 4096);
  const longOk = parse(long).ok;
  const parsedLong = time(() => parse(long), 500);
  const parseLongUs = (parsedLong.ms * 1000) / parsedLong.n;

  let t = performance.now();
  const compiled = compileRuleSet(rules);
  const compileMs = performance.now() - t;
  const reqs = requests();
  for (let i = 0; i < 2000; i++) run(compiled, reqs[i % reqs.length]);
  let k = 0;
  const evaluated = time(() => {
    run(compiled, reqs[k++ % reqs.length]);
  }, 2000);
  const perSecond = (evaluated.n * rules.length * 1000) / evaluated.ms;
  t = performance.now();
  const sample = run(compiled, reqs[0]);
  const oneMs = performance.now() - t;

  log('\n== 边缘规则（单核，tests/bench/edge.ts） ==');
  log(`  解析：${programs.length} 条规则程序（平均 ${avgLen} 个字符）每条 ${parseUs.toFixed(1)} µs；接近 4096 字符上限的程序（${long.length} 个字符${longOk ? '' : '，解析失败'}）每条 ${parseLongUs.toFixed(0)} µs`);
  log(`  编译 50 条规则为闭包：${compileMs.toFixed(1)} ms`);
  log(`  执行：50 条规则 × ${evaluated.n} 个请求，用时 ${evaluated.ms.toFixed(0)} ms`);
  log(`  吞吐量：${Math.round(perSecond).toLocaleString('en-US')} 次规则执行/秒（目标 ≥ 100,000），即 ${Math.round(perSecond / rules.length).toLocaleString('en-US')} 个请求/秒`);
  log(`  单个请求（50 条规则，含结果对象）：${(oneMs * 1000).toFixed(0)} µs；命中 ${sample.matched.length} 条`);
  return { evaluationsPerSecond: perSecond, parseUs, parseLongUs, compileMs };
}

if (require.main === module) edgeBench();
