/**
 * The rule tester: describe a request, see what the service's rules (or the rule being edited,
 * merged into them) would do with it — POST /api/buckets/rewrite/test/; and 发送真实请求: the same
 * request through the local edge, what the edge did beside the prediction, differences marked —
 * POST /api/buckets/rewrite/send/ (docs/edge-rules.md "On the edge").
 */
import { useEffect, useMemo, useState } from 'react';
import { Button, Callout, Collapse, FormGroup, HTMLSelect, HTMLTable, InputGroup, Tag, TextArea, type Intent } from '@blueprintjs/core';
import { failureText, ApiFailure } from '../api/client';
import { COUNTRIES, type EdgeOutcome, type EdgeRuleInput, type HeaderChange, type RuleOutcomeKind, type SampleRequest } from '../../shared/edgerules';
import { requestErrors } from '../../../schemas/forms/edge_rule/validate';
import { LIVE_TEXTS, outcomeText, predictedOutcome, type LiveAnswer } from '../../shared/edgerules/live';
import { edgeApi, type TestAnswer } from './api';
import { bytesText, METHOD_OPTIONS } from './model';
import { formatAt } from '../../shared/format';

export const OUTCOME_LABELS: Record<RuleOutcomeKind, { text: string; intent: Intent }> = {
  matched: { text: '命中', intent: 'success' },
  off: { text: '已关闭', intent: 'none' },
  debug_ip: { text: '调试 IP 不符', intent: 'none' },
  no_match: { text: 'URI 提取未匹配', intent: 'none' },
  condition_false: { text: '条件不满足', intent: 'none' },
  error: { text: '执行出错', intent: 'danger' },
  invalid: { text: '规则无效', intent: 'danger' },
  not_reached: { text: '未执行（规则集已结束）', intent: 'warning' },
};

export interface RuleTesterProps {
  bucketName: string;
  defaultHost?: string;
  /**
   * The rule being edited, merged into the stored ones (as saving would); a string when it cannot
   * be tested yet (the reason). Absent: the stored rules alone.
   */
  editing?: () => (EdgeRuleInput & { rewrite_id?: number }) | string;
  /** The caller's address, the default client IP (so DEBUG rules apply). */
  ip?: string;
}

/** "Name: value" per line. */
function lines(text: string, sep: RegExp): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = sep.exec(line);
    if (m && m[1].trim()) out[m[1].trim()] = m[2].trim();
  }
  return out;
}

function cookies(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(/[;\n]/)) {
    const eq = part.indexOf('=');
    if (eq > 0) out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}

function HeaderChanges({ list }: { list: HeaderChange[] }) {
  if (!list.length) return <span className="edge-muted">无</span>;
  return (
    <ul className="edge-changes">
      {list.map((h, i) => (
        <li key={i} className={h.applied ? undefined : 'edge-refused'}>
          <Tag minimal intent={h.action === 'add' ? 'primary' : 'warning'}>{h.action === 'add' ? (h.cover ? '覆盖' : '添加') : '删除'}</Tag> <code>{h.name}</code>
          {h.action === 'add' && (
            <>
              : <code>{h.value}</code>
            </>
          )}
          <span className="edge-muted">（优先级 {h.priority}）</span>
          {!h.applied && <span className="edge-refused-note">{h.note}</span>}
        </li>
      ))}
    </ul>
  );
}

function Summary({ out }: { out: EdgeOutcome }) {
  if (out.location) {
    return (
      <Callout intent="warning" icon="redo" title={`重定向 ${out.status}`}>
        Location：<code>{out.location}</code>
      </Callout>
    );
  }
  if (out.error_page) {
    return (
      <Callout intent="danger" icon="document" title={`返回错误页面（${out.status}）`}>
        错误页面：<code>{out.error_page}</code>
      </Callout>
    );
  }
  if (out.status !== null) {
    return (
      <Callout intent="danger" icon="disable" title={`直接响应 ${out.status}`}>
        {out.body ? (
          <>
            响应内容：<code>{out.body}</code>
          </>
        ) : (
          '响应内容为空'
        )}
      </Callout>
    );
  }
  return (
    <Callout intent="success" icon="tick-circle" title="请求继续处理（命中缓存或回源）">
      URI：<code>{out.uri}</code>
      {out.rewritten && <Tag minimal intent="primary" className="edge-inline-tag">已改写</Tag>}
    </Callout>
  );
}

