/**
 * The sections' declared success answers (issue 23 item 2), given to registerAnswers in buildApp:
 * one table per section folder (src/server/<section>/answers.ts), see src/server/http/answers.ts.
 */
import type { AnswerTable } from './http/answers';
import { edgeAnswers } from './edge/answers';
import { filesAnswers } from './files/answers';
import { purgeAnswers } from './purge/answers';
import { monitorAnswers } from './monitor/answers';
import { mediaAnswers } from './media/answers';
import { edgerulesAnswers } from './edgerules/answers';
import { ddosAnswers } from './ddos/answers';
import { accountsAnswers } from './accounts/answers';
import { backupAnswers } from './backup/answers';
import { bucketsAnswers } from './buckets/answers';
import { dashboardAnswers } from './dashboard/answers';
import { domainsAnswers } from './domains/answers';
import { externalAnswers } from './external/answers';
import { loganalysisAnswers } from './loganalysis/answers';
import { referralsAnswers } from './referrals/answers';
import { workordersAnswers } from './workorders/answers';
import { smsAnswers } from './sms/answers';
import { liveAnswers } from './live/answers';
import { messagesAnswers } from './messages/answers';
import { statsAnswers } from './stats/answers';
import { certificatesAnswers } from './certificates/answers';
import { billingAnswers } from './billing/answers';
import { eventsAnswers } from './events/answers';
import { schemasAnswers } from './schemas/answers';

export const SECTION_ANSWERS: AnswerTable[] = [edgeAnswers, filesAnswers, purgeAnswers, monitorAnswers, mediaAnswers, edgerulesAnswers, ddosAnswers, accountsAnswers, backupAnswers, bucketsAnswers, dashboardAnswers, domainsAnswers, externalAnswers, loganalysisAnswers, referralsAnswers, workordersAnswers, smsAnswers, liveAnswers, messagesAnswers, statsAnswers, certificatesAnswers, billingAnswers, eventsAnswers, schemasAnswers];
