/**
 * The agent's side of the edge API (src/server/edge/routes.ts): pull the configuration by version
 * (a long poll), report an apply. Plain HTTP with the node key; nothing of the server is imported.
 */
import { EDGE_API_PREFIX, type EdgeApplyReport, type EdgeConfigAnswer } from '../shared/edge';

export class ControlPlane {
  private aborter = new AbortController();

  constructor(
    readonly baseUrl: string,
    private readonly key: string,
  ) {}

  private async call<T>(method: string, url: string, body?: unknown, timeoutMs = 60_000): Promise<T> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const res = await fetch(new URL(url, this.baseUrl), {
      method,
      headers: { authorization: `Bearer ${this.key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.any([this.aborter.signal, timeout]),
    });
    const json = (await res.json().catch(() => null)) as { result?: boolean; data?: T; message?: string } | null;
    if (!res.ok || !json?.result) throw new Error(`${method} ${url}：HTTP ${res.status} ${json?.message ?? ''}`.trim());
    return json.data as T;
  }

  /** The services changed after `after`; waits up to `wait` seconds for a change; a page of them with `page`. */
  config(after: number, wait: number, page?: { from: number; limit: number }): Promise<EdgeConfigAnswer> {
    const paging = page ? `&from=${page.from}&limit=${page.limit}` : '';
    return this.call('GET', `${EDGE_API_PREFIX}/config?after=${after}&wait=${wait}${paging}`, undefined, (wait + 30) * 1000);
  }

  async report(r: EdgeApplyReport): Promise<void> {
    await this.call('POST', `${EDGE_API_PREFIX}/report`, r);
  }

  abort(): void {
    this.aborter.abort();
    this.aborter = new AbortController();
  }
}
