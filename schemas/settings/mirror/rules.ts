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
/** The paths without blanks and duplicates. */
function uniquePaths(paths: string[]): string[] {
  return [...new Set(paths.map((p) => p.trim()).filter(Boolean))];
}

const rules: SettingRules = {
  /** Duplicates are removed before the schema counts the paths: 50 different paths plus a repeat are accepted. */
  tidy(value: unknown) {
    const v = value as Partial<Mirror> | null;
    if (!v || typeof v !== 'object' || !Array.isArray(v.url_patterns) || !v.url_patterns.every((p) => typeof p === 'string')) return value;
    return { ...v, url_patterns: uniquePaths(v.url_patterns) };
  },
  /** The destination is optional when migration is off (spec 002 §7): stored as "". */
  normalize(value: Mirror): Mirror {
    return { ...value, url_patterns: uniquePaths(value.url_patterns), mirror_bucket: value.mirror_bucket ?? '' };
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
