import type { Refusal, SettingRules } from '../../types';

interface Origin { servers: { address: string; port: number; weight: number; backup: boolean }[] }

const rules: SettingRules = {
  /** At least one primary origin (21604), and an address and port only once. */
  guard(value: Origin): Refusal[] | null {
    const errors: Refusal[] = [];
    if (value.servers.length > 0 && value.servers.every((s) => s.backup)) errors.push({ path: '/servers', code: 21604 });
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
