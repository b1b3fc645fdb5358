import type { SettingIO } from '../../../renderers/SettingPanel';
import { api } from '../api/client';
import { notify } from '../common/toaster';

/** The setting panels' access to the server, through the one API client. */
export const settingIO: SettingIO = {
  async load(id, bucketName) {
    const res = await api.get<{ data: unknown }>(`/api/settings/${encodeURIComponent(id)}/`, { bucket_name: bucketName });
    return res.data;
  },
  async save(id, bucketName, payload) {
    const res = await api.post<{ data: unknown }>(`/api/settings/${encodeURIComponent(id)}/`, { bucket_name: bucketName, ...(payload as object) });
    return res.data;
  },
  notify,
};
