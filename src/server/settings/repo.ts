import type { DB } from '../db';
import type { SettingRegistry } from '../../../schemas/registry';
import { prepare } from '../db/prepared';

/** The stored value of a setting, or its default when never saved. */
const storedValue = prepare<{ value: unknown }, [number, string]>('setting_value', 2, (db, bucketId, settingId) =>
  db.selectFrom('service_settings').select('value').where('bucket_id', '=', bucketId).where('setting_id', '=', settingId),
);

export async function readSetting(db: DB, registry: SettingRegistry, bucketId: number, settingId: string): Promise<unknown> {
  const [row] = await storedValue(db, bucketId, settingId);
  return row ? row.value : registry.defaults(settingId);
}

export async function writeSetting(db: DB, bucketId: number, settingId: string, value: unknown, userId: number): Promise<void> {
  const json = JSON.stringify(value);
  await db
    .insertInto('service_settings')
    .values({ bucket_id: bucketId, setting_id: settingId, value: json, updated_by: userId })
    .onConflict((oc) => oc.columns(['bucket_id', 'setting_id']).doUpdateSet({ value: json, updated_by: userId, updated_at: new Date() }))
    .execute();
}
