import type { Refusal, SettingRules } from '../../types';

interface ErrorPages {
  options: { code: number[]; url: string }[];
  status?: 'enable' | 'disable';
}

const rules: SettingRules = {
  /** Spec 002 §4: saved status is enable when at least one rule exists, disable when empty. */
  normalize(value: ErrorPages): ErrorPages {
    return { ...value, status: value.options.length > 0 ? 'enable' : 'disable' };
  },
  /** A status code may be answered by one rule only. */
  guard(value: ErrorPages): Refusal[] | null {
    const seen = new Map<number, number>();
    const errors: Refusal[] = [];
    value.options.forEach((rule, i) => {
      for (const code of rule.code) {
        if (seen.has(code)) errors.push({ path: `/options/${i}/code`, message: `状态码 ${code} 已在第 ${seen.get(code)! + 1} 条规则中配置` });
        else seen.set(code, i);
      }
    });
    return errors.length ? errors : null;
  },
};

export default rules;
