/**
 * /account/subaccount/ (spec 000 §2.5): the sub-accounts in a table (username, remark, status,
 * actions: edit, disable or enable, delete), previous/next cursor arrows, a user-guide link under
 * the table, a no-results message; the create and edit dialogs, the delete confirmation, and the
 * real-name prompt for an account that is not verified (spec 000 §2.9, §4).
 */
import { useEffect, useState } from 'react';
import { useAtomValue } from 'jotai';
import { Alert, Button, Callout, Dialog, DialogBody, DialogFooter, H3, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { api, failureText } from '../api/client';
import { notify } from '../common/toaster';
import { RealnamePrompt } from '../common/RealnamePrompt';
import { useConfirmedAction, useLoaded } from '../common/useList';
import { sessionAtom } from '../state';
import { defaults, fromChild, type SubaccountForm } from '../../../schemas/forms/subaccount/rules';
import { MAX_BINDS_PER_TYPE, MAX_CHILDREN, type ChildBind, type ChildInfo } from '../../shared/permissions';
import type { CursorPager } from '../../shared/buckets';
import { SubaccountDialog, UPDATED_TEXT } from './SubaccountDialog';
import { CursorPagerButtons } from '../../../renderers/CursorPager';

export const DELETED_TEXT = '删除子账号成功';

type Cursor = { since?: number; max?: number };

interface Editing {
  mode: 'new' | 'update';
  initial: SubaccountForm;
  held: string[];
  binds: ChildBind[];
}

/** The grants of a sub-account, every type the form shows (at most 100 each). */
async function bindsOf(childId: number): Promise<ChildBind[]> {
  const out: ChildBind[] = [];
  for (const type of ['cdn', 'file', 'live']) {
    const res = await api.get<{ binds: ChildBind[] }>('/api/bucket/child/', { child_id: childId, bucket_type: type, limit: 100 });
    out.push(...res.binds);
  }
  return out;
}

export default function SubaccountPage() {
  const session = useAtomValue(sessionAtom);
  const [pager, setPager] = useState<CursorPager>({ since: null, max: null });
  const [cursor, setCursor] = useState<Cursor>({});
  const [billHidden, setBillHidden] = useState(false);
  // content audit must be enabled before sub-accounts can be granted it (spec 000 §6, §7 audit-content check)
  const [auditEnabled, setAuditEnabled] = useState<boolean | undefined>(undefined);
  useEffect(() => {
    if (session.status !== 'signedIn') return;
    api
      .get<{ data: { exists: boolean } }>('/api/audit/exists', { user_id: session.user.user_id })
      .then((r) => setAuditEnabled(r.data.exists))
      .catch(() => setAuditEnabled(undefined));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const { data: rows, failure, reload: load } = useLoaded(
    async () => {
      const res = await api.get<{ children: ChildInfo[]; pager: CursorPager; grantable: { bill: boolean } }>('/api/account/child/', cursor);
      setPager(res.pager);
      setBillHidden(!res.grantable.bill);
      return res.children;
    },
    [cursor],
    [],
  );
  const [editing, setEditing] = useState<Editing | null>(null);
  const [opening, setOpening] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const deleting = useConfirmedAction(
    (child: ChildInfo) => api.del('/api/account/child/', { child_id: child.child_id }),
    DELETED_TEXT,
    // the page may now be empty: start again from the first one
    () => (rows?.length === 1 && cursor.max !== undefined ? setCursor({}) : load()),
  );
  const [realnamePrompt, setRealnamePrompt] = useState(false);
  const [guideOpen, setGuideOpen] = useState(false);

  if (session.status !== 'signedIn') return null;
  const verified = session.user.verify_status === 'yes';

  function create() {
    if (!verified) {
      setRealnamePrompt(true);
      return;
    }
    setEditing({ mode: 'new', initial: defaults(), held: [], binds: [] });
  }

  async function edit(child: ChildInfo) {
    setOpening(child.child_id);
    try {
      const binds = await bindsOf(child.child_id);
      setEditing({ mode: 'update', initial: fromChild(child, binds), held: child.permissions, binds });
    } catch (e) {
      notify(failureText(e), 'danger');
    } finally {
      setOpening(null);
    }
  }

  async function toggle(child: ChildInfo) {
    setBusy(true);
    try {
      await api.post('/api/account/child/', { child_id: child.child_id, status: child.status === 'Y' ? 'N' : 'Y' });
      notify(UPDATED_TEXT, 'success');
      await load();
    } catch (e) {
      notify(failureText(e), 'danger');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="subaccount-page">
      <div className="page-head">
        <H3>子账号管理</H3>
        <Button intent="primary" icon="new-person" className="subaccount-create" onClick={create} style={{ marginLeft: 'auto' }}>
          创建子账号
        </Button>
      </div>
      <p className="subaccount-intro">子账号可以登录控制台，使用主账号授予的服务和权限。每个账号最多创建 {MAX_CHILDREN} 个子账号。</p>
      {failure && (
        <Callout intent="danger" className="setting-failure">
          {failure}
        </Callout>
      )}
      {rows === null ? (
        <Spinner />
      ) : rows.length === 0 ? (
        <NonIdealState className="subaccount-empty" icon="people" title="暂无子账号" description="还没有创建子账号，点击“创建子账号”添加一个。" />
      ) : (
        <HTMLTable className="subaccount-table" striped>
          <thead>
            <tr>
              <th>用户名</th>
              <th>备注</th>
              <th>状态</th>
              <th>操作</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr key={c.child_id} data-child={c.child_name}>
                <td>{c.child_name}</td>
                <td>{c.nickname || <span className="subaccount-remark-empty">—</span>}</td>
                <td>
                  {c.status === 'Y' ? (
                    <Tag intent="success" minimal>
                      正常
                    </Tag>
                  ) : (
                    <Tag intent="warning" minimal>
                      已禁用
                    </Tag>
                  )}
                </td>
                <td>
                  <div className="subaccount-actions">
                    <Button size="small" variant="minimal" intent="primary" icon="edit" loading={opening === c.child_id} onClick={() => edit(c)}>
                      编辑
                    </Button>
                    <Button size="small" variant="minimal" icon={c.status === 'Y' ? 'disable' : 'play'} disabled={busy || deleting.busy} onClick={() => toggle(c)}>
                      {c.status === 'Y' ? '禁用' : '启用'}
                    </Button>
                    <Button size="small" variant="minimal" intent="danger" icon="trash" onClick={() => deleting.setTarget(c)}>
                      删除
                    </Button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <div className="subaccount-foot">
        <CursorPagerButtons pager={pager} onCursor={setCursor} />
        <Button variant="minimal" intent="primary" icon="manual" className="subaccount-guide-link" onClick={() => setGuideOpen(true)}>
          子账号使用指南
        </Button>
      </div>

      {editing && (
        <SubaccountDialog
          {...editing}
          billHidden={billHidden}
          auditEnabled={auditEnabled}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void load();
          }}
        />
      )}

      <Alert
        isOpen={deleting.target !== null}
        intent="danger"
        icon="trash"
        cancelButtonText="取消"
        confirmButtonText="删除"
        loading={busy || deleting.busy}
        onCancel={() => deleting.setTarget(null)}
        onConfirm={deleting.run}
        className="subaccount-delete-alert"
      >
        <p>确定删除子账号 {deleting.target?.child_name} 吗？</p>
        <p>删除后该子账号将无法登录，已授权的服务也会一并取消。</p>
      </Alert>

      <RealnamePrompt isOpen={realnamePrompt} purpose="创建子账号" event="child" onClose={() => setRealnamePrompt(false)} />

      <Dialog isOpen={guideOpen} title="子账号使用指南" icon="manual" onClose={() => setGuideOpen(false)} className="subaccount-guide">
        <DialogBody>
          <p>子账号使用自己的用户名和密码登录控制台，只能看到并使用主账号授予的服务和功能；子账号不能进入账号管理，也不会收到站内消息。</p>
          <p>服务授权：为 CDN、云存储和直播分别选择可使用的服务，每类最多 {MAX_BINDS_PER_TYPE} 个。选择了某类服务，子账号才能进入该类服务的页面。</p>
          <p>数据管理：决定统计分析、云监控、缓存刷新与日志下载的范围。“仅已授权的服务”只对选中的服务生效（须先选择服务），“全部服务”对所有服务生效，“不授权”则不授予这些权限。只选择了直播服务时，监控和缓存刷新不适用。</p>
          <p>其他权限：SSL 证书（可同时禁止下载证书）、费用中心、监控告警。禁用子账号会让它立即退出登录；删除后不可恢复。</p>
        </DialogBody>
        <DialogFooter actions={<Button onClick={() => setGuideOpen(false)}>知道了</Button>} />
      </Dialog>
    </div>
  );
}
