import type { DB } from '../db';
import type { SettingRegistry } from '../../../schemas/registry';
import { prepare } from '../db/prepared';
import { loggedChange, type LogActor, type LogWrite } from '../accounts/oplog';

/** The stored value of a setting, or its default when never saved. */
const storedValue = prepare<{ value: unknown }, [number, string]>('setting_value', 2, (db, bucketId, settingId) =>
  db.selectFrom('service_settings').select('value').where('bucket_id', '=', bucketId).where('setting_id', '=', settingId),
);

/** Each registry's default values, built once per setting (not per request) and frozen: every reader shares them. */
const defaultsBy = new WeakMap<SettingRegistry, Map<string, unknown>>();

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

/** The value a setting has before anyone saved it (registry.defaults, computed once; frozen). */
export function defaultValue(registry: SettingRegistry, settingId: string): unknown {
  let byId = defaultsBy.get(registry);
  if (!byId) defaultsBy.set(registry, (byId = new Map()));
  if (!byId.has(settingId)) byId.set(settingId, deepFreeze(registry.defaults(settingId)));
  return byId.get(settingId);
}

export async function readSetting(db: DB, registry: SettingRegistry, bucketId: number, settingId: string): Promise<unknown> {
  const [row] = await storedValue(db, bucketId, settingId);
  return row ? row.value : defaultValue(registry, settingId);
}

export async function writeSetting(db: DB, bucketId: number, settingId: string, value: unknown, userId: number): Promise<void> {
  const json = JSON.stringify(value);
  await db
    .insertInto('service_settings')
    .values({ bucket_id: bucketId, setting_id: settingId, value: json, updated_by: userId })
    .onConflict((oc) => oc.columns(['bucket_id', 'setting_id']).doUpdateSet({ value: json, updated_by: userId, updated_at: new Date() }))
    .execute();
}

/**
 * A settings save (POST /api/settings/{id}/): the value stored and its operation-log row, in ONE statement
 * (one transaction: src/server/accounts/oplog.ts loggedChange), unless the service is a live service whose
 * configuration is suspended — then nothing is stored and the answer is false (23802). The suspension is
 * read in the same statement as the write, so no save slips between a check and its write.
 */
const saveWithLog = loggedChange<[number, string, string, number]>(
  'setting_save',
  4,
  `insert into service_settings (bucket_id, setting_id, value, updated_by) ` +
    `select $1::integer, $2::text, $3::jsonb, $4::integer ` +
    `where not exists (select 1 from live_services where bucket_id = $1::integer and suspended) ` +
    `on conflict (bucket_id, setting_id) do update set value = excluded.value, updated_by = excluded.updated_by, updated_at = now() ` +
    `returning bucket_id`,
);

export function saveSetting(db: DB, bucketId: number, settingId: string, value: unknown, actor: LogActor, ip: string | null, entry: LogWrite): Promise<boolean> {
  return saveWithLog(db, [bucketId, settingId, JSON.stringify(value), actor.id], actor, ip, entry);
}
