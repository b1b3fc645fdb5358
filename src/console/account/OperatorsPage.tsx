/**
 * /account/operators/ (spec 000 §2.6, §4, §5, §8, §9): the operators in a table (operator, remark,
 * status, authorisation, operations), enabled first then disabled, each by name; add / edit with the
 * operator declaration (name checked as typed, read on by default, remark defaulting to the name,
 * password and access key generable as 32 letters and digits, the password sent on edit only when
 * entered); delete; enable and disable; manage services (paging by 5) and deprive authorisation.
 */
import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Callout, Dialog, DialogBody, DialogFooter, H3, HTMLTable, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import operatorSchema from '../../../schemas/forms/operator/schema.json';
import operatorUi from '../../../schemas/forms/operator/ui.json';
import { CursorPagerButtons } from '../../../renderers/CursorPager';
import { api, failureText } from '../api/client';
import { notify } from '../common/toaster';
import { useConfirmedAction, useLoaded } from '../common/useList';
import { errorText, type FieldError } from '../../shared/errors';
import type { BucketInfo, CursorPager } from '../../shared/buckets';
import { SEARCH_DEBOUNCE_MS } from '../../shared/services';
import { OPERATOR_SERVICE_PAGE_SIZE, OPERATOR_TEXTS, randomSecret, type OperatorBucket, type OperatorInfo } from '../../shared/security';
import { FormDialog } from '../common/FormDialog';

interface OperatorForm {
  operator_id?: number;
  operator_name?: string;
  realname?: string;
  password?: string;
  ak?: string;
  operator_auth: { read: boolean; write: boolean; delete: boolean };
}

const NAME_PATTERN = new RegExp(operatorSchema.properties.operator_name.pattern);
const NEW_OPERATOR: OperatorForm = { operator_auth: { read: true, write: false, delete: false } };

