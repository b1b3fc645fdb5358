/**
 * Cost control (docs/service-tabs.md#cost-control): every 5 minutes, each service whose cost_control
 * setting is on has its latest 5-minute bandwidth read from traffic_5m (all its domains, every flow
 * type, the newest slot of the last 15 minutes). Above the cap the job pauses the service
 * (buckets.status PAUSED) or only tells the account, once per excess. A paused service resumes when the
 * setting is turned off, when the cap is raised above the sample that paused it, or — with auto_resume —
 * at the next midnight, Beijing time. Turning it off or raising the cap resumes at once: saving the setting
 * runs the resume rule for that service (`resumeIfLifted`, from the settings route; issue 34 item 15 — the
 * service stayed paused up to the next run, 5 minutes).
 */
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { DB } from '../db';
import { notify } from '../messages/notify';
import './tables';
import { tickOnce } from '../jobs/once';

export interface CostControlValue { enable: boolean; bandwidth_cap_mbps: number; action: 'pause' | 'notify'; auto_resume: boolean }

const SLOT_SECONDS = 300;
/** Samples older than this are not "the latest": a service without recent traffic is under any cap. */
const FRESH_MS = 15 * 60 * 1000;
const BEIJING_OFFSET_MS = 8 * 3600 * 1000;
export const PAUSED_STATUS = 'PAUSED';

/** The next 00:00 in Beijing time after a moment. */
export function nextBeijingMidnight(t: Date): Date {
  const local = t.getTime() + BEIJING_OFFSET_MS;
  const day = Math.floor(local / 86400000) + 1;
  return new Date(day * 86400000 - BEIJING_OFFSET_MS);
}

