import type { SettingRules } from '../../types';

/** Server Push needs HTTP/2 on. */
const rules: SettingRules = {
  async guard(value: { server_push_enable: boolean }, ctx) {
    if (!value.server_push_enable) return null;
    const h2 = (await ctx.read('http2')) as { status?: string } | undefined;
    return h2?.status === 'enable' ? null : [{ code: 21208, path: '/server_push_enable', link: { setting: 'http2', text: '开启 HTTP/2' } }];
  },
};

export default rules;
