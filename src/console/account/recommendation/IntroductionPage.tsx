/**
 * Referral introduction (spec 000 §2.4 recommendation/introduction/; docs/referrals.md): the rule, the
 * account's invite address to copy, and the way to the list.
 */
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Callout, ControlGroup, H3, InputGroup, Spinner } from '@blueprintjs/core';
import { api, failureText } from '../../api/client';
import { notify } from '../../common/toaster';
import type { InviteUrl } from '../../../shared/referrals';

export default function IntroductionPage() {
  const navigate = useNavigate();
  const [invite, setInvite] = useState<InviteUrl | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.get<{ data: InviteUrl }>('/api/accounts/invite-url/').then((r) => setInvite(r.data), (e) => setError(failureText(e)));
  }, []);
  if (error) return <Callout intent="danger">{error}</Callout>;
  if (!invite) return <Spinner aria-label="加载中" />;
  const percent = `${Math.round(invite.rate * 1000) / 10}%`;
  return (
    <div className="recommendation-page">
      <H3>推荐返利</H3>
      <Callout intent="primary" title="返利规则" className="recommendation-rule">
        <p>好友通过您的邀请链接注册后，{invite.days} 天内每笔成功充值金额的 {percent} 将作为返利计入您的账户。</p>
        <p>返利可在“费用中心 - 返利金额”中申请提现。</p>
      </Callout>
      <p>您的邀请码：<strong className="invite-code">{invite.invite_code}</strong></p>
      <ControlGroup fill className="invite-url">
        <InputGroup readOnly value={invite.url} aria-label="邀请链接" />
        <Button
          icon="duplicate"
          text="复制链接"
          onClick={() => {
            navigator.clipboard?.writeText(invite.url).then(
              () => notify('已复制'),
              () => notify('复制失败，请手动复制', 'danger'),
            );
          }}
        />
      </ControlGroup>
      <p>
        <Button intent="primary" text="查看推荐列表" icon="th-list" onClick={() => navigate('/account/recommendation/list/')} />
      </p>
    </div>
  );
}
