/** Account pages that open in a later version: security, profile, operators and the others of spec 000 §2.4. */
import { useLocation } from 'react-router-dom';
import { H3, NonIdealState } from '@blueprintjs/core';

const TITLES: Record<string, string> = {
  security: '安全设置',
  profile: '账号信息',
  operators: '操作员管理',
  verifypersonal: '个人实名认证',
  verifycompany: '企业实名认证',
  recommendation: '推荐返利',
};

export default function AccountPending() {
  const { pathname } = useLocation();
  const key = pathname.split('/').filter(Boolean)[1] ?? '';
  const title = TITLES[key] ?? '账号管理';
  return (
    <div className="account-pending">
      <H3>{title}</H3>
      <NonIdealState icon="build" title={`${title}将在后续版本中开放`} description="该页面正在建设中，如需帮助请联系客服。" />
    </div>
  );
}
