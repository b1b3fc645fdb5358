import type { Refusal, SettingRules } from '../../types';
import { isLocalOriginAddress } from '../../../src/shared/origins';

/** The message of a callback at this machine, a link-local or a metadata address. */
export const LOCAL_CALLBACK_MESSAGE = '回调地址不能是本机、链路本地或元数据地址';

const FIELDS = ['on_publish', 'on_unpublish', 'on_record', 'on_snapshot'] as const;

/** The host a callback URL names, as written and as a URL parser reads it (0x7f.1 → 127.0.0.1), or null. */
function hostsOf(url: string): string[] {
  const written = /^https?:\/\/([^/:?#]+)/i.exec(url)?.[1];
  let parsed: string | undefined;
  try {
    parsed = new URL(url).hostname;
  } catch {
    parsed = undefined;
  }
  return [written, parsed].filter((h): h is string => !!h);
}

const rules: SettingRules = {
  /**
   * The live cloud POSTs to these addresses from inside the platform (issue 21 item 14): none may be
   * this machine, a link-local or a metadata address — the one rule of the origins
   * (`isLocalOriginAddress`, src/shared/origins.ts: 127.0.0.0/8, 0.0.0.0/8, 169.254.0.0/16, ::1,
   * fe80::/10, metadata names, localhost). No exception for the operator's demo origin: it serves files,
   * not callbacks.
   */
  guard(value: Record<(typeof FIELDS)[number], string>): Refusal[] | null {
    const errors: Refusal[] = [];
    for (const f of FIELDS) {
      const v = value?.[f];
      if (typeof v === 'string' && v && hostsOf(v).some((h) => isLocalOriginAddress(h))) errors.push({ path: `/${f}`, message: LOCAL_CALLBACK_MESSAGE });
    }
    return errors.length ? errors : null;
  },
};

export default rules;
