import type { SettingRules } from '../../types';

/** Server Push runs on HTTP/2: HTTP/2 may not be turned off while push is on. */
const rules: SettingRules = {
  async guard(value: { status: string }, ctx) {
    if (value.status === 'enable') return null;
    const push = (await ctx.read('server_push')) as { server_push_enable?: boolean } | undefined;
    return push?.server_push_enable ? [{ code: 21211, path: '/status', link: { setting: 'server_push', text: '管理 Server Push' } }] : null;
  },
};

export default rules;
