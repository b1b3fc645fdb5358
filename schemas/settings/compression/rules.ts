import type { SettingRules } from '../../types';

interface Codec { disable: boolean; level: number }
interface Compression { status?: string; gzip: Codec; br: Codec }

/**
 * Spec 002 §3/§9: the level defaults to 1 (what the panel and the server answer while nothing is
 * stored), but the edit widget starts at 5: a compressor that is off opens in the dialog with level
 * 5, so turning it on there offers 5. A compressor that is on keeps its stored level.
 */
export const EDIT_WIDGET_LEVEL = 5;

const rules: SettingRules = {
  /** Spec 002 §7 saves gzip and br only: a write without status turns compression on (§3 "status (default enable)"). */
  normalize(value: Compression): Compression {
    return { ...value, status: value.status ?? 'enable' };
  },
  prepare(value: Compression): Compression {
    const open = (c: Codec): Codec => (c.disable ? { ...c, level: EDIT_WIDGET_LEVEL } : c);
    return { ...value, gzip: open(value.gzip), br: open(value.br) };
  },
};

export default rules;
