/**
 * Live services (spec 002 "Live"): the live info, the transport rule and the texts of the
 * suspended-config modal, read by the server (src/server/live/) and the console (src/console/live/).
 */

/** Live transport push maps to service type file, otherwise ucdn (spec 002 §4). */
export function liveTypeOf(transport: string): 'file' | 'ucdn' {
  return transport === 'push' ? 'file' : 'ucdn';
}

export const LIVE_TRANSPORTS: Record<string, string> = { push: '推流（主播推流到直播云）', pull: '拉流（从源站拉流）' };

/** What GET /api/buckets/live/info/ answers. */
export interface LiveInfo {
  transport: string;
  type: 'file' | 'ucdn';
  suspended: boolean;
  suspended_reason: string | null;
}

export const LIVE_SUSPENDED_TITLE = '直播配置已暂停';
export const LIVE_SUSPENDED_TEXT = '该直播服务的配置已暂停，当前配置仅可查看、不能修改。如需恢复，请提交工单联系我们。';
export const LIVE_NO_CONFIG_TEXT = '该直播服务尚无直播配置，部分标签页暂不可用。';
