/**
 * The balance ledger (docs/billing-money.md "The ledger", issue 19 "The money must add up"): every
 * change of an account's balance is a row of balance_ledger, and the database itself keeps users.money
 * and users.actual_charge equal to the ledger's sums:
 *   - inserting a ledger row applies it to the account (trigger balance_ledger_apply) and records the
 *     balance after it;
 *   - any other change of users.money or users.actual_charge is refused (trigger users_balance_guard);
 *   - an account created with a balance (a test, an import) gets its opening row (users_opening_balance).
 * Name 0016_… (billing's range 0010–0019).
 */
import { type Kysely, type Migration, sql } from 'kysely';

export const ledgerMigrations: Record<string, Migration> = {
  '0016_balance_ledger': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('balance_ledger')
        .addColumn('id', 'bigserial', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        // opening | recharge | gift | bill | payment | refund | adjust (src/shared/billing/ledger.ts)
        .addColumn('kind', 'text', (c) => c.notNull())
        // the change of users.money (yuan) and of its recharged part users.actual_charge
        .addColumn('amount', sql`numeric(14,2)`, (c) => c.notNull())
        .addColumn('recharge', sql`numeric(14,2)`, (c) => c.notNull().defaultTo(0))
        // the balance after the row (written by the trigger)
        .addColumn('balance', sql`numeric(14,2)`, (c) => c.notNull().defaultTo(0))
        .addColumn('recharge_balance', sql`numeric(14,2)`, (c) => c.notNull().defaultTo(0))
        // what caused it: an order number, a bill id …
        .addColumn('ref', 'text')
        .addColumn('memo', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('balance_ledger_account').on('balance_ledger').columns(['account_id', 'created_at', 'id']).execute();
      await db.schema.createIndex('balance_ledger_ref').on('balance_ledger').columns(['kind', 'ref']).execute();
      // the balances held before the ledger existed become opening rows
      await sql`insert into balance_ledger (account_id, kind, amount, recharge, balance, recharge_balance, memo)
        select id, 'opening', money, actual_charge, money, actual_charge, '账本启用时的余额' from users where money <> 0 or actual_charge <> 0`.execute(db);
      await sql`create function balance_ledger_apply() returns trigger language plpgsql as $$
        declare m numeric; a numeric;
        begin
          if coalesce(current_setting('billing.ledger_opening', true), '') = 'on' then
            return new;
          end if;
          perform set_config('billing.ledger', 'on', true);
          update users set money = money + new.amount, actual_charge = actual_charge + new.recharge
            where id = new.account_id returning money, actual_charge into m, a;
          perform set_config('billing.ledger', '', true);
          if m is null then
            raise exception 'balance_ledger: account % does not exist', new.account_id;
          end if;
          new.balance := m;
          new.recharge_balance := a;
          return new;
        end $$`.execute(db);
      await sql`create trigger balance_ledger_apply before insert on balance_ledger for each row execute function balance_ledger_apply()`.execute(db);
      await sql`create function users_balance_guard() returns trigger language plpgsql as $$
        begin
          if (new.money is distinct from old.money or new.actual_charge is distinct from old.actual_charge)
             and coalesce(current_setting('billing.ledger', true), '') <> 'on' then
            raise exception 'users.money and users.actual_charge change only through a balance_ledger row (docs/billing-money.md "The ledger")';
          end if;
          return new;
        end $$`.execute(db);
      await sql`create trigger users_balance_guard before update of money, actual_charge on users for each row execute function users_balance_guard()`.execute(db);
      await sql`create function users_opening_balance() returns trigger language plpgsql as $$
        begin
          if new.money <> 0 or new.actual_charge <> 0 then
            perform set_config('billing.ledger_opening', 'on', true);
            insert into balance_ledger (account_id, kind, amount, recharge, balance, recharge_balance, memo)
              values (new.id, 'opening', new.money, new.actual_charge, new.money, new.actual_charge, '开户时的余额');
            perform set_config('billing.ledger_opening', '', true);
          end if;
          return null;
        end $$`.execute(db);
      await sql`create trigger users_opening_balance after insert on users for each row execute function users_opening_balance()`.execute(db);
    },
  },
};
