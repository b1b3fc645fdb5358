/**
 * /account/profile/ (spec 000 §2.4 "profile/?realname", §2.9): the account's facts, its real-name
 * status with the way to verify (a modal choosing personal or company; opened by ?realname), and the
 * profile declaration saved with 保存. The verification pages come back with ?verifiedAccount: the profile
 * is read again and a notice says the submission is awaiting review.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Button, Callout, Card, Dialog, DialogBody, DialogFooter, H3, H5, Spinner, Tag } from '@blueprintjs/core';
import profileSchema from '../../../schemas/forms/profile/schema.json';
import profileUi from '../../../schemas/forms/profile/ui.json';
import { DeclarationForm } from '../../../renderers/DeclarationForm';
import { api, ApiFailure, failureText } from '../api/client';
import { notify } from '../common/toaster';
import type { FieldError } from '../../shared/errors';
import { eventNumber } from '../../shared/events';
import { maskMiddle, VERIFY_STATES, type VerificationInfo } from '../../shared/security';
import { formatAt } from '../../shared/format';
import { AvatarCard } from './AvatarCard';

interface Profile {
  username: string;
  user_id: number;
  mobile: string | null;
  email: string | null;
  verify_status: 'yes' | 'not';
  created_at: string;
  profile: Record<string, string>;
  verification: VerificationInfo;
}

/** The notice after a real-name submission (the verification pages return to ?verifiedAccount). */
export const VERIFIED_ACCOUNT_NOTICE = '提交成功，请等待审核';

const STATE_INTENT = { none: 'none', pending: 'primary', approved: 'success', rejected: 'danger' } as const;

export default function ProfilePage() {
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const [data, setData] = useState<Profile | null>(null);
  const [form, setForm] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [choosing, setChoosing] = useState(search.has('realname'));
  const formRef = useRef<any>(null);
  const noticed = useRef(false);

  const load = useCallback(async () => {
    try {
      const r = await api.get<{ data: Profile }>('/accounts/profile/');
      setData(r.data);
      setForm(r.data.profile);
    } catch (e) {
      setFailure(failureText(e));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  // back from real-name verification (spec 000 §2.4 state param verifiedAccount): read again, say so once
  const verifiedAccount = search.has('verifiedAccount');
  useEffect(() => {
    if (!verifiedAccount || noticed.current) return;
    noticed.current = true;
    notify(VERIFIED_ACCOUNT_NOTICE, 'success');
    void load();
    const next = new URLSearchParams(search);
    next.delete('verifiedAccount');
    setSearch(next, { replace: true });
  }, [verifiedAccount, search, setSearch, load]);

  async function save() {
    if (!formRef.current?.validateForm()) return;
    setSaving(true);
    try {
      const body = Object.fromEntries(Object.entries(form).filter(([, v]) => v !== undefined && v !== null));
      await api.post('/accounts/profile/', body);
      notify('保存成功', 'success');
      setErrors([]);
    } catch (e) {
      notify(failureText(e), 'danger');
      if (e instanceof ApiFailure) setErrors(e.errors);
    } finally {
      setSaving(false);
    }
  }

  if (failure) return <Callout intent="danger">{failure}</Callout>;
  if (!data) return <Spinner aria-label="加载中" />;
  const v = data.verification;
  const mayVerify = v.status === 'none' || v.status === 'rejected';

  return (
    <div className="profile-page">
      <H3>账号信息</H3>
      <AvatarCard />
      <Card className="security-card">
        <dl className="profile-grid">
          <dt>账号</dt>
          <dd>{data.username}</dd>
          <dt>账号 ID</dt>
          <dd>{maskMiddle(String(data.user_id).padStart(10, '0'))}</dd>
          <dt>手机号</dt>
          <dd>{data.mobile ?? '未绑定'}</dd>
          <dt>邮箱</dt>
          <dd>{data.email ?? '未绑定'}</dd>
          <dt>注册时间</dt>
          <dd>{formatAt(data.created_at, 'YYYY-MM-DD HH:mm')}</dd>
          <dt>实名认证</dt>
          <dd className="profile-verify">
            <Tag intent={STATE_INTENT[v.status]} minimal className="verify-state">
              {VERIFY_STATES[v.status]}
            </Tag>{' '}
            {v.kind && (
              <span>
                {v.kind === 'company' ? '企业认证' : '个人认证'}：{v.name}（{v.id_number}）
              </span>
            )}
            {v.status === 'rejected' && v.reason && <div className="verify-reason">未通过原因：{v.reason}</div>}
            {v.status === 'pending' && <div className="verify-reason">资料已提交，平台将在 1 - 3 个工作日内完成审核，结果会通过站内消息通知您。</div>}
            {mayVerify && (
              <Button
                size="small"
                intent="primary"
                onClick={() => {
                  setChoosing(true);
                  void api.post('/accounts/verify/statistics', { type: eventNumber('verify', 'profile_realname') }).catch(() => undefined);
                }}
                className="verify-start"
              >
                {v.status === 'rejected' ? '重新认证' : '立即认证'}
              </Button>
            )}
          </dd>
        </dl>
      </Card>
      <Card className="security-card">
        <H5>基本资料</H5>
        <DeclarationForm schema={profileSchema} ui={profileUi} formData={form} formRef={formRef} errors={errors} onChange={setForm} />
        <Button intent="primary" onClick={save} loading={saving} className="profile-save">
          保存
        </Button>
      </Card>

      <Dialog isOpen={choosing && mayVerify} title="选择认证类型" icon="id-number" onClose={() => setChoosing(false)} className="verify-choose">
        <DialogBody>
          <p>个人用户请选择个人认证；企业用户请选择企业认证，需要上传营业执照。</p>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={() => navigate('/account/verifypersonal/')}>个人认证</Button>
              <Button intent="primary" onClick={() => navigate('/account/verifycompany/')}>
                企业认证
              </Button>
            </>
          }
        />
      </Dialog>
    </div>
  );
}
