/**
 * The file-manage tab of a file service (spec 000 §2.11, spec 002 §7 /folder/{bucket}/{path}): a
 * breadcrumb of folders, the folder's entries page by page, new folder, upload with a progress bar,
 * download and delete with a confirmation. Blocked by a modal when the account is DISABLED, BLOCKED
 * or LOCKED.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAtomValue } from 'jotai';
import {
  Alert, AnchorButton, Breadcrumb, Button, ButtonGroup, Callout, Classes, Dialog, DialogBody, DialogFooter, FormGroup,
  HTMLTable, Icon, InputGroup, NonIdealState, ProgressBar, Spinner, type BreadcrumbProps,
} from '@blueprintjs/core';
import { api, ApiFailure, failureText } from '../api/client';
import { notify } from '../common/toaster';
import { sessionAtom } from '../state';
import { errorText, fillText, HTTP_4XX_TEXT, HTTP_5XX_TEXT, TRANSPORT_FAILURE_TEXT } from '../../shared/errors';
import { formatAt, formatSize } from '../../shared/format';
import type { CursorPager } from '../../shared/buckets';
import {
  FILE_MANAGE_BLOCKED, FILE_MANAGE_BLOCKED_STATES, FILE_TEXTS, FOLDER_PAGE_SIZE, UPLOAD_MAX_BYTES, UPLOAD_MAX_FILES, hasBidiControl, validName, type FileEntry,
} from '../../shared/files';

const enc = (p: string) => p.split('/').map(encodeURIComponent).join('/');
const folderUrl = (bucket: string, folder: string) => `/folder/${encodeURIComponent(bucket)}/${enc(folder)}`;

interface Upload {
  names: string[];
  loaded: number;
  total: number;
}

/** XMLHttpRequest, because fetch cannot report upload progress. */
function uploadFiles(url: string, files: File[], onProgress: (loaded: number, total: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const f of files) form.append('file', f, f.name);
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded, e.total);
    xhr.onload = () => {
      let body: any = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300 && body?.result) return resolve();
      if (body && typeof body.error_code === 'number') return reject(new ApiFailure(xhr.status, body.error_code, errorText(body.error_code), body.errors ?? []));
      reject(new ApiFailure(xhr.status, null, xhr.status >= 500 ? HTTP_5XX_TEXT : HTTP_4XX_TEXT));
    };
    xhr.onerror = () => reject(new ApiFailure(0, null, TRANSPORT_FAILURE_TEXT));
    xhr.send(form);
  });
}

