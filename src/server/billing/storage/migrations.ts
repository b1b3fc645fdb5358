/**
 * The bytes each file service stored at the end of each CST day (issue 19, item 15; docs/billing.md
 * "Storage by the day"): a storage day bill is priced on that day's bytes, not on what is stored when the
 * bill is made. A trigger on buckets records every change of storage_used as the day's row (the last
 * change of a day wins), so the row of a day, or else the latest row before it, is what the day ended
 * with. Name 0017_… (billing's range 0010–0019).
 */
import { type Kysely, type Migration, sql } from 'kysely';

export const storageMigrations: Record<string, Migration> = {
  '0017_storage_daily': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('storage_daily')
        .addColumn('bucket_id', 'integer', (c) => c.notNull().references('buckets.id').onDelete('cascade'))
        // the CST midnight of the day
        .addColumn('day', 'timestamptz', (c) => c.notNull())
        .addColumn('bytes', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('storage_daily_pk', ['bucket_id', 'day'])
        .execute();
      await sql`create function storage_daily_trg() returns trigger language plpgsql as $$
        begin
          if tg_op = 'UPDATE' and new.storage_used is not distinct from old.storage_used then
            return null;
          end if;
          insert into storage_daily (bucket_id, day, bytes, updated_at)
            values (new.id, to_timestamp(floor((extract(epoch from now()) + 28800) / 86400) * 86400 - 28800), new.storage_used, now())
            on conflict (bucket_id, day) do update set bytes = excluded.bytes, updated_at = excluded.updated_at;
          return null;
        end $$`.execute(db);
      await sql`create trigger storage_daily_ins after insert on buckets for each row when (new.kind = 'file') execute function storage_daily_trg()`.execute(db);
      await sql`create trigger storage_daily_upd after update of storage_used on buckets for each row when (new.kind = 'file') execute function storage_daily_trg()`.execute(db);
      // what every file service stores now is today's row
      await sql`insert into storage_daily (bucket_id, day, bytes)
        select id, to_timestamp(floor((extract(epoch from now()) + 28800) / 86400) * 86400 - 28800), storage_used from buckets where kind = 'file'`.execute(db);
    },
  },
};
