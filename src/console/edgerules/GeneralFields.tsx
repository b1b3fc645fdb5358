/**
 * General (form) mode of the editor: the conditions (at most 10, all must hold) and the one
 * feature with its own inputs (spec 002 §2, §4, §5).
 */
import { memo, useCallback, useLayoutEffect, useRef } from 'react';
import { Button, Checkbox, ControlGroup, FormGroup, HTMLSelect, InputGroup, Radio, RadioGroup, Tag } from '@blueprintjs/core';
import { COUNTRIES, EDGE_LIMITS, PREFIXED_VARIABLES, type Operator } from '../../shared/edgerules';
import { CASE_LABELS, changeFeature, changeVariable, CHOICE_VARIABLES, FEATURES, featureOf, KIND_LABELS, METHOD_OPTIONS, newCondition, OPERATOR_LABELS, RATE_UNITS, SCHEME_OPTIONS, VARIABLES, type ActionForm, type ConditionForm, type FeatureId, type RateUnit } from './model';

export interface FieldErrors {
  /** The message to show at a path of the rule, or undefined. */
  at(path: string): string | undefined;
  /** The person changed the field at this path. */
  touch(path: string): void;
}

const C = (i: number, rest: string) => `/content/conditions/${i}/${rest}`;
const A = (rest: string) => `/content/actions/0/${rest}`;

function Err({ text }: { text?: string }) {
  return text ? <div className="edge-field-error">{text}</div> : null;
}

/** The selects' options, built once (a row used to build them on every keystroke in any row). */
const VARIABLE_OPTIONS = VARIABLES.map((v) => ({ value: v.value, label: v.label }));
const ALL_OPERATORS = Object.keys(OPERATOR_LABELS) as Operator[];
const OPERATOR_OPTIONS = ALL_OPERATORS.map((o) => ({ value: o, label: OPERATOR_LABELS[o] }));
const CHOICE_OPERATOR_OPTIONS = OPERATOR_OPTIONS.filter((o) => o.value === 'equal' || o.value === 'not_equal');
const CASE_OPTIONS = [
  { value: 'true', label: CASE_LABELS.true },
  { value: 'false', label: CASE_LABELS.false },
];
const COUNTRY_OPTIONS = Object.entries(COUNTRIES).map(([code, name]) => ({ value: code, label: `${name}（${code}）` }));

interface ConditionRowProps {
  c: ConditionForm;
  i: number;
  /** The messages shown under the row (its parameter, operator and value). */
  paramErr?: string;
  opErr?: string;
  valueErr?: string;
  /** Stable across renders (the list's), so a row re-renders only when its own condition or messages change. */
  touch(path: string): void;
  onChange(key: number, c: ConditionForm): void;
  onRemove(key: number): void;
}

