/**
 * A node's first pull in pages (docs/edge.md "How it scales"): GET /edge/v1/config?after=0&from=&limit= gives
 * the services by id, `next` while more may follow and every service's id with the last page; an agent that
 * pulls in pages of three serves every demo domain and drops a service removed meanwhile.
 */
import { startEdgeStack, type EdgeStack } from './harness';
import type { EdgeConfigAnswer } from '../../src/shared/edge';

let edge: EdgeStack;

beforeAll(async () => {
  edge = await startEdgeStack({ agent: { pullPage: 3 } });
  await edge.waitLive();
});
afterAll(async () => {
  await edge?.close();
});

const config = async (q: string): Promise<EdgeConfigAnswer> => {
  const res = await fetch(`${edge.url}/edge/v1/config?${q}`, { headers: { authorization: `Bearer ${edge.key}` } });
  expect(res.status).toBe(200);
  return (await res.json()).data;
};

test('the pages give every service once, in id order, `next` until the last, every id with the last only', async () => {
  const whole = await config('after=0');
  expect(whole.next).toBeUndefined();
  const seen: number[] = [];
  let from = 0;
  for (let n = 0; n < 1000; n++) {
    const page = await config(`after=0&from=${from}&limit=4`);
    seen.push(...page.services.map((s) => s.id));
    if (page.next === undefined) {
      expect(page.ids).toEqual(whole.ids);
      break;
    }
    expect(page.services).toHaveLength(4);
    expect(page.ids).toEqual([]);
    expect(page.next).toBe(page.services[3].id);
    from = page.next;
  }
  expect(seen).toEqual(whole.services.map((s) => s.id));
  expect(new Set(seen).size).toBe(seen.length);
});

test('an agent that pulled in pages of three serves every demo domain', async () => {
  const whole = await config('after=0');
  const withDomains = whole.services.filter((s) => s.kind !== 'live' && s.domains.length);
  expect(withDomains.length).toBeGreaterThan(6);
  for (const s of withDomains) {
    const res = await edge.request(s.domains[0].name, '/echo/paged');
    expect(res.status).toBeGreaterThan(0);
    expect(res.text).not.toContain('该域名未接入本节点');
  }
});
