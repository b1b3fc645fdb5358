/**
 * 头像 on the profile page (spec 000 §9: the avatar's 30 KB limit): the current picture, 上传头像 with the
 * type and size checked here first with the server's own constants, 删除头像. The server checks again
 * (src/server/accounts/avatar.ts).
 */
import { useEffect, useState } from 'react';
import { useAtom } from 'jotai';
import { Button, Card, FileInput, H5 } from '@blueprintjs/core';
import { api, failureText } from '../api/client';
import { notify } from '../common/toaster';
import { avatarAtom, avatarSrc } from '../state';
import { AVATAR_MAX_BYTES, AVATAR_SIZE_TEXT, imageTypeOf, PHOTO_ACCEPT, PHOTO_TYPE_TEXT } from '../../shared/security';

export function AvatarCard() {
  /** The picture's address with a version, so that a new one is fetched; null: none set (shared with the top bar). */
  const [src, setSrc] = useAtom(avatarAtom);
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const load = () =>
    api
      .get<{ data: { avatar: boolean; updated_at: number | null } }>('/api/accounts/avatar/info/')
      .then((r) => setSrc(avatarSrc(r.data)))
      .catch(() => setSrc(null));
  useEffect(() => {
    void load();
  }, []);

  async function upload(file: File) {
    setProblem('');
    if (file.size > AVATAR_MAX_BYTES) return setProblem(AVATAR_SIZE_TEXT);
    if (!imageTypeOf(new Uint8Array(await file.slice(0, 32).arrayBuffer()))) return setProblem(PHOTO_TYPE_TEXT);
    const body = new FormData();
    body.append('file', file);
    setBusy(true);
    try {
      await api.put('/api/accounts/avatar/', body);
      notify('头像已更新', 'success');
      await load();
    } catch (e) {
      setProblem(failureText(e));
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    setBusy(true);
    try {
      await api.del('/api/accounts/avatar/');
      notify('头像已删除', 'success');
      setSrc(null);
    } catch (e) {
      notify(failureText(e), 'danger');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card className="security-card avatar-card">
      <H5>头像</H5>
      <div className="avatar-row">
        {src ? <img className="avatar-picture" src={src} alt="当前头像" width={64} height={64} /> : <div className="avatar-picture avatar-none" aria-label="未设置头像" role="img" />}
        <div>
          <FileInput
            text="选择图片…"
            buttonText="上传头像"
            disabled={busy}
            inputProps={{ accept: PHOTO_ACCEPT, 'aria-label': '上传头像' }}
            onInputChange={(e) => {
              const file = (e.target as HTMLInputElement).files?.[0];
              (e.target as HTMLInputElement).value = '';
              if (file) void upload(file);
            }}
          />
          {src && <Button variant="minimal" intent="danger" text="删除头像" disabled={busy} onClick={remove} />}
          <p className="avatar-hint" id="avatar-hint">支持 .jpg .jpeg .bmp .gif .png 格式，大小不超过 30 KB</p>
          {problem && (
            <p className="avatar-problem" role="alert">
              {problem}
            </p>
          )}
        </div>
      </div>
    </Card>
  );
}
