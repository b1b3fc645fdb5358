/**
 * The edge-rule list (spec 002 §2 "Edge rules"): the edgeCalc tab of a CDN, SCDN or storage
 * service. Title, intro, add button, a paginated table (priority, name, break, status, operations)
 * whose rows expand to a readable detail and reorder by drag — with the mouse or the keyboard
 * (@dnd-kit) — saved through the priority call; a status dropdown, delete confirmation, empty state,
 * help panel and the rule tester.
 */
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, ButtonGroup, Callout, Card, Dialog, DialogBody, DialogFooter, Drawer, DrawerSize, H4, HTMLSelect, HTMLTable, Icon, NonIdealState, Spinner, Tag, Tooltip } from '@blueprintjs/core';
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type Announcements, type DragEndEvent, type DragStartEvent, type Modifier } from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ApiFailure } from '../api/client';
import { notify } from '../common/toaster';
import { errorText, THROWN_FAILURE_TEXT } from '../../shared/errors';
import type { BucketInfo } from '../../shared/buckets';
import { tabName } from '../../shared/services';
import type { EdgeRule, RuleStatus } from '../../shared/edgerules';
import { edgeApi, type RulePage } from './api';
import { describeAction, describeCondition, STATUS_LABELS, TYPE_LABELS } from './model';
import { GuideDrawer, type GuideTab } from './GuideDrawer';
import { RuleTester } from './RuleTester';
import type { EditorState } from './EdgeRuleEditorPage';
import './edge.css';

/**
 * The text of a refused call: a refusal with an error code is "result false" and shows the
 * action's own text (spec 002 §8: 优先级调整失败, 状态修改失败, 删除 Rewrite 失败), except the lock
 * and the session, whose own texts say more; anything else is an unknown error.
 */
export function actionFailure(e: unknown, code: 23004 | 23005 | 23006): string {
  if (e instanceof ApiFailure && e.code !== null) return e.code === 21210 || e.code === 21110 ? e.message : errorText(code);
  return THROWN_FAILURE_TEXT;
}

const STATUS_INTENT: Record<RuleStatus, 'success' | 'none' | 'warning'> = { ON: 'success', OFF: 'none', DEBUG: 'warning' };

function RuleDetail({ rule }: { rule: EdgeRule }) {
  if (rule.type === 'custom') {
    return (
      <div className="edge-detail">
        <div>
          <span className="edge-detail-label">URI 提取模式</span>
          {rule.pattern ? <code>{rule.pattern}</code> : <span className="edge-muted">未填写（匹配所有请求）</span>}
        </div>
        <div>
          <span className="edge-detail-label">规则</span>
        </div>
        <pre className="edge-rule-text">{rule.rule}</pre>
      </div>
    );
  }
  const conditions = rule.content?.conditions ?? [];
  return (
    <div className="edge-detail">
      <div>
        <span className="edge-detail-label">判断条件</span>
        {conditions.length === 0 ? (
          <span className="edge-muted">无（对所有请求生效）</span>
        ) : (
          conditions.map((c, i) => (
            <span key={i}>
              {i > 0 && <span className="edge-and"> 且 </span>}
              {describeCondition(c)}
            </span>
          ))
        )}
      </div>
      <div>
        <span className="edge-detail-label">执行功能</span>
        {(rule.content?.actions ?? []).map(describeAction).join('；')}
      </div>
    </div>
  );
}

interface RowProps {
  rule: EdgeRule;
  expanded: boolean;
  dragging: boolean;
  onToggle(): void;
  onEdit(): void;
  onDelete(): void;
  onStatus(s: RuleStatus): void;
}

/** A dragged row moves up and down only, inside the table's body: it never covers the header (issue 20). */
const withinBody: Modifier = ({ transform, draggingNodeRect: rect, containerNodeRect: body }) => {
  if (!rect || !body) return { ...transform, x: 0 };
  const y = Math.min(Math.max(transform.y, body.top - rect.top), body.top + body.height - (rect.top + rect.height));
  return { ...transform, x: 0, y };
};

