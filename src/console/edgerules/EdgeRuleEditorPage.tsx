/**
 * The edge-rule editor (spec 002 §2 "Editor", §4, §5): /services/{name}/edgeCalcCdn/manage/ and
 * edgeCalcFile/manage/, opened from the list with the state { priority: rules + 1, config?: rule }.
 * Without a priority it returns to the list. General mode is a form; programming mode is Monaco
 * with the rule language. The form declaration (schemas/forms/edge_rule/) validates; the form is
 * marked dirty on confirm so every error shows. A tester beside it runs the rule being edited.
 */
import { recordEvent } from '../api/events';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { Button, Callout, Card, Checkbox, FormGroup, H3, H5, Icon, InputGroup, NumericInput, Radio, RadioGroup, Spinner, Tag } from '@blueprintjs/core';
import { api, ApiFailure, failureText } from '../api/client';
import { notify } from '../common/toaster';
import { sessionAtom } from '../state';
import { stored } from '../storage';
import { EDGE_RULE_TEXTS, errorText, type FieldError } from '../../shared/errors';
import { KINDS, parseTab } from '../../shared/services';
import type { BucketInfo } from '../../shared/buckets';
import type { EdgeRule, RuleStatus, RuleType } from '../../shared/edgerules';
import { edgeRuleErrors, edgeRuleSchemaErrors, edgeRuleSchemaValidator } from '../../../schemas/forms/edge_rule/validate';
import { timedValidation } from '../../../renderers/timing';
import { edgeApi } from './api';
import { CodeEditor } from './CodeEditor';
import { ActionEditor, ConditionsEditor, type FieldErrors } from './GeneralFields';
import { GuideDrawer, type GuideTab } from './GuideDrawer';
import { RuleTester } from './RuleTester';
import { fromRule, newForm, STATUS_LABELS, toRule, TYPE_LABELS, type RuleForm } from './model';
import './edge.css';

// The tester and the help drawer do not depend on what is typed: a keystroke in the form re-renders
// neither (their props stay the same; the tester reads the rule being edited only when it runs).
const Tester = memo(RuleTester);
const Guide = memo(GuideDrawer);
const Action = memo(ActionEditor);
const Conditions = memo(ConditionsEditor);

/** The same array while the messages stay the same (a keystroke mostly leaves them as they were). */
function useSameErrors(errors: FieldError[]): FieldError[] {
  const last = useRef(errors);
  const prev = last.current;
  if (prev !== errors && (prev.length !== errors.length || prev.some((e, i) => e.path !== errors[i].path || e.message !== errors[i].message))) last.current = errors;
  return last.current;
}

/**
 * The priority (Blueprint's NumericInput): its own component, so a keystroke elsewhere in the form does
 * not re-render it (NumericInput re-checks and re-formats its value on every render, with the locale's
 * number formatting: the costliest part of a keystroke in the editor).
 */
const PriorityField = memo(function PriorityField({ value, error, maxPriority, onChange }: { value: number | null; error?: string; maxPriority: number; onChange(priority: number | null): void }) {
  return (
    <FormGroup
      label="优先级"
      labelFor="edge-priority"
      intent={error ? 'danger' : 'none'}
      helperText={error ?? (maxPriority > 1 ? `数值越小越先执行，可填 1 - ${maxPriority}` : '数值越小越先执行；这是第一条规则，优先级为 1')}
    >
      <NumericInput
        id="edge-priority"
        min={1}
        max={maxPriority}
        clampValueOnBlur={false}
        allowNumericCharactersOnly
        value={value ?? ''}
        intent={error ? 'danger' : 'none'}
        onValueChange={(n, s) => onChange(s.trim() === '' || Number.isNaN(n) ? null : n)}
      />
    </FormGroup>
  );
});

/** The way back and the title: the same on every keystroke. */
const EditorHead = memo(function EditorHead({ listPath, editing, name, kindTitle, onGuide }: { listPath: string; editing: boolean; name: string; kindTitle?: string; onGuide(tab: GuideTab): void }) {
  return (
    <>
      <Link to={listPath} className="back-link">
        <Icon icon="arrow-left" size={12} /> 返回功能配置
      </Link>
      <div className="page-head">
        <H3>{editing ? '编辑边缘规则' : '添加边缘规则'}</H3>
        <Tag minimal>{name}</Tag>
        {kindTitle && <Tag minimal>{kindTitle}</Tag>}
        <Button variant="minimal" intent="primary" icon="manual" className="edge-head-link" onClick={() => onGuide('guide')}>
          使用指南
        </Button>
      </div>
    </>
  );
});

