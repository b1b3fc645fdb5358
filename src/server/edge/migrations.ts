import { type Kysely, type Migration, sql } from 'kysely';

/**
 * The edge section (numbers 0100–0109, docs/edge.md): edge nodes and their keys, every apply (reload)
 * they report, the services they refused, and the configuration version (0105: its NOTIFY).
 *
 * The version: triggers on every table a request's answer depends on call `edge_next_version()`, so that
 * no write path can forget it. 0100 made it one counter row that a writer held until its commit; 0102
 * makes it the writer's transaction id, with no row to wait for (see there). `buckets.edge_version` and
 * `service_settings.edge_version` keep the version of each one's last change, so a node pulls only the
 * services changed after the version it runs.
 */
export const edgeMigrations: Record<string, Migration> = {
  '0100_edge': {
    async up(db: Kysely<any>) {
      await db.schema.createTable('edge_config').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await sql`insert into edge_config (id, version) values (1, 0)`.execute(db);
      await db.schema.alterTable('buckets').addColumn('edge_version', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('service_settings').addColumn('edge_version', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema
        .createTable('edge_nodes')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('key_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('last_seen_at', 'timestamptz')
        .addColumn('applied_version', 'bigint')
        .addColumn('applied_at', 'timestamptz')
        .addColumn('ok', 'boolean')
        .addColumn('message', 'text')
        .execute();
      await db.schema
        .createTable('edge_applies')
        .addColumn('id', 'serial', (c) => c.primaryKey())
        .addColumn('node_id', 'integer', (c) => c.notNull().references('edge_nodes.id').onDelete('cascade'))
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addColumn('ok', 'boolean', (c) => c.notNull())
        .addColumn('message', 'text')
        .addColumn('refused', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('timings', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('edge_applies_node').on('edge_applies').columns(['node_id', 'id']).execute();
      // only what differs from "applied as asked": refusals and notes
      await db.schema
        .createTable('edge_service_status')
        .addColumn('node_id', 'integer', (c) => c.notNull().references('edge_nodes.id').onDelete('cascade'))
        .addColumn('bucket_id', 'integer', (c) => c.notNull())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('message', 'text')
        .addColumn('notes', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addPrimaryKeyConstraint('edge_service_status_pk', ['node_id', 'bucket_id'])
        .execute();

      await sql`create function edge_next_version() returns bigint language sql as $$
        update edge_config set version = version + 1 where id = 1 returning version $$`.execute(db);
      await sql`create function edge_touch_bucket(b integer) returns void language sql as $$
        update buckets set edge_version = edge_next_version() where id = b $$`.execute(db);

      // buckets: a new service, a renamed one, another status or kind; a deleted one moves the version
      await sql`create function edge_buckets_trg() returns trigger language plpgsql as $$
        begin
          if tg_op = 'DELETE' then perform edge_next_version(); return old; end if;
          new.edge_version := edge_next_version();
          return new;
        end $$`.execute(db);
      await sql`create trigger edge_buckets_ins before insert on buckets for each row execute function edge_buckets_trg()`.execute(db);
      await sql`create trigger edge_buckets_upd before update of name, kind, status, owner_id on buckets for each row execute function edge_buckets_trg()`.execute(db);
      await sql`create trigger edge_buckets_del after delete on buckets for each row execute function edge_buckets_trg()`.execute(db);

      // settings: the row keeps its own version, and its service takes the same
      await sql`create function edge_settings_trg() returns trigger language plpgsql as $$
        begin
          if tg_op = 'DELETE' then perform edge_touch_bucket(old.bucket_id); return old; end if;
          new.edge_version := edge_next_version();
          update buckets set edge_version = new.edge_version where id = new.bucket_id;
          return new;
        end $$`.execute(db);
      await sql`create trigger edge_settings_w before insert or update on service_settings for each row execute function edge_settings_trg()`.execute(db);
      await sql`create trigger edge_settings_del after delete on service_settings for each row execute function edge_settings_trg()`.execute(db);

      // tables that name their service directly
      await sql`create function edge_by_bucket_trg() returns trigger language plpgsql as $$
        begin
          if tg_op in ('UPDATE', 'DELETE') then perform edge_touch_bucket(old.bucket_id); end if;
          if tg_op in ('INSERT', 'UPDATE') then perform edge_touch_bucket(new.bucket_id); end if;
          return null;
        end $$`.execute(db);
      await sql`create trigger edge_domains_trg after insert or update or delete on bucket_domains for each row execute function edge_by_bucket_trg()`.execute(db);
      await sql`create trigger edge_rules_trg after insert or update or delete on edge_rules for each row execute function edge_by_bucket_trg()`.execute(db);
      await sql`create trigger edge_cost_ins after insert on cost_control_state for each row execute function edge_by_bucket_trg()`.execute(db);
      await sql`create trigger edge_cost_upd after update of paused on cost_control_state for each row when (old.paused is distinct from new.paused) execute function edge_by_bucket_trg()`.execute(db);

      // HTTPS of a domain, and a certificate's content (renewals) for every domain bound to it
      await sql`create function edge_domain_https_trg() returns trigger language plpgsql as $$
        begin
          perform edge_touch_bucket(d.bucket_id) from bucket_domains d where d.id = coalesce(new.domain_id, old.domain_id);
          return null;
        end $$`.execute(db);
      await sql`create trigger edge_domain_https after insert or update or delete on domain_https for each row execute function edge_domain_https_trg()`.execute(db);
      await sql`create function edge_certificates_trg() returns trigger language plpgsql as $$
        begin
          perform edge_touch_bucket(d.bucket_id) from bucket_domains d join domain_https h on h.domain_id = d.id where h.certificate_id = new.id;
          return null;
        end $$`.execute(db);
      await sql`create trigger edge_certificates after update of certificate, private_key on certificates for each row execute function edge_certificates_trg()`.execute(db);
    },
  },

  /**
   * Versions without a line (docs/edge.md "Versions", docs/performance.md "The save's ceiling"). Until
   * now every change moved one counter row and held it until its commit: every save of every service
   * waited for the one before it to reach the disk (about 450 saves a second on this machine's
   * PostgreSQL). Now a change's version is its own transaction id (`xid_base + pg_current_xact_id()`),
   * which no other writer waits for, and each transaction that changes the edge leaves one row in
   * `edge_changes`. The version a node is given is the newest change older than every transaction still
   * running (`pg_snapshot_xmin`): those have all finished, and any change made later carries a larger id,
   * so "a node that has read version V has seen every change up to V" still holds. A transaction that has
   * committed but sits above a running one is answered too (it is visible) and again the next time, until
   * the running one ends: a service is then sent twice, never missed.
   *
   * `xid_base` puts the new versions above every version the counter handed out (nodes keep theirs).
   */
  '0102_edge_versions_by_transaction': {
    async up(db: Kysely<any>) {
      await sql`alter table edge_config add column xid_base bigint not null default 0`.execute(db);
      await sql`update edge_config set xid_base = version + 1 - pg_current_xact_id()::text::bigint where id = 1`.execute(db);
      await sql`create table edge_changes (version bigint primary key)`.execute(db);
      await sql`create function edge_version_now() returns bigint language sql as $$
        select xid_base + pg_current_xact_id()::text::bigint from edge_config where id = 1 $$`.execute(db);
      await sql`create or replace function edge_next_version() returns bigint language plpgsql as $$
        declare v bigint := edge_version_now();
        begin
          insert into edge_changes (version) values (v) on conflict do nothing;
          return v;
        end $$`.execute(db);
      await sql`create function edge_current_version() returns bigint language sql stable as $$
        select coalesce(max(c.version), 0) from edge_changes c, edge_config e
         where e.id = 1 and c.version < e.xid_base + pg_snapshot_xmin(pg_current_snapshot())::text::bigint $$`.execute(db);
      // the counter's last value is where the versions stand now
      await sql`insert into edge_changes (version) select version from edge_config where id = 1`.execute(db);
    },
  },

  /**
   * Nodes woken by the database (docs/edge.md "How it scales"): the first change of a transaction (the one
   * that adds its `edge_changes` row) also sends `pg_notify('edge_config', version)`, which PostgreSQL
   * delivers at the commit (and never for a rolled-back transaction). Each server process LISTENs on one
   * connection and wakes its waiting long polls (./wake.ts) instead of asking for the version every 50 ms.
   */
  '0105_edge_config_notify': {
    async up(db: Kysely<any>) {
      await sql`create or replace function edge_next_version() returns bigint language plpgsql as $$
        declare v bigint := edge_version_now();
        begin
          insert into edge_changes (version) values (v) on conflict do nothing;
          if found then perform pg_notify('edge_config', v::text); end if;
          return v;
        end $$`.execute(db);
    },
  },

  /**
   * A transaction that changes one service many times (the scale seed's 100,000 services with their domains
   * and settings, a save that writes several rows) moved the service's row once per change, each a new row
   * version with the same value: the touch now leaves a service that already carries this transaction's
   * version alone. A service's version is unchanged by it (it was this transaction's already). With 100,000
   * services the seed's domains and settings took about half the time (docs/edge.md "How it scales").
   */
  '0106_edge_touch_once_per_transaction': {
    async up(db: Kysely<any>) {
      await sql`create or replace function edge_touch_bucket(b integer) returns void language sql as $$
        update buckets set edge_version = edge_next_version() where id = b and edge_version is distinct from edge_version_now() $$`.execute(db);
      await sql`create or replace function edge_settings_trg() returns trigger language plpgsql as $$
        begin
          if tg_op = 'DELETE' then perform edge_touch_bucket(old.bucket_id); return old; end if;
          new.edge_version := edge_next_version();
          update buckets set edge_version = new.edge_version where id = new.bucket_id and edge_version is distinct from new.edge_version;
          return new;
        end $$`.execute(db);
    },
  },
};
