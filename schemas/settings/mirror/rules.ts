import type { SettingRules } from '../../types';

interface Mirror {
  mirror: 'enable' | 'paused' | 'disable';
  url_patterns: string[];
  mirror_bucket: string;
}

/**
 * Spec 002 §4–§5: duplicate paths are removed; the destination is one of the account's file
 * services, or — for an old migration — the service's own bucket.
 */
const rules: SettingRules = {
  normalize(value: Mirror): Mirror {
    return { ...value, url_patterns: [...new Set(value.url_patterns.map((p) => p.trim()).filter(Boolean))] };
  },
  /** An old migration (enable or paused with no bucket) is shown with the service's own bucket. */
  prepare(value: Mirror, ctx) {
    return value.mirror !== 'disable' && !value.mirror_bucket ? { ...value, mirror_bucket: ctx.bucketName } : value;
  },
  async guard(value: Mirror, ctx) {
    if (value.mirror === 'disable' && !value.mirror_bucket) return null;
    if (value.mirror_bucket === ctx.bucketName) return null;
    const b = await ctx.bucket(value.mirror_bucket);
    return b && b.kind === 'file' ? null : [{ code: 21209, path: '/mirror_bucket' }];
  },
};

export default rules;