function RuleRow({ rule, expanded, dragging, onToggle, onEdit, onDelete, onStatus }: RowProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: rule.rewrite_id });
  const style = { transform: CSS.Translate.toString(transform), transition, ...(isDragging ? { position: 'relative' as const, zIndex: 2 } : {}) };
  return (
    <>
      <tr ref={setNodeRef} style={style} className={`edge-row${isDragging ? ' is-dragging' : ''}`} data-rule={rule.describe} data-testid={`rule-row-${rule.rewrite_id}`}>
        <td className="edge-handle-cell">
          <button ref={setActivatorNodeRef} type="button" className="edge-handle" aria-label={`拖动调整“${rule.describe}”的优先级`} {...attributes} {...listeners}>
            <Icon icon="drag-handle-vertical" />
          </button>
        </td>
        <td className="edge-priority">{rule.priority}</td>
        <td>
          <button type="button" className="edge-expand" aria-expanded={expanded} onClick={onToggle}>
            <Icon icon={expanded ? 'chevron-down' : 'chevron-right'} size={14} />
            <span className="edge-describe">{rule.describe}</span>
          </button>
          <Tag minimal className="edge-inline-tag">
            {TYPE_LABELS[rule.type]}
          </Tag>
        </td>
        <td className="edge-break">{rule.break ? <Icon icon="tick" intent="success" aria-label="匹配后中断" /> : <span className="edge-muted">—</span>}</td>
        <td>
          <div className="edge-status">
            <span className={`edge-dot is-${STATUS_INTENT[rule.status]}`} />
            <HTMLSelect
              aria-label={`“${rule.describe}”的状态`}
              minimal
              value={rule.status}
              onChange={(e) => onStatus(e.target.value as RuleStatus)}
              options={(['ON', 'OFF', 'DEBUG'] as RuleStatus[]).map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
            />
            {rule.status === 'DEBUG' && rule.ip && <span className="edge-muted edge-ip">{rule.ip}</span>}
          </div>
        </td>
        <td className="edge-ops">
          <Button variant="minimal" intent="primary" size="small" onClick={onEdit}>
            编辑
          </Button>
          <Button variant="minimal" intent="danger" size="small" onClick={onDelete}>
            删除
          </Button>
        </td>
      </tr>
      {expanded && !dragging && (
        <tr className="edge-detail-row">
          <td />
          <td colSpan={5}>
            <RuleDetail rule={rule} />
          </td>
        </tr>
      )}
    </>
  );
}

const announcements: Announcements = {
  onDragStart: ({ active }) => `已选中规则 ${active.id}，使用方向键移动，按空格键放下，按 Esc 取消。`,
  onDragOver: ({ active, over }) => (over ? `规则 ${active.id} 移到了规则 ${over.id} 的位置。` : `规则 ${active.id} 不在列表中。`),
  onDragEnd: ({ active, over }) => (over ? `规则 ${active.id} 放在了规则 ${over.id} 的位置。` : `规则 ${active.id} 已放下。`),
  onDragCancel: ({ active }) => `已取消拖动规则 ${active.id}。`,
};

