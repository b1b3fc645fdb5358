/** DDoS 高防 IP and live service tables (migrations in ./migrations.ts). */
import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { Timestamp } from '../db/schema';

type Json<T extends object> = JSONColumnType<T, T | string, T | string>;

export interface DdosOrdersTable {
  id: Generated<number>;
  account_id: number;
  user_id: number;
  package: string;
  nodes: Json<number[]>;
  months: number;
  price: ColumnType<string, string | number, string | number>;
  /** unpaid | paid */
  status: Generated<string>;
  instance_id: number | null;
  created_at: Timestamp;
  paid_at: Timestamp | null;
}

export interface DdosInstancesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  package: string;
  start_time: Timestamp;
  end_time: Timestamp;
  created_at: Timestamp;
}

export interface DdosIpsTable {
  id: Generated<number>;
  instance_id: number;
  ip: string;
  node_id: number;
  /** normal | cleaning | blackhole */
  status: Generated<string>;
}

export interface DdosL7RulesTable {
  id: Generated<number>;
  instance_id: number;
  /** website | non_website */
  type: string;
  ip: string;
  domain: string | null;
  protocols: Json<string[]>;
  port: number | null;
  origin_port: number | null;
  origins: Json<string[]>;
  cc_level: string | null;
  waf: Generated<boolean>;
  waf_mode: Generated<string>;
  status: Generated<string>;
  created_at: Timestamp;
}

export interface DdosL4RulesTable {
  id: Generated<number>;
  instance_id: number;
  ip: string;
  type: string;
  values: Json<string[]>;
  limit: number | null;
  status: Generated<string>;
  created_at: Timestamp;
}

export interface DdosAttacksTable {
  id: Generated<number>;
  instance_id: number;
  ip: string;
  type: string;
  start_time: Timestamp;
  end_time: Timestamp | null;
  peak_bps: ColumnType<number, number, number>;
  peak_pps: ColumnType<number, number, number>;
}

export interface DdosFlowTable {
  instance_id: number;
  type: number;
  ts: Timestamp;
  value: ColumnType<number, number, number>;
}

export interface LiveServicesTable {
  bucket_id: number;
  /** push (file type) or another transport (ucdn) */
  transport: string;
  suspended: Generated<boolean>;
  suspended_reason: string | null;
  updated_at: Timestamp;
}

declare module '../db/schema' {
  interface Database {
    ddos_orders: DdosOrdersTable;
    ddos_instances: DdosInstancesTable;
    ddos_ips: DdosIpsTable;
    ddos_l7_rules: DdosL7RulesTable;
    ddos_l4_rules: DdosL4RulesTable;
    ddos_attacks: DdosAttacksTable;
    ddos_flow_5m: DdosFlowTable;
    live_services: LiveServicesTable;
  }
}
