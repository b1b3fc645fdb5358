/**
 * /account/verifypersonal/ and /account/verifycompany/ (spec 000 §2.4, §5, §9): the declaration's
 * fields and the identity photos — jpeg, png, jpg, bmp or gif by content, at most 5 MB, checked here
 * before sending and again by the server — submitted for the platform's review.
 */
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button, Callout, Card, FileInput, H3 } from '@blueprintjs/core';
import personalSchema from '../../../schemas/forms/verify_personal/schema.json';
import personalUi from '../../../schemas/forms/verify_personal/ui.json';
import companySchema from '../../../schemas/forms/verify_company/schema.json';
import companyUi from '../../../schemas/forms/verify_company/ui.json';
import { DeclarationForm } from '../../../renderers/DeclarationForm';
import { api, ApiFailure, failureText } from '../api/client';
import type { FieldError } from '../../shared/errors';
import { eventNumber } from '../../shared/events';
import { imageTypeOf, PHOTO_ACCEPT, PHOTO_MAX_BYTES, PHOTO_SIZE_TEXT, PHOTO_TYPE_TEXT, VERIFY_PHOTOS, type VerifyKind } from '../../shared/security';

const FORMS = { personal: { schema: personalSchema, ui: personalUi, title: '个人实名认证' }, company: { schema: companySchema, ui: companyUi, title: '企业实名认证' } };

interface Photo {
  file: File;
  url: string;
}

/** The photo's refusal, or null: its type by its first bytes, its size. */
export async function checkPhoto(file: File): Promise<string | null> {
  if (file.size > PHOTO_MAX_BYTES) return PHOTO_SIZE_TEXT;
  const head = new Uint8Array(await file.slice(0, 32).arrayBuffer());
  return imageTypeOf(head) ? null : PHOTO_TYPE_TEXT;
}

export function VerifyPage({ kind }: { kind: VerifyKind }) {
  const navigate = useNavigate();
  const decl = FORMS[kind];
  const [form, setForm] = useState<Record<string, string>>({});
  const [photos, setPhotos] = useState<Record<string, Photo>>({});
  const [photoErrors, setPhotoErrors] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<any>(null);

  useEffect(() => () => Object.values(photos).forEach((p) => URL.revokeObjectURL(p.url)), [photos]);
  // the real-name statistics events of spec 000 §3: the page opened, a company submission
  const event = (name: string) => void api.post('/accounts/verify/statistics', { type: eventNumber('verify', name) }).catch(() => undefined);
  useEffect(() => event(kind === 'company' ? 'verify_ubl' : 'verify_personal'), [kind]);

  async function pick(field: string, file: File | undefined) {
    if (!file) return;
    const refusal = await checkPhoto(file);
    setPhotoErrors((e) => ({ ...e, [field]: refusal ?? '' }));
    if (refusal) return;
    setPhotos((p) => ({ ...p, [field]: { file, url: URL.createObjectURL(file) } }));
  }

  async function submit() {
    setFailure(null);
    const formOk = formRef.current?.validateForm();
    const missing = Object.fromEntries(VERIFY_PHOTOS[kind].filter((p) => !photos[p.field]).map((p) => [p.field, `请上传${p.label}照片`]));
    setPhotoErrors((e) => ({ ...e, ...missing }));
    if (!formOk || Object.keys(missing).length) return;
    const body = new FormData();
    body.append('kind', kind);
    for (const [k, v] of Object.entries(form)) if (v) body.append(k, v);
    for (const p of VERIFY_PHOTOS[kind]) body.append(p.field, photos[p.field].file, photos[p.field].file.name);
    setBusy(true);
    try {
      await api.post('/accounts/identity/certificate/', body);
      if (kind === 'company') event('verify_ubl_submit');
      // the profile reads itself again and says the submission awaits review (spec 000 §2.4 verifiedAccount)
      navigate('/account/profile/?verifiedAccount');
    } catch (e) {
      setFailure(failureText(e));
      if (kind === 'company') event('verify_ubl_failed');
      if (e instanceof ApiFailure) {
        setErrors(e.errors.filter((x) => !VERIFY_PHOTOS[kind].some((p) => `/${p.field}` === x.path)));
        const photoRefusals = e.errors.filter((x) => VERIFY_PHOTOS[kind].some((p) => `/${p.field}` === x.path));
        setPhotoErrors((pe) => ({ ...pe, ...Object.fromEntries(photoRefusals.map((x) => [x.path.slice(1), x.message])) }));
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="verify-page">
      <H3>{decl.title}</H3>
      <Card className="security-card">
        {failure && (
          <Callout intent="danger" role="alert" className="setting-failure">
            {failure}
          </Callout>
        )}
        <DeclarationForm schema={decl.schema} ui={decl.ui} formData={form} formRef={formRef} errors={errors} onChange={setForm} />
        <div className="verify-photos">
          {VERIFY_PHOTOS[kind].map((p) => (
            <div key={p.field} className="verify-photo" data-photo={p.field}>
              <label htmlFor={`photo-${p.field}`}>{p.label}</label>
              <FileInput
                fill
                text={photos[p.field]?.file.name ?? '选择照片…'}
                buttonText="浏览"
                inputProps={{ id: `photo-${p.field}`, accept: PHOTO_ACCEPT, name: p.field }}
                onInputChange={(e) => void pick(p.field, (e.target as HTMLInputElement).files?.[0])}
              />
              {photos[p.field] && <img src={photos[p.field].url} alt={p.label} />}
              {photoErrors[p.field] && (
                <div className="verify-photo-error" role="alert">
                  {photoErrors[p.field]}
                </div>
              )}
            </div>
          ))}
        </div>
        <p className="subaccount-intro">
          {PHOTO_TYPE_TEXT}，{PHOTO_SIZE_TEXT}。
        </p>
        <Button intent="primary" onClick={submit} loading={busy} className="verify-submit">
          提交认证
        </Button>{' '}
        <Link to="/account/profile/">返回账号信息</Link>
      </Card>
    </div>
  );
}

export default function VerifyPersonalPage() {
  return <VerifyPage kind="personal" />;
}