const ConditionRow = memo(function ConditionRow({ c, i, paramErr, opErr, valueErr, touch, onChange, onRemove }: ConditionRowProps) {
  const prefixed = (PREFIXED_VARIABLES as readonly string[]).includes(c.variable);
  const choice = CHOICE_VARIABLES.includes(c.variable);
  const varInfo = VARIABLES.find((v) => v.value === c.variable);
  const set = (patch: Partial<ConditionForm>, path: string) => {
    touch(path);
    onChange(c.key, { ...c, ...patch });
  };
  return (
    <div className="edge-condition" data-testid={`condition-${i}`}>
      <div className="edge-condition-join">{i === 0 ? '当' : '且'}</div>
      <div className="edge-condition-fields">
        <ControlGroup className="edge-condition-controls">
          <HTMLSelect
            aria-label="变量"
            value={c.variable}
            onChange={(e) => {
              touch(C(i, 'lvalue/value'));
              onChange(c.key, changeVariable(c, e.target.value));
            }}
            options={VARIABLE_OPTIONS}
          />
          {prefixed && (
            <InputGroup
              aria-label={varInfo?.param ?? '参数名'}
              placeholder={varInfo?.param ?? '参数名'}
              value={c.param}
              intent={paramErr ? 'danger' : 'none'}
              onChange={(e) => set({ param: e.target.value }, C(i, 'lvalue/value'))}
              className="edge-param"
            />
          )}
          <HTMLSelect aria-label="匹配方式" value={c.operator} onChange={(e) => set({ operator: e.target.value as Operator }, C(i, 'operator'))} options={choice ? CHOICE_OPERATOR_OPTIONS : OPERATOR_OPTIONS} />
          {!choice && <HTMLSelect aria-label="大小写" value={String(c.caseSensitive)} onChange={(e) => set({ caseSensitive: e.target.value === 'true' }, C(i, 'case_sensitive'))} options={CASE_OPTIONS} />}
          {c.variable === 'http_method' ? (
            <HTMLSelect aria-label="匹配值" value={c.value} onChange={(e) => set({ value: e.target.value }, C(i, 'rvalue/value'))} options={METHOD_OPTIONS} />
          ) : c.variable === 'http_scheme' ? (
            <HTMLSelect aria-label="匹配值" value={c.value} onChange={(e) => set({ value: e.target.value }, C(i, 'rvalue/value'))} options={SCHEME_OPTIONS} />
          ) : c.variable === 'country_code' ? (
            <HTMLSelect aria-label="匹配值" value={c.value} onChange={(e) => set({ value: e.target.value }, C(i, 'rvalue/value'))} options={COUNTRY_OPTIONS} />
          ) : (
            <InputGroup
              aria-label="匹配值"
              placeholder={c.operator === 'match' || c.operator === 'not_match' ? '请输入正则表达式' : c.variable === 'remote_ip' ? '请输入 IPv4 地址' : '请输入匹配值'}
              value={c.value}
              intent={valueErr ? 'danger' : 'none'}
              onChange={(e) => set({ value: e.target.value }, C(i, 'rvalue/value'))}
              className="edge-grow"
            />
          )}
        </ControlGroup>
        <Err text={paramErr} />
        <Err text={opErr} />
        <Err text={valueErr} />
      </div>
      <Button icon="trash" variant="minimal" aria-label={`删除条件 ${i + 1}`} onClick={() => onRemove(c.key)} />
    </div>
  );
});

/**
 * The conditions. A keystroke in one condition re-renders that row only: the rows are memoized and get
 * their messages as strings and callbacks that stay the same (they read the latest list through a ref,
 * as the handlers of the last render did).
 */
export function ConditionsEditor({ conditions, onChange, errors }: { conditions: ConditionForm[]; onChange(c: ConditionForm[]): void; errors: FieldErrors }) {
  const full = conditions.length >= EDGE_LIMITS.maxConditions;
  const listErr = errors.at('/content/conditions');
  const latest = useRef({ conditions, onChange, touch: errors.touch });
  useLayoutEffect(() => {
    latest.current = { conditions, onChange, touch: errors.touch };
  });
  const touch = useCallback((path: string) => latest.current.touch(path), []);
  const onRowChange = useCallback((key: number, next: ConditionForm) => {
    const { conditions, onChange } = latest.current;
    onChange(conditions.map((x) => (x.key === key ? next : x)));
  }, []);
  const onRowRemove = useCallback((key: number) => {
    const { conditions, onChange } = latest.current;
    onChange(conditions.filter((x) => x.key !== key));
  }, []);
  return (
    <FormGroup label="判断条件" labelInfo={<Tag minimal round>{`${conditions.length} / ${EDGE_LIMITS.maxConditions}`}</Tag>} className="edge-conditions">
      {conditions.length === 0 && <div className="edge-muted edge-empty-conditions">没有判断条件时，规则对所有请求生效</div>}
      {conditions.map((c, i) => (
        <ConditionRow
          key={c.key}
          c={c}
          i={i}
          paramErr={errors.at(C(i, 'lvalue/value'))}
          opErr={errors.at(C(i, 'operator'))}
          valueErr={errors.at(C(i, 'rvalue/value'))}
          touch={touch}
          onChange={onRowChange}
          onRemove={onRowRemove}
        />
      ))}
      <Err text={listErr} />
      <Button icon="add" variant="outlined" size="small" disabled={full} onClick={() => onChange([...conditions, newCondition()])}>
        添加条件
      </Button>
    </FormGroup>
  );
}

function Field({ label, path, errors, children, help }: { label: string; path: string; errors: FieldErrors; children: React.ReactNode; help?: string }) {
  const e = errors.at(path);
  return (
    <FormGroup label={label} intent={e ? 'danger' : 'none'} helperText={e ?? help} className="edge-field">
      {children}
    </FormGroup>
  );
}

