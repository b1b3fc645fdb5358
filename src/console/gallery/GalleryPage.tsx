/**
 * /gallery/ and /gallery/:id/ — the schema gallery for product owners and testers: every declared
 * setting rendered by the real form engine, with its live data, its validation messages, its
 * summary label, and its fixtures (loaded from the server, GET /api/schemas/gallery/, so the
 * console bundle does not carry them). Main accounts only, and only while the server offers it.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import { Button, Callout, Card, H3, H5, InputGroup, Menu, MenuItem, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { Tab, Tabs } from '../common/Tabs';
import type { IChangeEvent } from '@rjsf/core';
import { api, ApiFailure, failureText } from '../api/client';
import { sessionAtom } from '../state';
import { KIND_TITLES } from '../shell/menu';
import { TAB_LABELS } from '../../shared/services';
import type { FieldError } from '../../shared/errors';
import type { GalleryEntry, GalleryFixture } from '../../../schemas/gallery';
import { registry as consoleRegistry } from '../../../renderers/declarations';
import { ThemedForm, transformErrors, validatorFor } from '../../../renderers/theme';
import { SettingRegistry } from '../../../schemas/registry';
import { GALLERY_API } from './available';
import { compareErrors, isSameError, uniqueSorted } from './compare';
import './gallery.css';

const PANEL_TEXT: Record<string, string> = { dialog: '对话框', switch: '开关' };

type Failure = { code: number | null; message: string };

export default function GalleryPage() {
  const session = useAtomValue(sessionAtom);
  const isChild = session.status === 'signedIn' && Boolean(session.user.child);
  const { id } = useParams();
  const [entries, setEntries] = useState<GalleryEntry[] | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);

  useEffect(() => {
    if (isChild) return;
    let live = true;
    api
      .get<{ data: GalleryEntry[] }>(GALLERY_API)
      .then((r) => live && setEntries(r.data))
      .catch((e) => live && setFailure({ code: e instanceof ApiFailure ? e.code : null, message: failureText(e) }));
    return () => {
      live = false;
    };
  }, [isChild]);

  if (isChild || failure?.code === 21111) {
    return <NonIdealState className="gallery-closed" icon="lock" title="设置样例库仅对主账号开放" action={<Link to="/dashboard/">返回概览</Link>} />;
  }
  if (failure?.code === 21202) {
    return (
      <NonIdealState
        className="gallery-closed"
        icon="disable"
        title="设置样例库未开启"
        description="该环境未开启设置样例库（服务端配置 SCHEMA_GALLERY=0），请在测试环境中使用。"
        action={<Link to="/dashboard/">返回概览</Link>}
      />
    );
  }
  if (failure) return <Callout intent="danger">{failure.message}</Callout>;
  if (!entries) return <Spinner className="page-spinner" aria-label="加载中" />;

  const selected = id ? entries.find((e) => e.id === id) : undefined;
  return (
    <div className="gallery">
      <div className="page-head">
        <H3>设置样例库</H3>
        <span className="gallery-lead">共 {entries.length} 个设置。选择一个设置查看表单、实时数据、校验信息与样例；点击样例可将其数据载入表单。</span>
      </div>
      <div className="gallery-body">
        <GalleryList entries={entries} selectedId={id} />
        {selected ? (
          <GalleryDetail key={selected.id} entry={selected} />
        ) : (
          <Card className="gallery-empty">
            {id ? (
              <NonIdealState icon="search" title={`没有找到设置 ${id}`} description="请在左侧列表中选择一个设置。" />
            ) : (
              <NonIdealState icon="form" title="请在左侧选择一个设置" description="样例库列出 schemas/settings 下的所有设置声明。" />
            )}
          </Card>
        )}
      </div>
    </div>
  );
}

function GalleryList({ entries, selectedId }: { entries: GalleryEntry[]; selectedId?: string }) {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const q = query.trim().toLowerCase();
  const shown = q ? entries.filter((e) => e.id.toLowerCase().includes(q) || e.meta.title.toLowerCase().includes(q)) : entries;
  return (
    <Card className="gallery-list" aria-label="设置列表">
      <InputGroup leftIcon="search" placeholder="搜索设置名称或 ID" value={query} onValueChange={setQuery} className="gallery-search" />
      {shown.length === 0 && <p className="gallery-muted">没有匹配的设置</p>}
      <Menu className="gallery-menu">
        {shown.map((e) => (
          <MenuItem
            key={e.id}
            data-setting={e.id}
            active={e.id === selectedId}
            href={`/gallery/${e.id}/`}
            onClick={(ev) => {
              ev.preventDefault();
              navigate(`/gallery/${e.id}/`);
            }}
            multiline
            text={
              <div className="gallery-item">
                <div className="gallery-item-title">{e.meta.title}</div>
                <div className="gallery-item-meta">
                  <code>{e.id}</code> · {TAB_LABELS[e.meta.tab] ?? e.meta.tab}
                </div>
                <div className="gallery-item-kinds">{e.meta.kinds.map((k) => KIND_TITLES[k] ?? k).join(' / ')}</div>
              </div>
            }
          />
        ))}
      </Menu>
    </Card>
  );
}

interface Loaded {
  kind: 'valid' | 'invalid';
  fixture: GalleryFixture;
}

function GalleryDetail({ entry }: { entry: GalleryEntry }) {
  const { meta, schema, ui } = entry;
  // the console's own registry (the declarations bundled at build time); a setting added on the
  // server since the build is checked with its served schema, without its rules
  const bundled = Boolean(consoleRegistry.get(entry.id));
  const registry = useMemo(
    () => (bundled ? consoleRegistry : new SettingRegistry([{ meta: entry.meta, schema: entry.schema, ui: entry.ui, rules: {} }])),
    [bundled, entry],
  );
  const [formData, setFormData] = useState<unknown>(() => registry.defaults(entry.id));
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [version, setVersion] = useState(0);
  const formRef = useRef<any>(null);

  // a loaded value shows its errors under the fields at once, as if it had been typed
  useEffect(() => {
    formRef.current?.validateForm();
  }, [version]);

  const errors = useMemo(() => registry.check(entry.id, formData), [registry, entry.id, formData]);
  // the label the panel would show: the server stores the normalized value
  const normalized = useMemo(() => {
    const normalize = registry.get(entry.id)?.rules.normalize;
    if (!normalize) return undefined;
    try {
      return normalize(structuredClone(formData));
    } catch {
      return undefined;
    }
  }, [registry, entry.id, formData]);
  const summary = registry.summary(entry.id, normalized ?? formData);

  function load(next: unknown, which: Loaded | null) {
    setFormData(structuredClone(next));
    setLoaded(which);
    setVersion((v) => v + 1);
  }

  return (
    <div className="gallery-detail" data-setting={entry.id}>
      <Card className="gallery-head">
        <div className="gallery-title-row">
          <H5 className="gallery-title">{meta.title}</H5>
          <code className="gallery-id">{entry.id}</code>
          {meta.badge && (
            <Tag minimal intent="warning">
              {meta.badge}
            </Tag>
          )}
        </div>
        <div className="gallery-tags">
          <Tag minimal icon="application">标签页：{TAB_LABELS[meta.tab] ?? meta.tab}</Tag>
          <Tag minimal icon="widget">面板：{PANEL_TEXT[meta.panel] ?? meta.panel}</Tag>
          {meta.kinds.map((k) => (
            <Tag key={k} minimal intent="primary">
              {KIND_TITLES[k] ?? k}
            </Tag>
          ))}
        </div>
        {meta.description && <p className="gallery-muted">{meta.description}</p>}
        {!bundled && (
          <Callout intent="warning" compact className="gallery-warning">
            当前控制台构建中没有该设置，校验使用服务端返回的模式，规范化与跨设置规则未运行。请重新构建控制台。
          </Callout>
        )}
      </Card>

      <div className="gallery-columns">
        <div className="gallery-left">
          <Card className="gallery-fixtures">
            <H5>样例</H5>
            <FixtureGroup title="有效样例" kind="valid" fixtures={entry.fixtures.valid} loaded={loaded} onLoad={load} />
            <FixtureGroup title="无效样例" kind="invalid" fixtures={entry.fixtures.invalid} loaded={loaded} onLoad={load} />
            <Button size="small" variant="minimal" icon="reset" onClick={() => load(registry.defaults(entry.id), null)} className="gallery-reset">
              恢复默认值
            </Button>
          </Card>
          <Card className="gallery-form">
            <H5>表单</H5>
            {loaded && <p className="gallery-note gallery-form-note">载入的值缺少的字段在表单中显示为默认值；实时数据、校验结果与预期对比按载入的值计算，直到修改表单。</p>}
            <ThemedForm
              ref={formRef}
              key={`${entry.id}:${version}`}
              tagName="div"
              schema={schema}
              uiSchema={{ ...ui, 'ui:submitButtonOptions': { norender: true } }}
              formData={formData}
              validator={validatorFor(schema)}
              liveValidate="onChange"
              showErrorList={false}
              noHtml5Validate
              transformErrors={transformErrors}
              onChange={(e: IChangeEvent, fieldId?: string) => {
                // RJSF reports the defaults it fills in for missing fields without a field id: the data
                // stays exactly the loaded value (a fixture's payload) until a field is edited
                if (fieldId !== undefined) setFormData(e.formData);
              }}
              onError={() => undefined}
            />
          </Card>
        </div>

        <div className="gallery-right">
          {loaded && <Expectation loaded={loaded} actual={errors} />}
          <Card className="gallery-validation">
            <H5>
              校验结果{' '}
              {errors.length === 0 ? (
                <Tag intent="success" minimal>
                  通过
                </Tag>
              ) : (
                <Tag intent="danger" minimal>
                  {errors.length} 个错误
                </Tag>
              )}
            </H5>
            <ErrorList errors={uniqueSorted(errors)} className="gallery-errors" empty="当前数据通过校验" />
          </Card>
          <Card className="gallery-summary">
            <H5>摘要标签</H5>
            {summary ? (
              <Tag className="gallery-summary-label" intent={summary.intent === 'success' ? 'success' : summary.intent === 'warning' ? 'warning' : 'none'} minimal size="large">
                {summary.label}
              </Tag>
            ) : (
              <span className="gallery-muted">无</span>
            )}
            <p className="gallery-note">
              服务页面的设置面板对保存后的值显示该标签{normalized !== undefined ? '（按规范化后的值计算）' : ''}。
              {errors.length > 0 && '当前数据未通过校验，不能保存，标签仅供参考。'}
            </p>
          </Card>
          <Card className="gallery-data">
            <H5>实时数据（JSON）</H5>
            <pre className="gallery-json" role="region" aria-label="实时数据" tabIndex={0}>
              {formData === undefined ? '（空）' : JSON.stringify(formData, null, 2)}
            </pre>
          </Card>
          <Card className="gallery-files">
            <H5>声明文件</H5>
            <Tabs id={`gallery-files-${entry.id}`} renderActiveTabPanelOnly>
              <Tab id="setting" title="setting.json" panel={<pre className="gallery-json" tabIndex={0}>{JSON.stringify(meta, null, 2)}</pre>} />
              <Tab id="schema" title="schema.json" panel={<pre className="gallery-json" tabIndex={0}>{JSON.stringify(schema, null, 2)}</pre>} />
              <Tab id="ui" title="ui.json" panel={<pre className="gallery-json" tabIndex={0}>{JSON.stringify(ui, null, 2)}</pre>} />
            </Tabs>
          </Card>
        </div>
      </div>
    </div>
  );
}

function FixtureGroup(props: { title: string; kind: Loaded['kind']; fixtures: GalleryFixture[]; loaded: Loaded | null; onLoad(payload: unknown, which: Loaded): void }) {
  const { title, kind, fixtures, loaded, onLoad } = props;
  return (
    <div className={`gallery-fixture-group ${kind}`}>
      <div className="gallery-fixture-title">
        {title}（{fixtures.length}）
      </div>
      {fixtures.length === 0 && <p className="gallery-muted">暂无</p>}
      <ul className="gallery-fixture-list">
        {fixtures.map((f) => (
          <li key={f.file}>
            <Button
              size="small"
              variant="outlined"
              intent={kind === 'valid' ? 'success' : 'danger'}
              icon={kind === 'valid' ? 'tick-circle' : 'error'}
              active={loaded?.kind === kind && loaded.fixture.file === f.file}
              title={`fixtures/${kind}/${f.file}`}
              onClick={() => onLoad(f.payload, { kind, fixture: f })}
              className="gallery-fixture"
            >
              {f.name}
            </Button>
            {f.description && <span className="gallery-fixture-description">{f.description}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The loaded fixture's expectation next to what the current data produces. */