export interface EditorState {
  /** The number of rules plus one (spec 002 §2). */
  priority?: number;
  /** The rule being edited; absent when adding. */
  config?: EdgeRule;
}

export default function EdgeRuleEditorPage() {
  const { name = '', tab = '' } = useParams();
  const state = (useLocation().state ?? {}) as EditorState;
  const parsed = parseTab(tab);
  const listPath = `/services/${name}/${tab}/`;
  if (!state.priority || parsed?.family !== 'edgeCalc') return <Navigate to={listPath} replace />;
  return <Editor name={name} tab={tab} listPath={listPath} maxPriority={state.priority} config={state.config} />;
}

function Editor({ name, listPath, maxPriority, config }: { name: string; tab: string; listPath: string; maxPriority: number; config?: EdgeRule }) {
  const navigate = useNavigate();
  const session = useAtomValue(sessionAtom);
  const locked = session.status === 'signedIn' && session.user.custom_prohibit_configuration ? errorText(21210) : undefined;
  const [bucket, setBucket] = useState<BucketInfo | null>(null);
  const [callerIp, setCallerIp] = useState('');
  // what was typed survives a reload of this page (sessionStorage), and is dropped when the page closes
  const draftKey = `${name}:${config?.rewrite_id ?? 'new'}`;
  const [form, setForm] = useState<RuleForm>(() => stored.edgeRuleDraft.get<RuleForm>(draftKey) ?? (config ? fromRule(config, '') : newForm(maxPriority, '')));
  useEffect(() => {
    stored.edgeRuleDraft.set(draftKey, form);
  }, [draftKey, form]);
  useEffect(() => () => stored.edgeRuleDraft.clear(draftKey), [draftKey]);
  const [dirty, setDirty] = useState(false);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [serverErrors, setServerErrors] = useState<FieldError[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [check, setCheck] = useState<{ ok: boolean; text: string } | null>(null);
  const [guide, setGuide] = useState<GuideTab | null>(null);
  const ipRequest = useRef(0);

  useEffect(() => {
    api
      .get<{ data: BucketInfo }>('/api/buckets/info/', { bucket_name: name })
      .then((r) => {
        setBucket(r.data);
        // the SCDN funnel (docs/events.md): an edge rule of a security CDN service opened
        if (r.data.kind === 'scdn') recordEvent('buried', 'scdn_rule_open');
      })
      .catch((e) => setFailure(failureText(e)));
    edgeApi
      .ip()
      .then((ip) => {
        setCallerIp(ip);
        // a new rule starts in DEBUG for the caller's address (spec 002 §4)
        setForm((f) => (f.status === 'DEBUG' && !f.ip ? { ...f, ip } : f));
      })
      .catch(() => undefined);
  }, [name]);

  const rule = useMemo(() => toRule(form), [form]);
  // timed for the bench only (renderers/timing.ts: nothing is kept unless the page asked)
  const errors = useSameErrors(
    useMemo(() => timedValidation(() => edgeRuleErrors(rule, { count: maxPriority - 1 }), () => edgeRuleSchemaValidator()(rule), 'edge_rule'), [rule, maxPriority]),
  );
  const touch = useCallback((path: string) => {
    setTouched((t) => (t.has(path) ? t : new Set(t).add(path)));
    setServerErrors((s) => (s.some((e) => e.path === path) ? s.filter((e) => e.path !== path) : s));
  }, []);
  // the same object while the messages shown stay the same, so the parts of the form given it re-render only when they change
  const fieldErrors: FieldErrors = useMemo(
    () => ({
      at(path) {
        const server = serverErrors.find((e) => e.path === path);
        if (server) return server.message;
        if (!dirty && !touched.has(path)) return undefined;
        return errors.find((e) => e.path === path)?.message;
      },
      touch,
    }),
    [serverErrors, dirty, touched, errors, touch],
  );
  const update = useCallback(
    (patch: Partial<RuleForm>, path?: string) => {
      if (path) touch(path);
      setForm((f) => ({ ...f, ...patch }));
    },
    [touch],
  );
  const onConditions = useCallback((conditions: RuleForm['conditions']) => update({ conditions }, '/content/conditions'), [update]);
  const onAction = useCallback((action: RuleForm['action']) => update({ action }), [update]);
  const onPriority = useCallback((priority: number | null) => update({ priority }, '/priority'), [update]);

  function changeType(type: RuleType) {
    // switching the mode resets the validation messages (spec 002 §4)
    setDirty(false);
    setTouched(new Set());
    setServerErrors([]);
    setFailure(null);
    setCheck(null);
    update({ type });
  }

  function changeStatus(status: RuleStatus) {
    fieldErrors.touch('/status');
    if (status !== 'DEBUG') {
      update({ status, ip: '' });
      return;
    }
    // DEBUG: the caller's own address
    update({ status, ip: callerIp });
    const n = ++ipRequest.current;
    edgeApi
      .ip()
      .then((ip) => {
        setCallerIp(ip);
        if (n === ipRequest.current) setForm((f) => (f.status === 'DEBUG' ? { ...f, ip } : f));
      })
      .catch(() => undefined);
  }

  async function runCheck() {
    setCheck(null);
    try {
      const r = await edgeApi.check(form.rule, form.pattern);
      setCheck(r.result ? { ok: true, text: EDGE_RULE_TEXTS.checkOk } : { ok: false, text: `${EDGE_RULE_TEXTS.checkFailed}：${r.errors?.[0]?.message ?? r.data?.reason ?? ''}` });
    } catch (e) {
      setCheck({ ok: false, text: e instanceof ApiFailure && e.errors.length ? `${EDGE_RULE_TEXTS.checkFailed}：${e.errors[0].message}` : failureText(e) });
    }
  }

  async function confirm() {
    if (locked) {
      notify(locked, 'danger');
      return;
    }
    setDirty(true);
    setFailure(null);
    if (errors.length) return;
    setSaving(true);
    try {
      if (config) await edgeApi.edit(config.rewrite_id, rule);
      else await edgeApi.create(name, rule);
      notify('保存成功');
      if (bucket?.kind === 'scdn') recordEvent('buried', 'scdn_rule_saved');
      navigate(listPath);
    } catch (e) {
      setFailure(failureText(e));
      if (e instanceof ApiFailure) setServerErrors(e.errors);
    } finally {
      setSaving(false);
    }
  }

  /** The rule for the tester: the form as it is, with a stand-in name (read when the tester runs, so the same function every render). */
  const current = useRef({ rule, form });
  current.current = { rule, form };
  const testRule = useCallback(() => {
    const { rule, form } = current.current;
    const r = { ...rule, describe: rule.describe.trim() || '当前编辑的规则', priority: form.priority ?? maxPriority };
    const e = edgeRuleSchemaErrors(r);
    if (e.length) return `请先修正规则中的错误后再测试：${e[0].message}`;
    return { ...r, ...(config ? { rewrite_id: config.rewrite_id } : {}) };
  }, [maxPriority, config]);
  const closeGuide = useCallback(() => setGuide(null), []);

  const topError = (dirty && errors.find((e) => e.path === '')?.message) || serverErrors.find((e) => e.path === '')?.message;
  const kind = bucket ? KINDS[bucket.kind] : null;

  return (
    <div className="edge-editor-page">
      <EditorHead listPath={listPath} editing={Boolean(config)} name={name} kindTitle={kind?.title} onGuide={setGuide} />
      <div className="edge-editor-layout">
        <Card className="edge-editor-form" aria-label="规则配置">
          <FormGroup label="规则名称" labelFor="edge-describe" labelInfo="（必填）" intent={fieldErrors.at('/describe') ? 'danger' : 'none'} helperText={fieldErrors.at('/describe')}>
            <InputGroup id="edge-describe" value={form.describe} placeholder="请输入规则名称，不超过 50 个字符" intent={fieldErrors.at('/describe') ? 'danger' : 'none'} onChange={(e) => update({ describe: e.target.value }, '/describe')} />
          </FormGroup>
          <RadioGroup inline label="使用方式" selectedValue={form.type} onChange={(e) => changeType((e.target as HTMLInputElement).value as RuleType)}>
            <Radio value="general" label={TYPE_LABELS.general} />
            <Radio value="custom" label={TYPE_LABELS.custom} />
          </RadioGroup>
          {form.type === 'general' ? (
            <>
              <Conditions conditions={form.conditions} errors={fieldErrors} onChange={onConditions} />
              <Action action={form.action} errors={fieldErrors} onChange={onAction} />
            </>
          ) : (
            <>
              <FormGroup label="URI 提取模式" labelFor="edge-pattern" intent={fieldErrors.at('/pattern') ? 'danger' : 'none'} helperText={fieldErrors.at('/pattern') ?? '可选的正则表达式，匹配请求 URI；分组在规则中用 $1、$2 引用，留空匹配所有请求。'}>
                <InputGroup id="edge-pattern" value={form.pattern} placeholder="例如 ^/img/([0-9]+)x([0-9]+)/(.+)$" intent={fieldErrors.at('/pattern') ? 'danger' : 'none'} onChange={(e) => update({ pattern: e.target.value }, '/pattern')} />
              </FormGroup>
              <div className="edge-rule-head">
                <span className="edge-rule-label" id="edge-rule-label">
                  规则
                </span>
                <Button variant="minimal" size="small" intent="primary" icon="endorsed" onClick={runCheck} className="edge-check">
                  校验
                </Button>
                <Button variant="minimal" size="small" icon="book" onClick={() => setGuide('reference')}>
                  语言参考
                </Button>
              </div>
              <FormGroup
                aria-labelledby="edge-rule-label"
                intent={fieldErrors.at('/rule') ? 'danger' : 'none'}
                helperText={fieldErrors.at('/rule') ?? '输入 $ 查看可用的函数和变量，语法错误会在编辑器中标出。'}
              >
                <CodeEditor
                  value={form.rule}
                  pattern={form.pattern}
                  invalid={Boolean(fieldErrors.at('/rule'))}
                  onChange={(v) => {
                    setCheck(null);
                    update({ rule: v }, '/rule');
                  }}
                />
              </FormGroup>
              {check && (
                <Callout intent={check.ok ? 'success' : 'danger'} className="edge-check-result" role="status">
                  {check.text}
                </Callout>
              )}
            </>
          )}
          <PriorityField value={form.priority} error={fieldErrors.at('/priority')} maxPriority={maxPriority} onChange={onPriority} />
          <Checkbox label="匹配后不再执行后续规则" checked={form.break} onChange={(e) => update({ break: (e.target as HTMLInputElement).checked }, '/break')} />
          <RadioGroup inline label="规则状态" selectedValue={form.status} onChange={(e) => changeStatus((e.target as HTMLInputElement).value as RuleStatus)}>
            {(['ON', 'OFF', 'DEBUG'] as RuleStatus[]).map((s) => (
              <Radio key={s} value={s} label={STATUS_LABELS[s]} />
            ))}
          </RadioGroup>
          {form.status === 'DEBUG' && (
            <FormGroup label="客户端 IP" labelFor="edge-ip" intent={fieldErrors.at('/ip') ? 'danger' : 'none'} helperText={fieldErrors.at('/ip') ?? '调试状态的规则只对这个 IP 发出的请求生效。'}>
              <InputGroup id="edge-ip" value={form.ip} placeholder="IPv4 或 IPv6 地址" intent={fieldErrors.at('/ip') ? 'danger' : 'none'} onChange={(e) => {
                  // typing wins over an address still being fetched
                  ipRequest.current++;
                  update({ ip: e.target.value }, '/ip');
                }} />
            </FormGroup>
          )}
          {(failure || topError) && (
            <Callout intent="danger" className="edge-save-failure" role="alert">
              {failure ?? topError}
            </Callout>
          )}
          {dirty && errors.length > 0 && !failure && <div className="edge-field-error edge-summary-error">请修正标红的内容后再提交（共 {errors.length} 处）</div>}
          <div className="edge-editor-actions">
            <Button onClick={() => navigate(listPath)}>取消</Button>
            <Button intent="primary" loading={saving} onClick={confirm}>
              确定
            </Button>
          </div>
        </Card>
        <Card className="edge-editor-tester">
          <H5>规则测试</H5>
          <p className="edge-muted">模拟一个请求，查看保存这条规则后服务的全部规则会如何处理它（尚未保存，不影响线上）。</p>
          {bucket ? <Tester bucketName={name} defaultHost={bucket.domains?.[0]?.domain} ip={callerIp} editing={testRule} /> : <Spinner size={24} />}
        </Card>
      </div>
      <Guide tab={guide} onChange={setGuide} onClose={closeGuide} />
    </div>
  );
}
