/** /account/verifycompany/ (spec 000 §2.4): company real-name verification. */
import { VerifyPage } from './VerifyPage';

export default function VerifyCompanyPage() {
  return <VerifyPage kind="company" />;
}