export function TestResult({ answer }: { answer: TestAnswer }) {
  const out = answer.data;
  return (
    <div className="edge-test-result" data-testid="test-result">
      <Summary out={out} />
      <HTMLTable compact className="edge-result-table">
        <tbody>
          <tr>
            <th>最终 URI</th>
            <td>
              <code>{out.uri}</code>
            </td>
          </tr>
          <tr>
            <th>请求方法</th>
            <td>{out.method}</td>
          </tr>
          {out.request_body !== null && (
            <tr>
              <th>请求体</th>
              <td>
                <code>{out.request_body}</code>
              </td>
            </tr>
          )}
          {out.deleted_args.length > 0 && (
            <tr>
              <th>删除的参数</th>
              <td>{out.deleted_args.join('、')}</td>
            </tr>
          )}
          <tr>
            <th>请求头</th>
            <td>
              <HeaderChanges list={out.request_headers} />
            </td>
          </tr>
          <tr>
            <th>响应头</th>
            <td>
              <HeaderChanges list={out.response_headers} />
            </td>
          </tr>
          <tr>
            <th>限速</th>
            <td>
              {out.limit_rate.rate === null && out.limit_rate.after === null ? (
                <span className="edge-muted">不限速</span>
              ) : (
                <>
                  {out.limit_rate.rate !== null ? `${bytesText(out.limit_rate.rate)}/s` : '不限速'}
                  {out.limit_rate.after !== null && `，前 ${bytesText(out.limit_rate.after)} 不限速`}
                </>
              )}
            </td>
          </tr>
          <tr>
            <th>命中的规则</th>
            <td>
              {out.matched.length ? (
                out.matched.map((m, i) => (
                  <Tag key={i} minimal intent="success" className="edge-inline-tag">
                    {m.priority}. {m.describe}
                  </Tag>
                ))
              ) : (
                <span className="edge-muted">没有命中任何规则</span>
              )}
            </td>
          </tr>
        </tbody>
      </HTMLTable>
      {out.notes.length > 0 && (
        <Callout intent="primary" icon="info-sign" className="edge-notes">
          {out.notes.map((n, i) => (
            <div key={i}>{n}</div>
          ))}
        </Callout>
      )}
      <HTMLTable compact striped className="edge-trace-table">
        <thead>
          <tr>
            <th>优先级</th>
            <th>规则名称</th>
            <th>结果</th>
          </tr>
        </thead>
        <tbody>
          {out.trace.map((t, i) => (
            <tr key={i}>
              <td>{t.priority}</td>
              <td>{t.describe}</td>
              <td>
                <Tag minimal intent={OUTCOME_LABELS[t.outcome].intent}>{OUTCOME_LABELS[t.outcome].text}</Tag>
                {t.detail && <div className="edge-trace-detail">{t.detail}</div>}
              </td>
            </tr>
          ))}
          {out.trace.length === 0 && (
            <tr>
              <td colSpan={3} className="edge-muted">
                该服务还没有规则
              </td>
            </tr>
          )}
        </tbody>
      </HTMLTable>
    </div>
  );
}

const rateText = (l: { after: number | null; rate: number | null } | null) =>
  !l || l.rate === null ? '不限速' : `${bytesText(l.rate)}/s${l.after !== null ? `，前 ${bytesText(l.after)} 不限速` : ''}`;

