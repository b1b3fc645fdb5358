import type { SettingRules } from '../../types';

/** The storage service must be one of the account's file services (the same refusal as mirror's destination). */
const rules: SettingRules = {
  async guard(value: { enable: boolean; bucket: string }, ctx) {
    if (!value.bucket) return null;
    const b = await ctx.bucket(value.bucket);
    return b && b.kind === 'file' ? null : [{ code: 21209, path: '/bucket' }];
  },
};

export default rules;
