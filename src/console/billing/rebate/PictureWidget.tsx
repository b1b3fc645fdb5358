/**
 * The ID photo upload of the payee form (spec 001 §5 "Image upload": jpeg, png, jpg, bmp, gif, at most
 * 5242880 bytes). Checks the name and size first with the spec's messages; the server checks the
 * content again (POST /accounts/invoice/pic/) and answers the picture's URL, which becomes the value.
 */
import { useState } from 'react';
import { Classes, Colors, FileInput } from '@blueprintjs/core';
import type { WidgetProps } from '@rjsf/utils';
import { api, failureText } from '../../api/client';
import { PICTURE_MAX_BYTES, PICTURE_TEXTS, PICTURE_TYPES } from '../../../shared/billing-money';

export function PictureWidget(props: WidgetProps) {
  const { id, value, onChange, disabled, readonly, label } = props;
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [name, setName] = useState('');
  async function pick(file: File | undefined) {
    setError('');
    if (!file) return;
    const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
    if (!PICTURE_TYPES.includes(ext)) return setError(PICTURE_TEXTS.type);
    if (file.size > PICTURE_MAX_BYTES) return setError(PICTURE_TEXTS.size);
    const form = new FormData();
    form.append('image', file);
    setBusy(true);
    try {
      const r = await api.post<{ data: { url: string } }>('/accounts/invoice/pic/', form);
      setName(file.name);
      onChange(r.data.url);
    } catch (e) {
      setError(failureText(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="picture-widget">
      <FileInput
        inputProps={{ id, accept: '.jpg,.jpeg,.bmp,.gif,.png', 'aria-label': label }}
        text={busy ? '上传中…' : name || (value ? '已上传' : '选择图片')}
        buttonText="浏览"
        disabled={disabled || readonly || busy}
        onInputChange={(e) => void pick((e.target as HTMLInputElement).files?.[0])}
      />
      {value && <img src={value} alt={label} className="picture-preview" height={60} />}
      {error && <div className={`${Classes.FORM_HELPER_TEXT} picture-error`} style={{ color: Colors.RED3 }}>{error}</div>}
    </div>
  );
}