function Expectation({ loaded, actual }: { loaded: Loaded; actual: FieldError[] }) {
  const expected = loaded.kind === 'invalid' ? (loaded.fixture.errors ?? []) : [];
  const { matches, missing, unexpected } = compareErrors(expected, actual);
  return (
    <Card className={`gallery-expectation ${matches ? 'matches' : 'differs'}`}>
      <H5>
        样例 <code>{loaded.fixture.name}</code>{' '}
        <Tag intent={matches ? 'success' : 'danger'} className="gallery-verdict">
          {matches ? '符合预期' : '不符合预期'}
        </Tag>
      </H5>
      <p className="gallery-note">
        fixtures/{loaded.kind}/{loaded.fixture.file}
        {loaded.fixture.description ? `：${loaded.fixture.description}` : ''}
      </p>
      <div className="gallery-compare">
        <div>
          <div className="gallery-compare-title">预期错误</div>
          <ErrorList errors={uniqueSorted(expected)} marked={missing} markText="未出现" empty="无（应通过校验）" className="gallery-expected" />
        </div>
        <div>
          <div className="gallery-compare-title">实际错误</div>
          <ErrorList errors={uniqueSorted(actual)} marked={unexpected} markText="未列出" empty="无（通过校验）" className="gallery-actual" />
        </div>
      </div>
      {!matches && <p className="gallery-note">错误按（路径，信息）集合比较，与 npm run schemas -- check 相同；修改表单后按当前数据重新比较。</p>}
    </Card>
  );
}

function ErrorList(props: { errors: FieldError[]; empty: string; className?: string; marked?: FieldError[]; markText?: string }) {
  const { errors, empty, className, marked = [], markText } = props;
  if (errors.length === 0) return <p className={`gallery-muted ${className ?? ''}`}>{empty}</p>;
  return (
    <ul className={`gallery-error-list ${className ?? ''}`}>
      {errors.map((e) => {
        const flagged = marked.some((m) => isSameError(m, e));
        return (
          <li key={`${e.path}\u0000${e.message}`} className={flagged ? 'flagged' : undefined}>
            <code className="gallery-error-path">{e.path || '/'}</code> <span className="gallery-error-message">{e.message}</span>
            {flagged && markText && (
              <Tag minimal intent="warning" className="gallery-error-flag">
                {markText}
              </Tag>
            )}
          </li>
        );
      })}
    </ul>
  );
}