export default function FileManager({ bucketName, kindSection }: { bucketName: string; kindSection: string }) {
  const session = useAtomValue(sessionAtom);
  const navigate = useNavigate();
  const status = session.status === 'signedIn' ? session.user.account_status : 'NORMAL';
  const blocked = (FILE_MANAGE_BLOCKED_STATES as readonly string[]).includes(String(status).toUpperCase());

  const [folder, setFolder] = useState('');
  const [items, setItems] = useState<FileEntry[] | null>(null);
  const [pager, setPager] = useState<CursorPager>({ since: null, max: null });
  const [used, setUsed] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [cursor, setCursor] = useState<{ since?: number; max?: number }>({});
  const [upload, setUpload] = useState<Upload | null>(null);
  const [newFolder, setNewFolder] = useState<string | null>(null);
  const [newFolderError, setNewFolderError] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<FileEntry | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const load = useCallback(async () => {
    if (blocked) return;
    setFailure(null);
    try {
      const res = await api.get<{ data: FileEntry[]; pager: CursorPager; storage: { used: number } }>(folderUrl(bucketName, folder), { limit: FOLDER_PAGE_SIZE, ...cursor });
      setItems(res.data);
      setPager(res.pager);
      setUsed(res.storage.used);
    } catch (e) {
      setFailure(failureText(e));
    }
  }, [bucketName, folder, cursor, blocked]);

  useEffect(() => {
    void load();
  }, [load]);

  const open = (f: string) => {
    setCursor({});
    setItems(null);
    setFolder(f);
  };

  const segs = folder ? folder.slice(0, -1).split('/') : [];
  // links with an address, so Enter opens them too; the list is drawn here, without Blueprint's
  // overflow list, whose spacer <div> inside the <ol> is not a list item (axe "list")
  const crumb = (target: string) => ({ href: '#', onClick: (e: React.MouseEvent) => { e.preventDefault(); open(target); } });
  const crumbs: BreadcrumbProps[] = [
    { text: FILE_TEXTS.root, icon: 'folder-close', ...crumb('') },
    ...segs.map((s, i) => ({ text: s, icon: 'folder-open' as const, ...crumb(`${segs.slice(0, i + 1).join('/')}/`) })),
  ];

  async function onFiles(list: FileList | null) {
    const files = Array.from(list ?? []);
    if (input.current) input.current.value = '';
    if (!files.length) return;
    if (files.length > UPLOAD_MAX_FILES) return notify(errorText(27109), 'danger');
    if (files.some((f) => f.size > UPLOAD_MAX_BYTES)) return notify(errorText(27105), 'danger');
    const total = files.reduce((t, f) => t + f.size, 0);
    setUpload({ names: files.map((f) => f.name), loaded: 0, total });
    try {
      await uploadFiles(folderUrl(bucketName, folder), files, (loaded, t) => setUpload((u) => (u ? { ...u, loaded, total: t } : u)));
      setUpload((u) => (u ? { ...u, loaded: u.total } : u));
      notify(FILE_TEXTS.uploaded);
      await load();
    } catch (e) {
      notify(failureText(e), 'danger');
    } finally {
      setUpload(null);
    }
  }

  async function createFolder() {
    const name = (newFolder ?? '').trim();
    if (hasBidiControl(name)) return setNewFolderError(FILE_TEXTS.nameBidi);
    if (!validName(name)) return setNewFolderError(FILE_TEXTS.nameInvalid);
    try {
      await api.post(folderUrl(bucketName, `${folder}${name}/`), {});
      notify(FILE_TEXTS.created);
      setNewFolder(null);
      await load();
    } catch (e) {
      setNewFolderError(failureText(e));
    }
  }

  async function remove(entry: FileEntry) {
    try {
      await api.del(folderUrl(bucketName, entry.path));
      notify(FILE_TEXTS.deleted);
      await load();
    } catch (e) {
      notify(failureText(e), 'danger');
    } finally {
      setToDelete(null);
    }
  }

  if (blocked) {
    return (
      <Dialog isOpen title={FILE_MANAGE_BLOCKED.title} isCloseButtonShown={false} canEscapeKeyClose={false} canOutsideClickClose={false} className="file-manage-blocked">
        <DialogBody>
          <Callout intent="danger" icon="lock">{FILE_MANAGE_BLOCKED.body}</Callout>
        </DialogBody>
        <DialogFooter actions={<Button intent="primary" text="返回服务列表" onClick={() => navigate(`/services/${kindSection}/`)} />} />
      </Dialog>
    );
  }

  const pct = upload && upload.total > 0 ? upload.loaded / upload.total : 0;
  return (
    <div className="file-manager">
      <div className="file-manager-bar">
        <nav aria-label="文件路径">
          <ol className={Classes.BREADCRUMBS}>
            {crumbs.map((c, i) => (
              <li key={i}>{i === crumbs.length - 1 ? <Breadcrumb text={c.text} icon={c.icon} current /> : <Breadcrumb {...c} />}</li>
            ))}
          </ol>
        </nav>
        <span className="file-manager-used">已用存储：{used === null ? '—' : formatSize(used)}</span>
      </div>
      <ButtonGroup className="file-manager-actions">
        <Button icon="upload" intent="primary" text={FILE_TEXTS.upload} disabled={Boolean(upload)} onClick={() => input.current?.click()} />
        <Button icon="folder-new" text={FILE_TEXTS.newFolder} onClick={() => { setNewFolder(''); setNewFolderError(null); }} />
        <Button icon="refresh" text="刷新" onClick={() => void load()} />
      </ButtonGroup>
      <input ref={input} type="file" multiple hidden data-testid="file-input" onChange={(e) => void onFiles(e.target.files)} />
      <p className={Classes.TEXT_MUTED}>单个文件不超过 {formatSize(UPLOAD_MAX_BYTES)}，每次最多 {UPLOAD_MAX_FILES} 个文件。</p>
      {upload && (
        <Callout className="file-upload-progress" icon="cloud-upload">
          <div>{FILE_TEXTS.uploading}：{upload.names.join('、')}（{Math.floor(pct * 100)}%）</div>
          <ProgressBar value={pct} intent="primary" animate stripes={pct < 1} aria-label="上传进度" />
        </Callout>
      )}
      {failure && <Callout intent="danger">{failure}</Callout>}
      {!items && !failure && <Spinner size={24} />}
      {items && items.length === 0 && <NonIdealState icon="folder-open" title={FILE_TEXTS.empty} />}
      {items && items.length > 0 && (
        <HTMLTable className="file-table" striped interactive compact>
          <thead>
            <tr><th>名称</th><th>大小</th><th>类型</th><th>更新时间</th><th>操作</th></tr>
          </thead>
          <tbody>
            {items.map((e) => (
              <tr key={e.id} data-path={e.path}>
                <td>
                  {e.type === 'folder' ? (
                    <a onClick={() => open(e.path)} role="button"><Icon icon="folder-close" /> {e.name}</a>
                  ) : (
                    <span><Icon icon="document" /> {e.name}</span>
                  )}
                </td>
                <td>{e.type === 'folder' ? '—' : formatSize(e.size)}</td>
                <td>{e.type === 'folder' ? '目录' : e.content_type ?? '—'}</td>
                <td>{formatAt(e.updated_at, 'YYYY-MM-DD HH:mm:ss')}</td>
                <td>
                  {e.type === 'file' && <AnchorButton minimal small icon="download" text="下载" href={folderUrl(bucketName, e.path)} download={e.name} />}
                  <Button minimal small intent="danger" icon="trash" text="删除" onClick={() => setToDelete(e)} />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <ButtonGroup className="file-pager">
        <Button icon="chevron-left" text="上一页" disabled={pager.since === null} onClick={() => setCursor({ since: pager.since! })} />
        <Button rightIcon="chevron-right" text="下一页" disabled={pager.max === null} onClick={() => setCursor({ max: pager.max! })} />
      </ButtonGroup>

      <Dialog isOpen={newFolder !== null} title={FILE_TEXTS.newFolder} onClose={() => setNewFolder(null)}>
        <DialogBody>
          <FormGroup label={FILE_TEXTS.folderName} labelFor="new-folder-name" helperText={newFolderError ?? `在 /${folder} 下新建`} intent={newFolderError ? 'danger' : 'none'}>
            <InputGroup id="new-folder-name" value={newFolder ?? ''} onValueChange={(v) => { setNewFolder(v); setNewFolderError(null); }} autoFocus />
          </FormGroup>
        </DialogBody>
        <DialogFooter actions={<><Button text="取消" onClick={() => setNewFolder(null)} /><Button intent="primary" text="确定" onClick={() => void createFolder()} /></>} />
      </Dialog>

      <Alert isOpen={toDelete !== null} intent="danger" icon="trash" confirmButtonText="删除" cancelButtonText="取消" onConfirm={() => toDelete && void remove(toDelete)} onCancel={() => setToDelete(null)}>
        {toDelete && fillText(FILE_TEXTS.deleteConfirm, { name: toDelete.name })}
      </Alert>
    </div>
  );
}
