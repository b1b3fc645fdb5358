import type { Refusal, SettingRules } from '../../types';

interface CacheRule { type: 'suffix' | 'directory' | 'path'; value: string; ttl: number; ignore_query: boolean }
interface CacheRules { rules: CacheRule[] }

const rules: SettingRules = {
  /** Suffixes are stored in lower case; a directory always ends with /. */
  normalize(value: CacheRules): CacheRules {
    return {
      rules: value.rules.map((r) => {
        if (r.type === 'suffix') return { ...r, value: r.value.toLowerCase() };
        if (r.type === 'directory' && !r.value.endsWith('/')) return { ...r, value: `${r.value}/` };
        return r;
      }),
    };
  },
  /** The value must fit its type, and a rule may not repeat an earlier one. */
  guard(value: CacheRules): Refusal[] | null {
    const errors: Refusal[] = [];
    const seen = new Map<string, number>();
    value.rules.forEach((r, i) => {
      const slash = r.value.startsWith('/');
      if (r.type === 'suffix' && slash) errors.push({ path: `/rules/${i}/value`, message: '文件后缀只能包含字母和数字，不带点，多个后缀用英文逗号分隔，如 jpg,png' });
      if (r.type !== 'suffix' && !slash) errors.push({ path: `/rules/${i}/value`, message: '目录和路径须以 / 开头' });
      const key = `${r.type}:${r.value}`;
      if (seen.has(key)) errors.push({ path: `/rules/${i}/value`, message: `与第 ${seen.get(key)! + 1} 条规则重复` });
      else seen.set(key, i);
    });
    return errors.length ? errors : null;
  },
};

export default rules;
