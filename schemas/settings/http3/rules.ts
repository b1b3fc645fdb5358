import type { SettingRules } from '../../types';

/** HTTP/3 runs on TLS 1.3: turning it on needs TLS 1.3 on. */
const rules: SettingRules = {
  async guard(value: { enable: boolean }, ctx) {
    if (!value.enable) return null;
    const tls13 = (await ctx.read('tls13')) as { tls?: boolean } | undefined;
    return tls13?.tls ? null : [{ code: 21205, path: '/enable', link: { setting: 'tls13', text: '开启 TLS 1.3' } }];
  },
};

export default rules;
