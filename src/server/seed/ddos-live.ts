/**
 * Demo data of DDoS 高防 IP and live services (issue 10): demo gets a 标准版 instance with two IPs, a website
 * rule, a non-website rule, an L4 policy, a week of attacks and three days of the four flow series (5-minute
 * points, real rows); demo-live is a push (file-type) live service, demo-class a pull (ucdn) one.
 */
import type { DB } from '../db';
import type {} from '../ddos/tables';

const FIVE_MIN = 300_000;

/** A deterministic pseudo-random sequence, so every seeded demo looks the same. */
function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

export async function seedDdosAndLive(db: DB, demoId: number, now = new Date()): Promise<void> {
  // ---- live services: the transport of each (spec 002 §4: push → file type, otherwise ucdn) ----
  for (const [name, transport] of [['demo-live', 'push'], ['demo-class', 'pull']] as const) {
    const b = await db.selectFrom('buckets').select('id').where('name', '=', name).executeTakeFirst();
    if (b) await db.insertInto('live_services').values({ bucket_id: b.id, transport }).execute();
  }

  // ---- DDoS: one instance with two IPs ----
  const start = new Date(now.getTime() - 20 * 86_400_000);
  const end = new Date(start);
  end.setMonth(end.getMonth() + 12);
  const inst = await db.insertInto('ddos_instances').values({ account_id: demoId, name: 'ddos', package: 'standard', start_time: start, end_time: end }).returning('id').executeTakeFirstOrThrow();
  await db.updateTable('ddos_instances').set({ name: `ddos-${String(inst.id).padStart(6, '0')}` }).where('id', '=', inst.id).execute();
  await db.insertInto('ddos_orders').values({ account_id: demoId, user_id: demoId, package: 'standard', nodes: JSON.stringify([1, 2]), months: 12, price: '119600.00', status: 'paid', instance_id: inst.id, paid_at: start }).execute();
  const ips = ['103.211.40.10', '103.211.41.10'];
  await db.insertInto('ddos_ips').values([{ instance_id: inst.id, ip: ips[0], node_id: 1 }, { instance_id: inst.id, ip: ips[1], node_id: 2 }]).execute();
  await db
    .insertInto('ddos_l7_rules')
    .values([
      { instance_id: inst.id, type: 'website', ip: ips[0], domain: 'www.demo-example.com', protocols: JSON.stringify(['http', 'https']), origins: JSON.stringify(['198.51.100.10']), cc_level: 'normal', waf: true },
      { instance_id: inst.id, type: 'non_website', ip: ips[1], domain: null, protocols: JSON.stringify(['tcp']), port: 7000, origin_port: 7000, origins: JSON.stringify(['198.51.100.20', '198.51.100.21']), cc_level: null },
    ])
    .execute();
  await db.insertInto('ddos_l4_rules').values({ instance_id: inst.id, ip: ips[0], type: 'blacklist', values: JSON.stringify(['203.0.113.0/24']), limit: null }).execute();

  // ---- attacks over the last week, one still going on ----
  const rand = rng(7);
  const types = ['syn_flood', 'udp_flood', 'ack_flood', 'dns_reflection', 'ntp_reflection', 'cc', 'syn_flood', 'udp_flood'];
  const attacks: { instance_id: number; ip: string; type: string; start_time: Date; end_time: Date | null; peak_bps: number; peak_pps: number }[] = [];
  for (let i = 0; i < 12; i++) {
    const s = new Date(now.getTime() - (6.5 - i * 0.5) * 86_400_000 - Math.floor(rand() * 3) * 3_600_000);
    const minutes = 10 + Math.floor(rand() * 50);
    const gbps = 2 + rand() * 60;
    attacks.push({ instance_id: inst.id, ip: ips[i % 2], type: types[i % types.length], start_time: s, end_time: new Date(s.getTime() + minutes * 60_000), peak_bps: Math.round(gbps * 1e9), peak_pps: Math.round(gbps * 1e9 / 800) });
  }
  attacks.push({ instance_id: inst.id, ip: ips[0], type: 'udp_flood', start_time: new Date(now.getTime() - 15 * 60_000), end_time: null, peak_bps: 38_500_000_000, peak_pps: 48_000_000 });
  await db.insertInto('ddos_attacks').values(attacks).execute();

  // ---- the four flow series, 5-minute points over three days, the attacks showing as peaks ----
  const first = Math.floor((now.getTime() - 3 * 86_400_000) / FIVE_MIN) * FIVE_MIN;
  const rows: { instance_id: number; type: number; ts: Date; value: number }[] = [];
  for (let t = first; t <= now.getTime(); t += FIVE_MIN) {
    const hour = new Date(t).getHours();
    const business = Math.round((0.15 + 0.25 * Math.sin(((hour - 6) / 24) * Math.PI * 2) ** 2 + rand() * 0.05) * 1e9);
    const attack = attacks.filter((a) => a.start_time.getTime() <= t + FIVE_MIN && (a.end_time ?? now).getTime() >= t).reduce((m, a) => Math.max(m, a.peak_bps * (0.6 + rand() * 0.4)), 0);
    const bps = business + Math.round(attack);
    rows.push(
      { instance_id: inst.id, type: 1, ts: new Date(t), value: bps },
      { instance_id: inst.id, type: 3, ts: new Date(t), value: Math.round(attack) },
      { instance_id: inst.id, type: 4, ts: new Date(t), value: business },
      { instance_id: inst.id, type: 5, ts: new Date(t), value: Math.round(bps / 800) },
    );
  }
  for (let i = 0; i < rows.length; i += 1000) await db.insertInto('ddos_flow_5m').values(rows.slice(i, i + 1000)).execute();
}
