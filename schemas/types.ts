import type { ServiceKind, TabFamily } from '../src/shared/services';
import type { FieldError } from '../src/shared/errors';

export type JsonSchema = Record<string, unknown>;
export type UiSchema = Record<string, unknown>;

/** The colours a summary label may take (setting.json `intent`; the settings answers' `summary_intent`). */
export const SUMMARY_INTENTS = ['success', 'primary', 'warning', 'none'] as const;

/** One label of a setting's summary: the first entry whose `when` schema the value matches wins. */
export interface SummaryRule {
  when?: JsonSchema;
  /** Only for these kinds of service (a rule limited to kinds is skipped when the kind is not known). */
  kinds?: ServiceKind[];
  label: string;
  intent?: (typeof SUMMARY_INTENTS)[number];
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
  /**
   * For 'switch' panels: run the rules on the new value before the confirmation, so a refusal (with
   * its link) shows straight away instead of after 确定 (e.g. TLS 1.3 off while the minimum version is TLSv1.3).
   */
  checkBeforeConfirm?: boolean;
  /** Title of the dialog (defaults to the setting's title). */
  dialogTitle?: string;
  /** Toast shown on success. */
  success: string;
  summary: SummaryRule[];
  /** Help paragraphs under the panel; or by service kind, with "default" for the others. */
  help?: string[] | Record<string, string[]>;
  /** A value that is fixed for some kinds (shown, never editable; the server refuses writes with 21207). */
  fixed?: Record<string, unknown>;
  /** Other settings whose values the summary rules see, as "$<id>" properties of the value. */
  summaryWith?: string[];
  /** Reload this panel when one of these settings is saved on the same page. */
  reloadOn?: string[];
  /** Server configuration values the texts may name as {name} (the server sends them as `vars`). */
  serverVars?: string[];
  /** A link under the panel that opens a dialog of notes, shown while `when` matches the value. */
  notes?: { text: string; title: string; paragraphs: string[]; when?: JsonSchema };
  /** Ask before saving when this field changes (e.g. the destination storage of a migration). */
  confirmChange?: { field: string; text: string };
  /** Warnings shown in the dialog while the stored value matches `when` (e.g. an old migration). */
  warnings?: { when: JsonSchema; text: string }[];
  /** Facts about the service shown on the panel, e.g. "storage_used". */
  facts?: ('storage_used')[];
  /** A badge after the title, such as "Beta". */
  badge?: string;
  /**
   * Other names a write may give a field (spec 002 §7 documents some fields under another name, e.g.
   * HTTP/3 `http3_enable` for `enable`): alias → field. The server renames them before validation
   * when the field itself is absent.
   */
  fieldAliases?: Record<string, string>;
  /**
   * Why the setting has no edge.ts (docs/edge.md): what carries it to the edge instead, or why the edge
   * does not apply it. Every setting has one or the other (tests/unit/edge-coverage.test.ts).
   */
  edge?: string;
  /**
   * An account business flag (a boolean of the current user, e.g. smart_compression) without which the
   * panel is not shown and the server refuses the setting's reads and writes (21216).
   */
  accountFlag?: 'smart_compression';
  /** The text shown when a save gets no answer from the server (network or transport failure), instead of the client's own text. */
  networkFailure?: string;
  /**
   * A part of another setting's dialog rather than a panel of its own (Server Push inside the HTTP/2
   * dialog, spec 002 §2): the dialog of `setting` shows this form below its own while the parent's value
   * matches `when`, and saves it with its own API call after the parent's. While hidden, a stored value
   * that differs from `whenHidden` is saved merged with it before the parent (HTTP/2 turned off turns
   * Server Push off first, as its rule requires).
   */
  partOf?: { setting: string; when?: JsonSchema; whenHidden?: Record<string, unknown> };
}

/** A fixture: a payload, and for invalid ones the messages expected at their paths. */
export interface Fixture {
  file: string;
  description?: string;
  payload: unknown;
  errors?: FieldError[];
  /** Forms only: what the form's rules see besides the value (e.g. create or edit). */
  context?: unknown;
}

/** A rule's refusal of a value. */
export type Refusal = Omit<FieldError, 'message'> & { message?: string };

/** What a context-aware rule may look at besides the payload. */
export interface RuleContext {
  /** Reads another setting's stored (or default) value of the same bucket. */
  read(settingId: string): Promise<unknown>;
  kind: ServiceKind;
  /** The service itself. */
  bucketName: string;
  /** Another service of the same account, or null when the account has none of that name. */
  bucket(name: string): Promise<{ kind: ServiceKind } | null>;
  /** The server variables the setting names in setting.json "serverVars" (the GET answer's `vars`), e.g. demo_origin. */
  vars?: Record<string, string>;
}

/** Logic written once beside a schema and run by both the server and the console. */
export interface SettingRules {
  /**
   * Tidies a written payload before the schema sees it (e.g. removes duplicate lines, so a limit
   * counts the distinct ones). Pure; gets anything a client sent, so it returns what it does not
   * understand unchanged.
   */
  tidy?(payload: unknown): unknown;
  /** Derives fields from others (e.g. status from the number of rules). Pure. */
  normalize?(payload: any): any;
  /** Presets the form from the stored value when the dialog opens (console only). Pure. */
  prepare?(value: any, ctx: { bucketName: string; kind: ServiceKind }): any;
  /**
   * Cross-setting rules; return refusals to refuse the change. A refusal names the error code of
   * the catalogue (src/shared/errors.ts), whose text the registry fills in, or its own message.
   * rules.ts imports types only, and at most the project's shared code (src/shared, e.g. the origin
   * address rule of src/shared/origins.ts, which other places use too), so a declaration folder can be
   * copied beside any checkout of the project.
   */
  guard?(payload: any, ctx: RuleContext): Promise<Refusal[] | null> | Refusal[] | null;
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

/**
 * A form under schemas/forms/<id>/ (schema.json, ui.json, optional rules.ts and fixtures/): a
 * declaration that is not a per-service setting, such as the sign-in or sub-account form.
 */
export interface FormDeclaration {
  /** The folder name. */
  id: string;
  schema: JsonSchema;
  ui: UiSchema;
  rules: FormRules;
  fixtures: { valid: Fixture[]; invalid: Fixture[] };
  /** Whether the folder has at least one fixture; the tools check only forms that do (a form opts in with its fixtures). */
  hasFixtures: boolean;
  dir: string;
}

/** What a form's rules.ts may export that the generic tools use; anything else is the form's own. */
export interface FormRules {
  /** Errors of the form's logic for a value the schema accepts (fixtures list them like schema errors). */
  ruleErrors?(value: any, context?: any): FieldError[];
  [name: string]: unknown;
}