export function ActionEditor({ action, onChange, errors }: { action: ActionForm; onChange(a: ActionForm): void; errors: FieldErrors }) {
  const f = featureOf(action.feature);
  const set = (patch: Partial<ActionForm>, path: string) => {
    errors.touch(A(path));
    onChange({ ...action, ...patch });
  };
  const text = (key: 'name' | 'value' | 'capture' | 'target' | 'newuri', label: string, placeholder?: string) => (
    <Field label={label} path={A(key)} errors={errors}>
      <InputGroup aria-label={label} value={action[key]} placeholder={placeholder} intent={errors.at(A(key)) ? 'danger' : 'none'} onChange={(e) => set({ [key]: e.target.value } as Partial<ActionForm>, key)} />
    </Field>
  );
  const amount = (key: 'rate' | 'after', unitKey: 'rateUnit' | 'afterUnit', label: string, help: string) => (
    <Field label={label} path={A(key)} errors={errors} help={help}>
      <ControlGroup>
        <InputGroup aria-label={label} value={action[key]} inputMode="numeric" placeholder={key === 'after' ? '可选' : '请输入数值'} intent={errors.at(A(key)) ? 'danger' : 'none'} onChange={(e) => set({ [key]: e.target.value.replace(/\s/g, '') } as Partial<ActionForm>, key)} />
        <HTMLSelect aria-label={`${label}单位`} value={action[unitKey]} onChange={(e) => set({ [unitKey]: e.target.value as RateUnit } as Partial<ActionForm>, key)} options={[...RATE_UNITS]} />
      </ControlGroup>
    </Field>
  );
  const codes = f.codes ?? [];
  return (
    <div className="edge-action">
      <FormGroup label="功能" labelFor="edge-feature" intent={errors.at('/content/actions') ? 'danger' : 'none'} helperText={errors.at('/content/actions')}>
        <HTMLSelect
          id="edge-feature"
          aria-label="功能"
          value={action.feature}
          onChange={(e) => {
            errors.touch('/content/actions');
            onChange(changeFeature(action, e.target.value as FeatureId));
          }}
          options={FEATURES.map((x) => ({ value: x.id, label: x.label }))}
        />
      </FormGroup>
      <div className="edge-action-fields">
        {f.type === 'header' && (
          <>
            <RadioGroup inline label="类型" selectedValue={action.kind} onChange={(e) => set({ kind: (e.target as HTMLInputElement).value as ActionForm['kind'] }, 'kind')}>
              <Radio value="request" label={KIND_LABELS.request} />
              <Radio value="response" label={KIND_LABELS.response} />
            </RadioGroup>
            {text('name', 'Header 域名', '例如 X-Custom-Header')}
            {f.operate === 'add' && (
              <>
                {text('value', 'Header 域值', '请输入 Header 域值')}
                <Checkbox label="覆盖同名 Header" checked={action.cover} onChange={(e) => set({ cover: (e.target as HTMLInputElement).checked }, 'cover')} />
              </>
            )}
          </>
        )}
        {codes.length > 0 && (
          <Field label="状态码" path={A('code')} errors={errors}>
            <HTMLSelect aria-label="状态码" value={String(action.code)} onChange={(e) => set({ code: Number(e.target.value) }, 'code')} options={codes.map(String)} />
          </Field>
        )}
        {(action.feature === 'redirect' || action.feature === 'uri_rewrite') && text('capture', 'URI 字符串提取', '可选，例如 ^/old/(.*)$，分组可在目标中用 $1 引用')}
        {action.feature === 'redirect' && text('target', '重定向地址', '例如 https://www.example.com/new/$1')}
        {action.feature === 'errorpage' && text('target', '错误页面地址', '例如 /maintenance.html')}
        {action.feature === 'uri_rewrite' && text('newuri', '改写规则', '例如 /new/$1；末尾写 ? 去掉原查询参数')}
        {action.feature === 'limit_rate' && (
          <>
            {amount('rate', 'rateUnit', '限速值', '每秒传输的数据量')}
            {amount('after', 'afterUnit', '限速策略', '可选：先不限速传输这么多数据，之后再限速')}
          </>
        )}
      </div>
    </div>
  );
}
