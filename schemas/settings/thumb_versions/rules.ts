import type { Refusal, SettingRules } from '../../types';

interface ThumbVersions { separator: string; versions: { name: string }[] }

const rules: SettingRules = {
  /** A version name is used once (case-insensitive: it is part of a URL). */
  guard(value: ThumbVersions): Refusal[] | null {
    const errors: Refusal[] = [];
    const seen = new Map<string, number>();
    value.versions.forEach((v, i) => {
      const key = v.name.toLowerCase();
      if (seen.has(key)) errors.push({ path: `/versions/${i}/name`, message: `版本名称 ${v.name} 与第 ${seen.get(key)! + 1} 个版本重复` });
      else seen.set(key, i);
    });
    return errors.length ? errors : null;
  },
};

export default rules;
