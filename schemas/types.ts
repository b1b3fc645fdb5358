import type { ServiceKind, TabFamily } from '../src/shared/services';
import type { FieldError } from '../src/shared/errors';

export type JsonSchema = Record<string, unknown>;
export type UiSchema = Record<string, unknown>;

/** One label of a setting's summary: the first entry whose `when` schema the value matches wins. */
export interface SummaryRule {
  when?: JsonSchema;
  label: string;
  intent?: 'success' | 'primary' | 'warning' | 'none';
}

/** setting.json */
export interface SettingMeta {
  id: string;
  title: string;
  kinds: ServiceKind[];
  tab: TabFamily;
  /** Position among the panels of a tab (lower first). */
  order?: number;
  description?: string;
  /** 'dialog': a manage button opens the form; 'switch': one boolean field toggled after a confirmation. */
  panel: 'dialog' | 'switch';
  /** For 'switch' panels: the boolean field toggled. */
  switchField?: string;
  /** Texts of the confirmation before saving, by the new value of the switch. */
  confirm?: { on: string; off: string };
  /** Title of the dialog (defaults to the setting's title). */
  dialogTitle?: string;
  /** Toast shown on success. */
  success: string;
  summary: SummaryRule[];
  /** Help paragraphs under the panel. */
  help?: string[];
  /** A badge after the title, such as "Beta". */
  badge?: string;
}

/** A fixture: a payload, and for invalid ones the messages expected at their paths. */
export interface Fixture {
  file: string;
  description?: string;
  payload: unknown;
  errors?: FieldError[];
}

/** What a context-aware rule may look at besides the payload. */
export interface RuleContext {
  /** Reads another setting's stored (or default) value of the same bucket. */
  read(settingId: string): Promise<unknown>;
  kind: ServiceKind;
}

/** Logic written once beside a schema and run by both the server and the console. */
export interface SettingRules {
  /** Derives fields from others (e.g. status from the number of rules). Pure. */
  normalize?(payload: any): any;
  /** Cross-setting rules; return field errors to refuse the change. */
  guard?(payload: any, ctx: RuleContext): Promise<FieldError[] | null> | FieldError[] | null;
}

export interface Declaration {
  meta: SettingMeta;
  schema: JsonSchema;
  ui: UiSchema;
  rules: SettingRules;
  fixtures?: { valid: Fixture[]; invalid: Fixture[] };
  /** Folder it was loaded from (node side only). */
  dir?: string;
}
