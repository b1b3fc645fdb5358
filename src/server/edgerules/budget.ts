/**
 * The rule tester runs with a time budget (issue 34 item 2). Rules carry regular expressions of the
 * customer's (a custom rule's URI extraction pattern, `regex` conditions, $REGEX…), which JavaScript
 * matches with backtracking: `^/(a+)+$` against `/aaaa…!` doubles its time with each character and
 * held the control plane's one event loop for seconds. The edge's PCRE has its own limits; here the
 * evaluation runs inside `vm` with a timeout, which V8 enforces inside a regular expression too: past
 * EDGE_TEST_BUDGET_MS the evaluation is stopped and the call answers 400 23009 with a Chinese message
 * (the console's tester shows the server's answer). Within the budget the answer is the evaluator's
 * own, so the tester still agrees with the edge on every case of the differential test.
 */
import vm from 'node:vm';
import { ApiError } from '../http/errors';

/** How long one evaluation of the tester may take. */
export const EDGE_TEST_BUDGET_MS = 100;
/** The refusal of an evaluation past its budget. */
export const EDGE_TEST_TIMEOUT_CODE = 23009;

const context = vm.createContext({ job: null as null | (() => unknown) });
const script = new vm.Script('job()');

/** Runs `fn` (synchronous) within `budgetMs`; past it, throws ApiError 23009. */
export function withinBudget<T>(fn: () => T, budgetMs = EDGE_TEST_BUDGET_MS): T {
  let result: T;
  context.job = () => {
    result = fn();
  };
  try {
    script.runInContext(context, { timeout: budgetMs });
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new ApiError(EDGE_TEST_TIMEOUT_CODE, 400, [{ path: '/rules', message: EDGE_TEST_TIMEOUT_MESSAGE }]);
    throw e;
  } finally {
    context.job = null;
  }
  return result!;
}

export const EDGE_TEST_TIMEOUT_MESSAGE = `规则测试超过 ${EDGE_TEST_BUDGET_MS} 毫秒仍未完成：规则中的正则表达式可能存在灾难性回溯（如 (a+)+），请简化后再试`;
