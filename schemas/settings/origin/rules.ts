import type { Refusal, RuleContext, SettingRules } from '../../types';
import { ALLOWED_ORIGINS_VAR, DEMO_ORIGIN_VAR, originRefusals } from '../../../src/shared/origins';

/** The refusal of a service other than file storage saved without any origin. */
export const NO_ORIGIN_MESSAGE = '请至少添加一个源站';

interface Origin { servers: { address: string; port: number; weight: number; backup: boolean }[] }

const rules: SettingRules = {
  /**
   * At least one origin except for file services, at least one primary origin (21604), an address and port only once, and no origin at this machine,
   * a link-local or a metadata address (20011, src/shared/origins.ts), none in a private, CGNAT, multicast or
   * reserved range (20012) — except the operator's demo origin at exactly its address and port (the server
   * variable demo_origin, in the GET answer's vars) and the operator's allowance (edge_allowed_origins).
   */
  guard(value: Origin, ctx?: RuleContext): Refusal[] | null {
    const errors: Refusal[] = [];
    // a file service may have no origin (it reads its storage alone; 回源 is for what the storage does not
    // hold); every other service needs one. Without a context (a fixture, the CLI) the kind is unknown.
    if (value.servers.length === 0 && ctx?.kind !== 'file') errors.push({ path: '/servers', message: NO_ORIGIN_MESSAGE });
    if (value.servers.length > 0 && value.servers.every((s) => s.backup)) errors.push({ path: '/servers', code: 21604 });
    // local (20011) and private or reserved (20012) addresses, but the demo origin and the operator's allowance
    for (const r of originRefusals(value.servers, ctx?.vars?.[DEMO_ORIGIN_VAR], ctx?.vars?.[ALLOWED_ORIGINS_VAR])) errors.push({ path: `/servers/${r.index}/address`, code: r.code });
    const seen = new Map<string, number>();
    value.servers.forEach((s, i) => {
      const key = `${s.address.toLowerCase()}:${s.port}`;
      if (seen.has(key)) errors.push({ path: `/servers/${i}/address`, message: `与第 ${seen.get(key)! + 1} 个源站重复` });
      else seen.set(key, i);
    });
    return errors.length ? errors : null;
  },
};

export default rules;
