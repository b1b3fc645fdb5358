/**
 * Static texts (spec 000 §2.1): /authorizationProtocol/ (the partner sign-in agreement) and
 * /lets-disclaimer/ (the Let's Encrypt free certificate disclaimer). The texts are ours.
 */
import '../auth/entry.css';
import { Card, H3 } from '@blueprintjs/core';
import { useLocation } from 'react-router-dom';

const PROTOCOL = {
  title: '授权登录服务协议',
  paragraphs: [
    '一、本协议是您与云控制台（以下简称“本平台”）之间关于使用本平台账号登录合作伙伴应用（以下简称“合作应用”）的约定。您点击“同意授权”即表示您已阅读并同意本协议。',
    '二、授权后，本平台将向合作应用提供您的账号 ID、用户名及实名认证状态，用于合作应用识别您的身份；本平台不会向合作应用提供您的密码、手机号、邮箱及支付信息。',
    '三、每次授权生成的令牌仅能使用一次，且在短时间内失效。合作应用须在本平台登记其应用标识与回调地址，本平台仅向登记的回调地址发送令牌。',
    '四、合作应用对其收集、使用您信息的行为独立承担责任。您在合作应用中的操作及产生的费用，以合作应用的规则为准。',
    '五、如您发现账号被未经授权使用，请立即修改密码并提交工单联系我们。',
    '六、本平台可根据法律法规或业务调整修改本协议，修改后的协议自公布之日起生效。',
  ],
};

const DISCLAIMER = {
  title: "Let's Encrypt 免费证书免责声明",
  paragraphs: [
    "一、本平台提供的免费证书由 Let's Encrypt 签发，本平台仅代为申请、部署与续期，不是证书的签发机构。",
    "二、免费证书为域名验证型（DV）证书，有效期 90 天，本平台将在到期前自动续期；续期依赖域名解析与访问配置保持正确，因配置变更导致续期失败的，本平台不承担责任。",
    "三、免费证书不提供身份验证、不附带保险赔付，也不适用于对证书有合规要求的业务；如有需要，请购买付费证书。",
    "四、因 Let's Encrypt 服务中断、吊销证书、调整签发策略或根证书变更造成的影响，本平台将尽力协助处理，但不承担由此产生的损失。",
    '五、申请免费证书即表示您同意本声明及 Let\'s Encrypt 的订户协议（Subscriber Agreement）。',
  ],
};

export default function TextPage() {
  const { pathname } = useLocation();
  const text = pathname.startsWith('/lets-disclaimer') ? DISCLAIMER : PROTOCOL;
  return (
    <main className="login-page entry-page">
      <Card className="login-card entry-card text-page" elevation={2} style={{ maxWidth: 760 }}>
        <H3>{text.title}</H3>
        {text.paragraphs.map((p) => (
          <p key={p.slice(0, 12)}>{p}</p>
        ))}
      </Card>
    </main>
  );
}
