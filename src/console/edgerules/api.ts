/**
 * The edge-rule calls (docs/api.md "Edge rules"), through the one API client.
 */
import { api } from '../api/client';
import type { EdgeOutcome, EdgeRule, EdgeRuleInput, RuleStatus, SampleRequest } from '../../shared/edgerules/types';
import { EDGE_LIMITS } from '../../shared/edgerules/catalogue';
import type { LiveAnswer } from '../../shared/edgerules/live';

export interface RulePage {
  pager: { total: number; page: number; pages: number };
  rewrite: EdgeRule[];
}

export interface CheckAnswer {
  result: boolean;
  message?: string;
  data?: { part: 'rule' | 'pattern'; reason: string; line: number; column: number; start: number; end: number };
  errors?: { path: string; message: string }[];
}

export interface TestAnswer {
  data: EdgeOutcome;
  rules: { rewrite_id: number | null; describe: string; priority: number; status: RuleStatus }[];
}

export const edgeApi = {
  list: async (bucketName: string, page: number) =>
    (await api.get<{ data: RulePage }>('/api/buckets/rewrite/', { bucket_name: bucketName, page, perPage: EDGE_LIMITS.pageSize })).data,
  create: async (bucketName: string, rule: EdgeRuleInput) => (await api.put<{ data: EdgeRule }>('/api/buckets/rewrite/', { bucket_name: bucketName, ...rule })).data,
  edit: async (id: number, rule: EdgeRuleInput) => (await api.post<{ data: EdgeRule }>('/api/buckets/rewrite/', { rewrite_id: id, ...rule })).data,
  remove: (id: number) => api.del(`/api/buckets/rewrite/?rewrite_id=${id}`),
  priority: (id: number, priority: number) => api.post('/api/buckets/rewrite/priority/', { rewrite_id: id, priority }),
  status: (id: number, status: RuleStatus, ip?: string) => api.post('/api/buckets/rewrite/status/', { rewrite_id: id, status, ...(ip ? { ip } : {}) }),
  check: (rule: string, pattern: string) => api.post<CheckAnswer>('/api/buckets/rewrite/check/', { rule, pattern }),
  test: (body: { bucket_name?: string; rules?: (EdgeRuleInput & { rewrite_id?: number })[]; request: SampleRequest }) => api.post<TestAnswer>('/api/buckets/rewrite/test/', body),
  /** 发送真实请求: the sample through the local edge, beside the prediction. */
  send: async (bucketName: string, request: SampleRequest) => (await api.post<{ data: LiveAnswer }>('/api/buckets/rewrite/send/', { bucket_name: bucketName, request })).data,
  ip: async () => (await api.get<{ data: { ip: string } }>('/api/ip')).data.ip,
  countries: async () => (await api.get<{ data: Record<string, string> }>('/api/buckets/rewrite/countries/')).data,
};
