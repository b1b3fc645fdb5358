import type { SettingRules } from '../../types';

/**
 * TLS 1.3 may not be turned off while the minimum version is TLSv1.3 (spec 002 §4) or while
 * HTTP/3, which runs on TLS 1.3, is on.
 */
const rules: SettingRules = {
  async guard(value: { tls: boolean }, ctx) {
    if (value.tls) return null;
    const min = (await ctx.read('tls_min_version')) as { version?: string } | undefined;
    if (min?.version === 'TLSv1.3') return [{ code: 21204, path: '/tls', link: { setting: 'tls_min_version', text: '修改最低 TLS 版本' } }];
    const h3 = (await ctx.read('http3')) as { enable?: boolean } | undefined;
    if (h3?.enable) return [{ code: 21206, path: '/tls', link: { setting: 'http3', text: '管理 HTTP/3' } }];
    return null;
  },
};

export default rules;