/** The latest 5-minute sample of a service: Mbps and slot, or null without fresh data. */
export async function latestBandwidth(db: DB, bucketId: number, now: Date): Promise<{ mbps: number; slot: Date } | null> {
  const row = await db
    .selectFrom('traffic_5m')
    .select(['slot', sql<string>`sum(bytes)`.as('bytes')])
    .where('domain_id', 'in', db.selectFrom('bucket_domains').select('id').where('bucket_id', '=', bucketId))
    .where('slot', '>=', new Date(now.getTime() - FRESH_MS))
    .where('slot', '<=', now)
    .groupBy('slot')
    .orderBy('slot', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  return { mbps: (Number(row.bytes) * 8) / SLOT_SECONDS / 1e6, slot: new Date(row.slot as any) };
}

export interface CostControlRun { paused: string[]; resumed: string[]; notified: string[] }

/** The resume rule alone, for one service whose setting was just saved: resumed or not. */
export async function resumeIfLifted(db: DB, bucketId: number, now = new Date()): Promise<boolean> {
  return (await runCostControl(db, now, { bucketId, resumeOnly: true })).resumed.length > 0;
}

export async function runCostControl(db: DB, now = new Date(), only?: { bucketId: number; resumeOnly: boolean }): Promise<CostControlRun> {
  const run: CostControlRun = { paused: [], resumed: [], notified: [] };
  // services with the setting stored, and services this job paused (their setting may be gone or off)
  let query = db
    .selectFrom('buckets')
    .leftJoin('service_settings as s', (j) => j.onRef('s.bucket_id', '=', 'buckets.id').on('s.setting_id', '=', 'cost_control'))
    .leftJoin('cost_control_state as st', 'st.bucket_id', 'buckets.id')
    .select(['buckets.id', 'buckets.name', 'buckets.owner_id', 'buckets.status', 's.value', 'st.paused', 'st.paused_at', 'st.paused_mbps', 'st.notified_slot'])
    .where((eb) => eb.or([eb('s.bucket_id', 'is not', null), eb('st.paused', '=', true)]));
  if (only) query = query.where('buckets.id', '=', only.bucketId);
  const rows = await query.execute();
  for (const r of rows) {
    if (only?.resumeOnly && !r.paused) continue;
    const v = (r.value ?? null) as CostControlValue | null;
    const on = Boolean(v?.enable);
    const sample = on ? await latestBandwidth(db, r.id, now) : null;
    const mbps = sample?.mbps ?? 0;
    const over = on && sample !== null && mbps > v!.bandwidth_cap_mbps;
    const state = { last_mbps: mbps, last_slot: sample?.slot ?? null, updated_at: now };

    if (r.paused) {
      const resume =
        !on ||
        v!.bandwidth_cap_mbps > Number(r.paused_mbps) ||
        (v!.auto_resume && r.paused_at !== null && now >= nextBeijingMidnight(new Date(r.paused_at as any)));
      if (resume) {
        // once, whoever gets here first (a save and the job at the same moment): the row still paused decides
        const done = await db.transaction().execute(async (trx) => {
          const lifted = await trx.updateTable('cost_control_state').set({ ...state, paused: false, paused_at: null }).where('bucket_id', '=', r.id).where('paused', '=', true).returning('bucket_id').executeTakeFirst();
          if (lifted) await trx.updateTable('buckets').set({ status: 'NORMAL' }).where('id', '=', r.id).where('status', '=', PAUSED_STATUS).execute();
          return Boolean(lifted);
        });
        if (!done) continue;
        await notify(db, r.owner_id, { category: 'service', title: '服务已恢复', body: `服务 ${r.name} 已解除带宽封顶暂停，恢复加速。`, link: `/services/${r.name}/` });
        run.resumed.push(r.name);
      } else if (!only?.resumeOnly) {
        await db.updateTable('cost_control_state').set(state).where('bucket_id', '=', r.id).execute();
      }
      continue;
    }

    if (over && v!.action === 'pause' && r.status === 'NORMAL') {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('buckets').set({ status: PAUSED_STATUS }).where('id', '=', r.id).execute();
        await trx
          .insertInto('cost_control_state')
          .values({ bucket_id: r.id, ...state, paused: true, paused_at: now, paused_mbps: mbps, notified_slot: sample!.slot })
          .onConflict((oc) => oc.column('bucket_id').doUpdateSet({ ...state, paused: true, paused_at: now, paused_mbps: mbps, notified_slot: sample!.slot }))
          .execute();
      });
      await notify(db, r.owner_id, {
        category: 'service',
        title: '服务已因带宽封顶暂停',
        body: `服务 ${r.name} 最近 5 分钟带宽 ${mbps.toFixed(2)} Mbps，超过上限 ${v!.bandwidth_cap_mbps} Mbps，已暂停加速。调高上限或关闭带宽封顶可恢复。`,
        link: `/services/${r.name}/`,
      });
      run.paused.push(r.name);
      continue;
    }

    const told = r.notified_slot ? new Date(r.notified_slot as any).getTime() === sample?.slot.getTime() : false;
    const notifyNow = over && v!.action === 'notify' && !told;
    await db
      .insertInto('cost_control_state')
      .values({ bucket_id: r.id, ...state, paused: false, paused_at: null, paused_mbps: 0, notified_slot: notifyNow ? sample!.slot : null })
      .onConflict((oc) => oc.column('bucket_id').doUpdateSet({ ...state, ...(notifyNow ? { notified_slot: sample!.slot } : {}) }))
      .execute();
    if (notifyNow) {
      await notify(db, r.owner_id, {
        category: 'service',
        title: '带宽超过封顶上限',
        body: `服务 ${r.name} 最近 5 分钟带宽 ${mbps.toFixed(2)} Mbps，超过上限 ${v!.bandwidth_cap_mbps} Mbps。`,
        link: `/services/${r.name}/`,
      });
      run.notified.push(r.name);
    }
  }
  return run;
}

export function scheduleCostControl(db: DB, log: FastifyBaseLogger, everyMs: number): () => void {
  if (!everyMs) return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    tickOnce(db, 'costControl', () => runCostControl(db)) // one server at a time (../jobs/once.ts)
      .then((r) => r && (r.paused.length || r.resumed.length) && log.info(r, 'cost control'))
      .catch((e) => log.error(e, 'cost control failed'))
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
