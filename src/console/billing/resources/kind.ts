/** The resource kind of a billing URL: /billing/{kind}/…; /billing/resources/ is traffic. */
import { useLocation } from 'react-router-dom';
import { RESOURCE_KINDS, type ResourceKind } from '../../../shared/billing/resources';

export function useResourceKind(): ResourceKind {
  const seg = useLocation().pathname.split('/').filter(Boolean)[1] ?? 'resources';
  return (RESOURCE_KINDS as readonly string[]).includes(seg) ? (seg as ResourceKind) : 'resources';
}
