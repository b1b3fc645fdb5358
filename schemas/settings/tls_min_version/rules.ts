import type { SettingRules } from '../../types';

/** Choosing TLSv1.3 while TLS 1.3 is off asks the user to turn TLS 1.3 on first (spec 002 §4). */
const rules: SettingRules = {
  async guard(value: { version: string }, ctx) {
    if (value.version !== 'TLSv1.3') return null;
    const tls13 = (await ctx.read('tls13')) as { tls?: boolean } | undefined;
    return tls13?.tls ? null : [{ code: 21203, path: '/version', link: { setting: 'tls13', text: '开启 TLS 1.3' } }];
  },
};

export default rules;
