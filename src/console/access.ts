/**
 * What a page needs (spec 000 §2.4, §6; spec 001 §2; spec 002 §2), read by the route guard
 * (routes.tsx): a user who reaches a page it may not use is sent to the dashboard with a reload.
 * The menus hide the same pages (shell/menu.ts). The server enforces the same rules on the calls.
 */
import { KINDS, type ServiceKind } from '../shared/services';
import { KIND_PERMISSION, mayUse, type Holder, type Need } from '../shared/permissions';

interface PageRule {
  /** matched against the path */
  pattern: RegExp;
  needs: Need[];
}

const serviceSections: PageRule[] = (Object.keys(KINDS) as ServiceKind[]).map((k) => ({
  pattern: new RegExp(`^/services/${KINDS[k].section}/$`),
  needs: [KIND_PERMISSION[k]],
}));

export const PAGE_RULES: PageRule[] = [
  // the account section and the messages: main accounts only (spec 000 §2.4, §2.8)
  { pattern: /^\/account\//, needs: ['parent_only'] },
  { pattern: /^\/[^/]+\/message\//, needs: ['parent_only'] },
  { pattern: /^\/gallery\//, needs: ['parent_only'] },
  // DDoS 高防 IP: main accounts only (docs/ddos.md)
  { pattern: /^\/services\/(ddos|create\/ddos)\//, needs: ['parent_only'] },
  ...serviceSections,
  // 云处理 works on file storage (docs/external-products.md)
  { pattern: /^\/services\/process\//, needs: ['file'] },
  { pattern: /^\/toolbox\/(ssl|createCertificate|certificatePay|reIssued|caMessageCheck|certificateDetail)\//, needs: ['https'] },
  { pattern: /^\/stats\//, needs: ['stats'] },
  { pattern: /^\/monitor\//, needs: ['monitor'] },
  { pattern: /^\/purge\//, needs: ['cache'] },
  { pattern: /^\/log\//, needs: ['log'] },
  { pattern: /^\/toolbox\/alarm\//, needs: ['monitor_alarm'] },
  { pattern: /^\/toolbox\/cross_platform_disaster_recovery\//, needs: ['file'] },
  { pattern: /^\/toolbox\/audit\//, needs: ['cloud_audit'] },
  // billing: parent-only plus bill (spec 001 §2.5)
  { pattern: /^\/billing\//, needs: ['parent_only', 'bill'] },
];

/** The needs of a path; [] for pages every signed-in user may open. */
export function needsForPath(pathname: string): Need[] {
  const path = pathname.endsWith('/') ? pathname : `${pathname}/`;
  return PAGE_RULES.find((r) => r.pattern.test(path))?.needs ?? [];
}

export function mayOpen(user: Holder, pathname: string): boolean {
  return mayUse(user, needsForPath(pathname));
}
