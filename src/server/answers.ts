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

export const SECTION_ANSWERS: AnswerTable[] = [edgeAnswers, filesAnswers, purgeAnswers, monitorAnswers, mediaAnswers, edgerulesAnswers, ddosAnswers];