/** The edge's result beside the prediction; a row whose values differ is marked. */
export function LiveResult({ live }: { live: LiveAnswer }) {
  const p = live.predicted;
  const e = live.edge;
  const differs = (prefix: string) => live.differences.some((d) => d.startsWith(prefix));
  const mark = (prefix: string) =>
    differs(prefix) ? (
      <Tag minimal intent="danger" className="edge-inline-tag">
        不一致
      </Tag>
    ) : null;
  const changed = [...new Set(p.response_headers.filter((h) => h.applied).map((h) => h.name.toLowerCase()))];
  const predictedHeader = (name: string) => {
    let v: string | null = null;
    for (const h of p.response_headers) if (h.applied && h.name.toLowerCase() === name) v = h.action === 'delete' ? null : (h.value ?? '');
    return v;
  };
  return (
    <div className="edge-live-result" data-testid="live-result">
      <h4 className="edge-live-title">{LIVE_TEXTS.title}</h4>
      <p className="edge-muted">{LIVE_TEXTS.from.replace('{ip}', live.request.ip)}</p>
      {live.differences.length ? (
        <Callout intent="danger" icon="warning-sign" title={LIVE_TEXTS.disagree} role="alert">
          {live.differences.map((d, i) => (
            <div key={i}>{d}</div>
          ))}
        </Callout>
      ) : (
        <Callout intent="success" icon="tick-circle" title={LIVE_TEXTS.agree} />
      )}
      <HTMLTable compact striped className="edge-result-table">
        <thead>
          <tr>
            <th />
            <th>预测</th>
            <th>边缘节点</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th>状态码</th>
            <td>{p.status ?? '（回源或缓存的状态）'}</td>
            <td>
              {e.status} {mark('状态码')}
            </td>
          </tr>
          <tr>
            <th>Location</th>
            <td>{p.location ? <code>{p.location}</code> : LIVE_TEXTS.none}</td>
            <td>
              {e.location ? <code>{e.location}</code> : LIVE_TEXTS.none} {mark('Location')}
            </td>
          </tr>
          <tr>
            <th>回源 URI</th>
            <td>{p.status === null ? <code>{p.uri}</code> : LIVE_TEXTS.none}</td>
            <td>
              {e.origin_uri ? <code>{e.origin_uri}</code> : LIVE_TEXTS.none} {mark('回源 URI')}
            </td>
          </tr>
          <tr>
            <th>限速</th>
            <td>{rateText(p.limit_rate)}</td>
            <td>
              {e.limit_rate ? rateText(e.limit_rate) : LIVE_TEXTS.none} {mark('限速')}
            </td>
          </tr>
          {changed.map((name) => (
            <tr key={name}>
              <th>
                响应头 <code>{name}</code>
              </th>
              <td>{predictedHeader(name) ?? LIVE_TEXTS.none}</td>
              <td>
                {e.headers[name] ?? LIVE_TEXTS.none} {mark(`响应头 ${name}：`)}
              </td>
            </tr>
          ))}
          {e.rules.map((r) => {
            const t = p.trace.find((x) => x.rewrite_id === r.rewrite_id);
            return (
              <tr key={r.rewrite_id}>
                <th>
                  规则 {t ? `${t.priority}. ${t.describe}` : r.rewrite_id}
                </th>
                <td>{outcomeText(predictedOutcome(p, r.rewrite_id))}</td>
                <td>
                  {outcomeText(r.outcome)} {mark(`规则 ${r.rewrite_id}：`)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
    </div>
  );
}

export function RuleTester({ bucketName, defaultHost = '', editing, ip }: RuleTesterProps) {
  const [method, setMethod] = useState('GET');
  const [scheme, setScheme] = useState<'http' | 'https'>('https');
  const [host, setHost] = useState(defaultHost);
  const [uri, setUri] = useState('/index.html');
  const [clientIp, setClientIp] = useState(ip ?? '');
  const [country, setCountry] = useState('CN');
  const [headers, setHeaders] = useState('User-Agent: Mozilla/5.0');
  const [cookieText, setCookieText] = useState('');
  const [post, setPost] = useState('');
  // 北京时间, whatever the browser's zone: shown and read as UTC+8
  const [time, setTime] = useState(() => formatAt(new Date(), 'YYYY-MM-DD HH:mm').replace(' ', 'T'));
  const [more, setMore] = useState(false);
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<TestAnswer | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [live, setLive] = useState<LiveAnswer | null>(null);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (ip && !clientIp) setClientIp(ip);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ip]);
  useEffect(() => {
    if (defaultHost && !host) setHost(defaultHost);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [defaultHost]);

  const request = useMemo((): SampleRequest => {
    const q = uri.indexOf('?');
    const t = Date.parse(`${time}:00+08:00`) / 1000;
    return {
      method,
      scheme,
      ...(host ? { host } : {}),
      uri: q >= 0 ? uri.slice(0, q) : uri,
      query: q >= 0 ? uri.slice(q + 1) : '',
      headers: { ...(host ? { host } : {}), ...lines(headers, /^([^:]+):(.*)$/) },
      cookies: cookies(cookieText),
      post: lines(post, /^([^=]+)=(.*)$/),
      ...(clientIp.trim() ? { ip: clientIp.trim() } : {}),
      ...(country ? { country } : {}),
      ...(Number.isFinite(t) ? { time: t } : {}),
    };
  }, [method, scheme, host, uri, headers, cookieText, post, clientIp, country, time]);
  const errors = requestErrors(request);
  const errorAt = (p: string) => errors.find((e) => e.path === p)?.message;

  async function runTest() {
    setFailure(null);
    let rules: (EdgeRuleInput & { rewrite_id?: number })[] | undefined;
    if (editing) {
      const r = editing();
      if (typeof r === 'string') {
        setFailure(r);
        return;
      }
      rules = [r];
    }
    setBusy(true);
    try {
      setAnswer(await edgeApi.test({ bucket_name: bucketName, ...(rules ? { rules } : {}), request }));
    } catch (e) {
      setAnswer(null);
      setFailure(e instanceof ApiFailure && e.errors.length ? e.errors.map((x) => x.message).join('；') : failureText(e));
    } finally {
      setBusy(false);
    }
  }

  async function sendLive() {
    setFailure(null);
    setSending(true);
    try {
      setLive(await edgeApi.send(bucketName, request));
    } catch (e) {
      setLive(null);
      setFailure(e instanceof ApiFailure && e.errors.length ? e.errors.map((x) => x.message).join('；') : failureText(e));
    } finally {
      setSending(false);
    }
  }

  return (
    <div className="edge-tester" data-testid="rule-tester">
      <div className="edge-tester-row">
        <HTMLSelect aria-label="请求方法" value={method} onChange={(e) => setMethod(e.target.value)} options={METHOD_OPTIONS} />
        <HTMLSelect aria-label="请求协议" value={scheme} onChange={(e) => setScheme(e.target.value as 'http' | 'https')} options={['http', 'https']} />
        <InputGroup aria-label="域名" placeholder="域名，如 www.example.com" value={host} onChange={(e) => setHost(e.target.value)} className="edge-grow" />
      </div>
      <FormGroup label="URI（可带查询字符串）" labelFor="tester-uri" intent={errorAt('/uri') ? 'danger' : 'none'} helperText={errorAt('/uri')}>
        <InputGroup id="tester-uri" value={uri} onChange={(e) => setUri(e.target.value)} placeholder="/path/to/file?x=1" intent={errorAt('/uri') ? 'danger' : 'none'} />
      </FormGroup>
      <div className="edge-tester-row">
        <FormGroup label="客户端 IP" labelFor="tester-ip" className="edge-grow" intent={errorAt('/ip') ? 'danger' : 'none'} helperText={errorAt('/ip')}>
          <InputGroup id="tester-ip" value={clientIp} onChange={(e) => setClientIp(e.target.value)} placeholder="默认为您当前的 IP" intent={errorAt('/ip') ? 'danger' : 'none'} />
        </FormGroup>
        <FormGroup label="国家/地区" labelFor="tester-country">
          <HTMLSelect id="tester-country" value={country} onChange={(e) => setCountry(e.target.value)} options={Object.entries(COUNTRIES).map(([code, name]) => ({ value: code, label: `${name}（${code}）` }))} />
        </FormGroup>
      </div>
      <FormGroup label="请求头（每行一个，名称: 值）" labelFor="tester-headers">
        <TextArea id="tester-headers" fill rows={2} value={headers} onChange={(e) => setHeaders(e.target.value)} />
      </FormGroup>
      <Button variant="minimal" size="small" icon={more ? 'chevron-up' : 'chevron-down'} onClick={() => setMore(!more)} className="edge-more-toggle">
        {more ? '收起' : 'Cookie、POST 参数与请求时间'}
      </Button>
      <Collapse isOpen={more}>
        <FormGroup label="Cookie（名称=值，以分号或换行分隔）" labelFor="tester-cookies">
          <TextArea id="tester-cookies" fill rows={2} value={cookieText} onChange={(e) => setCookieText(e.target.value)} />
        </FormGroup>
        <FormGroup label="POST 参数（每行一个，名称=值）" labelFor="tester-post">
          <TextArea id="tester-post" fill rows={2} value={post} onChange={(e) => setPost(e.target.value)} />
        </FormGroup>
        <FormGroup label="请求时间（北京时间）" labelFor="tester-time">
          <input id="tester-time" className="bp6-input" type="datetime-local" value={time} onChange={(e) => setTime(e.target.value)} />
        </FormGroup>
      </Collapse>
      <div className="edge-tester-row">
        <Button intent="primary" icon="play" loading={busy} disabled={errors.length > 0} onClick={runTest}>
          运行测试
        </Button>
        <Button icon="send-message" loading={sending} disabled={errors.length > 0} onClick={sendLive}>
          {LIVE_TEXTS.button}
        </Button>
      </div>
      {editing && <p className="edge-muted">{LIVE_TEXTS.storedOnly}</p>}
      {failure && (
        <Callout intent="danger" className="edge-test-failure" role="alert">
          {failure}
        </Callout>
      )}
      {answer && <TestResult answer={answer} />}
      {live && <LiveResult live={live} />}
    </div>
  );
}
