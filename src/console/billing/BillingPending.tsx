/** Billing pages that open in a later version (or whose owner has not added them yet). */
import { NonIdealState } from '@blueprintjs/core';

export default function BillingPending() {
  return <NonIdealState icon="build" title="该页面将在后续版本中开放" description="该页面正在建设中，如需帮助请联系客服。" />;
}
