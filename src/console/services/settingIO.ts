import type { LoadedSetting, SettingIO } from '../../../renderers/SettingPanel';
import type { BucketInfo, CursorPager } from '../../shared/buckets';
import type { ServiceKind } from '../../shared/services';
import { api, ApiFailure } from '../api/client';
import { notify } from '../common/toaster';
import { edgeSaved, settingEdgeState, watchEdge } from '../edge/edgeWatch';

/** The setting panels' access to the server, through the one API client. */
export const settingIO: SettingIO = {
  async load(id, bucketName) {
    return api.get<LoadedSetting>(`/api/settings/${encodeURIComponent(id)}/`, { bucket_name: bucketName });
  },
  async save(id, bucketName, payload) {
    const res = await api.post<{ data: unknown }>(`/api/settings/${encodeURIComponent(id)}/`, { bucket_name: bucketName, ...(payload as object) });
    edgeSaved(bucketName, id);
    return res.data;
  },
  notify,
  watchEdge(id, bucketName, onChange) {
    return watchEdge(bucketName, (view) => onChange(settingEdgeState(view, id)));
  },
  async buckets(kind, search, cursor, limit) {
    const res = await api.get<{ data: BucketInfo[]; pager: CursorPager }>('/api/buckets/', { business_type: kind, limit, ...(search ? { bucket_name: search } : {}), ...cursor });
    return { names: res.data.map((b) => b.bucket_name), since: res.pager.since, max: res.pager.max };
  },
  async bucket(name) {
    try {
      const res = await api.get<{ data: BucketInfo }>('/api/buckets/info/', { bucket_name: name });
      return { kind: res.data.kind as ServiceKind };
    } catch (e) {
      if (e instanceof ApiFailure && e.code === 21905) return null;
      throw e;
    }
  },
};