function OperatorDialog({ initial, onClose, onSaved }: { initial: OperatorForm; onClose(): void; onSaved(): void }) {
  const mode = initial.operator_id ? 'update' : 'new';
  const [form, setForm] = useState<OperatorForm>(initial);
  const [taken, setTaken] = useState(false);
  const name = form.operator_name ?? '';

  useEffect(() => {
    setTaken(false);
    if (mode !== 'new' || name.length < 5 || !NAME_PATTERN.test(name)) return;
    let live = true;
    const t = setTimeout(() => {
      api
        .get<{ result: boolean }>('/api/operators/info/', { operator_name: name })
        .then((r) => live && setTaken(Boolean(r.result)))
        .catch(() => undefined);
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [mode, name]);

  const ui = {
    ...operatorUi,
    operator_name: { ...operatorUi.operator_name, ...(mode === 'update' ? { 'ui:readonly': true } : {}) },
    password: { ...operatorUi.password, 'ui:placeholder': mode === 'update' ? '留空表示不修改' : operatorUi.password['ui:placeholder'] },
  };
  const schema = mode === 'new' ? { ...operatorSchema, required: [...operatorSchema.required, 'password'], errorMessage: { ...operatorSchema.errorMessage, required: { ...operatorSchema.errorMessage.required, password: '密码不能为空' } } } : operatorSchema;
  const errors: FieldError[] = taken ? [{ path: '/operator_name', message: errorText(21125) }] : [];

  return (
    <FormDialog<OperatorForm>
      title={mode === 'new' ? '添加操作员' : '编辑操作员'}
      className="operator-dialog"
      schema={schema}
      ui={ui}
      value={form}
      onChange={setForm}
      errors={errors}
      submitDisabled={taken}
      onClose={onClose}
      onSubmit={async (v) => {
        const body = { ...v, realname: v.realname?.trim() || v.operator_name, ...(v.password ? {} : { password: undefined }) };
        if (mode === 'new') {
          await api.put('/api/operators/', body);
          notify(OPERATOR_TEXTS.created, 'success');
        } else {
          await api.post('/api/operators/', body);
          notify(`${OPERATOR_TEXTS.updated}${OPERATOR_TEXTS.effect}`, 'success');
        }
        onSaved();
      }}
    >
      <div className="operator-gen">
        <Button size="small" icon="random" onClick={() => setForm((f) => ({ ...f, password: randomSecret() }))} className="gen-password">
          随机生成密码
        </Button>
        <Button size="small" icon="key" onClick={() => setForm((f) => ({ ...f, ak: randomSecret() }))} className="gen-ak">
          随机生成密钥
        </Button>
      </div>
      <p className="subaccount-intro">{OPERATOR_TEXTS.effect}。</p>
    </FormDialog>
  );
}

function ServicesDialog({ op, onClose }: { op: OperatorInfo; onClose(): void }) {
  const [rows, setRows] = useState<OperatorBucket[] | null>(null);
  const [pager, setPager] = useState<CursorPager | null>(null);
  const [cursor, setCursor] = useState<{ since?: number; max?: number }>({});
  const [name, setName] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [depriving, setDepriving] = useState<OperatorBucket | null>(null);

  const load = useCallback(async () => {
    try {
      const r = await api.get<{ data: OperatorBucket[]; pager: CursorPager }>('/api/operators/buckets/', { operator_id: op.operator_id, limit: OPERATOR_SERVICE_PAGE_SIZE, ...cursor });
      setRows(r.data);
      setPager(r.pager);
    } catch (e) {
      setFailure(failureText(e));
    }
  }, [op.operator_id, cursor]);
  useEffect(() => {
    void load();
  }, [load]);

  async function bind() {
    setFailure(null);
    try {
      const r = await api.get<{ data: BucketInfo[] }>('/api/buckets/', { bucket_name: name.trim(), limit: 10 });
      const b = r.data.find((x) => x.bucket_name === name.trim());
      if (!b) throw new Error(errorText(21905));
      await api.put('/api/operators/buckets/binding/', { operator_id: op.operator_id, bucket_id: b.bucket_id });
      notify(OPERATOR_TEXTS.bound, 'success');
      setName('');
      await load();
    } catch (e) {
      setFailure(e instanceof Error && !('status' in e) ? e.message : failureText(e));
    }
  }

  async function deprive() {
    if (!depriving) return;
    try {
      await api.del('/api/operators/buckets/binding/', { operator_name: op.operator_name, bucket_name: depriving.bucket_name });
      notify(OPERATOR_TEXTS.deprived, 'success');
      setDepriving(null);
      await load();
    } catch (e) {
      setDepriving(null);
      setFailure(failureText(e));
    }
  }

  return (
    <Dialog isOpen title={`管理服务：${op.operator_name}`} onClose={onClose} className="form-dialog operator-services">
      <DialogBody>
        {failure && (
          <Callout intent="danger" role="alert" className="setting-failure">
            {failure}
          </Callout>
        )}
        <div className="entry-actions">
          <InputGroup placeholder="输入要授权的服务名称" value={name} onChange={(e) => setName(e.target.value)} className="operator-bind-name" fill />
          <Button intent="primary" onClick={bind} disabled={!name.trim()} className="operator-bind">
            授权
          </Button>
        </div>
        {!rows ? (
          <Spinner size={20} />
        ) : rows.length === 0 ? (
          <p className="subaccount-remark-empty">尚未授权任何服务</p>
        ) : (
          <ul className="operator-buckets-list">
            {rows.map((b) => (
              <li key={b.id} data-bucket={b.bucket_name}>
                <span>{b.bucket_name}</span>
                <Button size="small" variant="minimal" intent="danger" onClick={() => setDepriving(b)}>
                  取消授权
                </Button>
              </li>
            ))}
          </ul>
        )}
        <CursorPagerButtons pager={pager} onCursor={setCursor} small />
      </DialogBody>
      <DialogFooter actions={<Button onClick={onClose}>关闭</Button>} />
      <Alert isOpen={depriving !== null} intent="danger" cancelButtonText="取消" confirmButtonText="取消授权" onCancel={() => setDepriving(null)} onConfirm={deprive} className="operator-deprive">
        <p>
          确定取消操作员 {op.operator_name} 对服务 {depriving?.bucket_name} 的授权吗？
        </p>
      </Alert>
    </Dialog>
  );
}

export default function OperatorsPage() {
  const { data: rows, failure, reload: load } = useLoaded(async () => (await api.get<{ data: OperatorInfo[] }>('/api/operators/')).data, []);
  const [editing, setEditing] = useState<OperatorForm | null>(null);
  const [services, setServices] = useState<OperatorInfo | null>(null);
  const [busy, setBusy] = useState(false);
  const deleting = useConfirmedAction((op: OperatorInfo) => api.del('/api/operators/', { operator_id: op.operator_id }), OPERATOR_TEXTS.deleted, load);

  async function toggle(op: OperatorInfo) {
    setBusy(true);
    try {
      await api.post(`/api/operators/${op.status === 'enabled' ? 'disable' : 'enable'}/`, { operator_name: op.operator_name });
      notify(`${op.status === 'enabled' ? OPERATOR_TEXTS.disabled : OPERATOR_TEXTS.enabled}${OPERATOR_TEXTS.effect}`, 'success');
      await load();
    } catch (e) {
      notify(failureText(e), 'danger');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="operators-page">
      <div className="page-head">
        <H3>操作员管理</H3>
        <Button intent="primary" icon="add" onClick={() => setEditing(NEW_OPERATOR)} className="operator-add">
          添加操作员
        </Button>
      </div>
      <p className="subaccount-intro">操作员使用名称和密码（或访问密钥）通过接口管理授权给它的服务，权限分为读取、写入和删除；{OPERATOR_TEXTS.effect}。</p>
      {failure && <Callout intent="danger">{failure}</Callout>}
      {!rows ? (
        <Spinner aria-label="加载中" />
      ) : rows.length === 0 ? (
        <NonIdealState className="subaccount-empty" icon="people" title="暂无操作员" description={OPERATOR_TEXTS.empty} action={<Button intent="primary" onClick={() => setEditing(NEW_OPERATOR)}>添加操作员</Button>} />
      ) : (
        <HTMLTable className="operator-table" striped>
          <thead>
            <tr>
              <th>操作员</th>
              <th>备注</th>
              <th>状态</th>
              <th>授权</th>
              <th>操作</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((op) => (
              <tr key={op.operator_id} data-operator={op.operator_name}>
                <td>{op.operator_name}</td>
                <td>{op.realname}</td>
                <td>
                  {/* the same words as the sub-accounts' state (SubaccountPage) */}
                  <Tag intent={op.status === 'enabled' ? 'success' : 'warning'} minimal>
                    {op.status === 'enabled' ? '正常' : '已禁用'}
                  </Tag>
                </td>
                <td className="operator-auth">
                  {op.operator_auth.read && <Tag minimal>读取</Tag>} {op.operator_auth.write && <Tag minimal>写入</Tag>} {op.operator_auth.delete && <Tag minimal>删除</Tag>}
                  <span className="subaccount-remark-empty"> · {op.buckets} 个服务</span>
                </td>
                <td>
                  <div className="operator-actions">
                    <Button size="small" variant="minimal" intent="primary" icon="edit" onClick={() => setEditing({ operator_id: op.operator_id, operator_name: op.operator_name, realname: op.realname, ak: op.ak, operator_auth: op.operator_auth })}>
                      编辑
                    </Button>
                    <Button size="small" variant="minimal" icon="database" onClick={() => setServices(op)}>
                      管理服务
                    </Button>
                    <Button size="small" variant="minimal" icon={op.status === 'enabled' ? 'disable' : 'play'} disabled={busy || deleting.busy} onClick={() => toggle(op)}>
                      {op.status === 'enabled' ? '禁用' : '启用'}
                    </Button>
                    <Button size="small" variant="minimal" intent="danger" icon="trash" onClick={() => deleting.setTarget(op)}>
                      删除
                    </Button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      {editing && (
        <OperatorDialog
          initial={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void load();
          }}
        />
      )}
      {services && (
        <ServicesDialog
          op={services}
          onClose={() => {
            setServices(null);
            void load();
          }}
        />
      )}
      <Alert isOpen={deleting.target !== null} intent="danger" icon="trash" cancelButtonText="取消" confirmButtonText="删除" loading={busy || deleting.busy} onCancel={() => deleting.setTarget(null)} onConfirm={deleting.run} className="operator-delete-alert">
        <p>确定删除操作员 {deleting.target?.operator_name} 吗？删除后该操作员将无法再访问任何服务。</p>
      </Alert>
    </div>
  );
}
