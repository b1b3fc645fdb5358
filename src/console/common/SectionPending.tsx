/**
 * A section of the other specifications that a sub-account may land on (spec 000 §2.3) but that
 * is not built yet: statistics, monitor, purge, log analysis, alarms, audit, billing.
 */
import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useSetAtom } from 'jotai';
import { H3, NonIdealState } from '@blueprintjs/core';
import { businessTypeAtom } from '../state';
import { SUBACCOUNT_LANDINGS } from '../../shared/permissions';

export default function SectionPending() {
  const { pathname } = useLocation();
  const setBusinessType = useSetAtom(businessTypeAtom);
  useEffect(() => setBusinessType(null), [setBusinessType]);
  const title = SUBACCOUNT_LANDINGS.find((l) => pathname.startsWith(l.path))?.title ?? '该功能';
  return (
    <div className="section-pending">
      <H3>{title}</H3>
      <NonIdealState icon="build" title={`${title}将在后续版本中开放`} description="该功能正在建设中，如需帮助请联系客服。" />
    </div>
  );
}