export default function EdgeRuleList({ bucket, locked }: { bucket: BucketInfo; locked?: string }) {
  const navigate = useNavigate();
  const name = bucket.bucket_name;
  const [page, setPage] = useState(1);
  const [data, setData] = useState<RulePage | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [expanded, setExpanded] = useState<Set<number>>(new Set());
  const [activeId, setActiveId] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<EdgeRule | null>(null);
  const [deleteFailure, setDeleteFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [testing, setTesting] = useState(false);
  const [guide, setGuide] = useState<GuideTab | null>(null);
  const [callerIp, setCallerIp] = useState('');
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));

  const load = useCallback(async () => {
    try {
      const d = await edgeApi.list(name, page);
      // a page emptied by a delete: go back one
      if (d.rewrite.length === 0 && page > 1 && d.pager.pages < page) {
        setPage(Math.max(1, d.pager.pages));
        return;
      }
      setData(d);
      setFailure(null);
    } catch (e) {
      setFailure(e instanceof ApiFailure && e.code !== null ? e.message : THROWN_FAILURE_TEXT);
      setData((d) => d ?? { pager: { total: 0, page: 1, pages: 0 }, rewrite: [] });
    }
  }, [name, page]);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    edgeApi.ip().then(setCallerIp, () => undefined);
  }, []);

  const guard = (): boolean => {
    if (locked) notify(locked, 'danger');
    return !locked;
  };
  const total = data?.pager.total ?? 0;
  const editorPath = `/services/${name}/${tabName(bucket.kind, 'edgeCalc')}/manage/`;
  const openEditor = (config?: EdgeRule) => {
    if (!guard()) return;
    const state: EditorState = { priority: total + 1, ...(config ? { config } : {}) };
    navigate(editorPath, { state });
  };

  async function changeStatus(rule: EdgeRule, status: RuleStatus) {
    if (!guard()) return;
    try {
      await edgeApi.status(rule.rewrite_id, status, status === 'DEBUG' ? callerIp || undefined : undefined);
      notify('状态修改成功');
    } catch (e) {
      notify(actionFailure(e, 23005), 'danger');
    }
    await load();
  }

  function onDragStart(e: DragStartEvent) {
    setActiveId(Number(e.active.id));
  }

  async function onDragEnd(e: DragEndEvent) {
    setActiveId(null);
    const { active, over } = e;
    if (!data || !over || active.id === over.id) return;
    if (!guard()) return;
    const rows = data.rewrite;
    const from = rows.findIndex((r) => r.rewrite_id === active.id);
    const to = rows.findIndex((r) => r.rewrite_id === over.id);
    if (from < 0 || to < 0) return;
    const target = rows[to].priority;
    // show the new order at once; the list reloads from the server after the call
    setData({ ...data, rewrite: arrayMove(rows, from, to).map((r, i) => ({ ...r, priority: rows[i].priority })) });
    try {
      await edgeApi.priority(Number(active.id), target);
      notify('优先级调整成功');
    } catch (err) {
      notify(actionFailure(err, 23004), 'danger');
    }
    await load();
  }

  async function confirmDelete() {
    if (!deleting) return;
    setBusy(true);
    setDeleteFailure(null);
    try {
      await edgeApi.remove(deleting.rewrite_id);
      setDeleting(null);
      notify('删除成功');
      await load();
    } catch (e) {
      setDeleteFailure(actionFailure(e, 23006));
    } finally {
      setBusy(false);
    }
  }

  const rows = data?.rewrite ?? [];
  const pages = data?.pager.pages ?? 0;

  return (
    <div className="edge-list" data-testid="edge-rule-list">
      <Card className="edge-list-card">
        <div className="edge-list-head">
          <div>
            <H4 className="edge-title">边缘规则</H4>
            <p className="edge-intro">
              边缘规则在 CDN 节点上按优先级依次处理请求：可以按 URI、请求头、参数、Cookie、来源国家或客户端 IP 判断，执行添加或删除 Header、重定向、URI 改写、限速、访问控制和自定义错误页面；也可以用编程模式编写规则。
            </p>
          </div>
          <div className="edge-list-actions">
            <Button icon="lab-test" onClick={() => setTesting(true)}>
              规则测试
            </Button>
            <Button intent="primary" icon="add" onClick={() => openEditor()}>
              添加规则
            </Button>
          </div>
        </div>
        {failure && (
          <Callout intent="danger" className="edge-list-failure" role="alert">
            {failure}
          </Callout>
        )}
        {data === null ? (
          <Spinner size={30} />
        ) : rows.length === 0 ? (
          <NonIdealState icon="flow-branch" title="暂无可查看的边缘规则" description="点击“添加规则”创建第一条边缘规则。" action={<Button intent="primary" icon="add" onClick={() => openEditor()}>添加规则</Button>} />
        ) : (
          <DndContext sensors={sensors} modifiers={[withinBody]} collisionDetection={closestCenter} onDragStart={onDragStart} onDragEnd={onDragEnd} onDragCancel={() => setActiveId(null)} accessibility={{ announcements, screenReaderInstructions: { draggable: '按空格键拿起规则，用上下方向键移动，再按空格键放下；按 Esc 取消。' } }}>
            <HTMLTable className="edge-table" compact>
              <thead>
                <tr>
                  <th className="edge-handle-cell">
                    <span className="visually-hidden">拖动</span>
                  </th>
                  <th>优先级</th>
                  <th>规则名称</th>
                  <th>
                    <Tooltip content="匹配后不再执行后续规则" placement="top">
                      <span className="edge-th-tip">中断</span>
                    </Tooltip>
                  </th>
                  <th>状态</th>
                  <th>操作</th>
                </tr>
              </thead>
              <tbody>
                <SortableContext items={rows.map((r) => r.rewrite_id)} strategy={verticalListSortingStrategy}>
                  {rows.map((r) => (
                    <RuleRow
                      key={r.rewrite_id}
                      rule={r}
                      expanded={expanded.has(r.rewrite_id)}
                      dragging={activeId !== null}
                      onToggle={() =>
                        setExpanded((s) => {
                          const n = new Set(s);
                          if (n.has(r.rewrite_id)) n.delete(r.rewrite_id);
                          else n.add(r.rewrite_id);
                          return n;
                        })
                      }
                      onEdit={() => openEditor(r)}
                      onDelete={() => {
                        if (!guard()) return;
                        setDeleteFailure(null);
                        setDeleting(r);
                      }}
                      onStatus={(s) => void changeStatus(r, s)}
                    />
                  ))}
                </SortableContext>
              </tbody>
            </HTMLTable>
          </DndContext>
        )}
        {pages > 1 && (
          <div className="edge-pager">
            <span className="edge-muted">
              共 {total} 条，第 {page} / {pages} 页
            </span>
            <ButtonGroup>
              <Button icon="chevron-left" aria-label="上一页" disabled={page <= 1} onClick={() => setPage(page - 1)} />
              <Button icon="chevron-right" aria-label="下一页" disabled={page >= pages} onClick={() => setPage(page + 1)} />
            </ButtonGroup>
          </div>
        )}
      </Card>
      <Callout intent="primary" icon="help" title="使用说明" className="edge-help">
        <ul>
          <li>规则按优先级从小到大执行，拖动行首的手柄（或选中手柄后用空格键和方向键）调整顺序，仅在当前页内调整。</li>
          <li>新建规则默认处于“调试”状态，只对您当前的 IP 生效；确认无误后改为“开启”。</li>
          <li>重定向、访问控制和自定义错误页面会结束规则集；URI 改写在其他规则之后生效。配置约 5 分钟后全网生效。</li>
        </ul>
        <div className="edge-help-links">
          <Button variant="minimal" intent="primary" icon="manual" onClick={() => setGuide('guide')}>
            边缘规则使用指南
          </Button>
          <Button variant="minimal" intent="primary" icon="book" onClick={() => setGuide('reference')}>
            编程模式语言参考
          </Button>
        </div>
      </Callout>
      <Dialog isOpen={deleting !== null} onClose={() => !busy && setDeleting(null)} title="规则删除" icon="trash" className="edge-delete-dialog">
        <DialogBody>
          <p>确定删除这条规则吗？</p>
          {deleting && <p className="edge-muted">规则：{deleting.describe}（优先级 {deleting.priority}）</p>}
          {deleteFailure && (
            <Callout intent="danger" role="alert">
              {deleteFailure}
            </Callout>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={() => setDeleting(null)} disabled={busy}>
                取消
              </Button>
              <Button intent="danger" loading={busy} onClick={confirmDelete}>
                确定
              </Button>
            </>
          }
        />
      </Dialog>
      <Drawer isOpen={testing} onClose={() => setTesting(false)} title="规则测试" icon="lab-test" size={DrawerSize.STANDARD} className="edge-drawer">
        <div className="edge-drawer-body">
          <p className="edge-muted">模拟一个请求，查看服务 {name} 已保存的规则会如何处理它。</p>
          <RuleTester bucketName={name} defaultHost={bucket.domains?.[0]?.domain} ip={callerIp} />
        </div>
      </Drawer>
      <GuideDrawer tab={guide} onChange={setGuide} onClose={() => setGuide(null)} />
    </div>
  );
}
