/**
 * Edge rules as the API sends them (spec 002 §3) and what the evaluator takes and answers.
 */

export type RuleStatus = 'ON' | 'OFF' | 'DEBUG';
export type RuleType = 'general' | 'custom';
export type Operator = 'equal' | 'not_equal' | 'match' | 'not_match';

/** The variables of a general-mode condition; the last four are prefixes joined with a parameter name. */
export const CONDITION_VARIABLES = ['http_uri', 'http_method', 'http_scheme', 'country_code', 'remote_ip'] as const;
export const PREFIXED_VARIABLES = ['http_header_', 'http_args_', 'http_post_', 'http_cookie_'] as const;
export type PlainConditionVariable = (typeof CONDITION_VARIABLES)[number];
export type PrefixedConditionVariable = (typeof PREFIXED_VARIABLES)[number];
export type ConditionVariable = PlainConditionVariable | PrefixedConditionVariable;

export interface Condition {
  /** value: a plain variable, or a prefix followed by the parameter name ("http_header_user-agent"). */
  lvalue: { type: 'variable'; value: string; link?: string };
  rvalue: { type: 'literal'; value: string };
  operator: Operator;
  case_sensitive: boolean;
  /** 'and' for every condition after the first. */
  combination?: 'and';
}

export type ActionType = 'header' | 'movement' | 'uri_rewrite' | 'limit_rate' | 'access_control';

export interface Action {
  type: ActionType;
  /** header: request | response; movement: redirect | errorpage */
  kind?: 'request' | 'response' | 'redirect' | 'errorpage';
  operate?: 'add' | 'delete';
  name?: string;
  value?: string;
  cover?: boolean;
  code?: number;
  capture?: string;
  target?: string;
  newuri?: string;
  /** A number followed by KB or MB ("100KB"). */
  rate?: string;
  after?: string;
}

/** The editable part of a rule: what the editor sends (without bucket_name / rewrite_id). */
export interface EdgeRuleInput {
  describe: string;
  type: RuleType;
  priority: number;
  break: boolean;
  status: RuleStatus;
  ip?: string;
  content?: { conditions: Condition[]; actions: Action[] };
  pattern?: string;
  rule?: string;
}

/** A stored rule as the list call answers it. */
export interface EdgeRule extends EdgeRuleInput {
  rewrite_id: number;
  bucket_name: string;
  created_at: string;
  updated_at: string;
}

/** A rule the evaluator runs: stored or being edited. */
export type RunnableRule = EdgeRuleInput & { rewrite_id?: number };

/** A request described in the tester. Missing parts are empty. */
export interface SampleRequest {
  method?: string;
  scheme?: 'http' | 'https';
  host?: string;
  /** The path; may carry "?query" when `query` is not given. */
  uri: string;
  query?: string;
  /** Request headers; names in any case. */
  headers?: Record<string, string>;
  /** Cookies; read from the Cookie header when not given. */
  cookies?: Record<string, string>;
  /** Form fields; read from an url-encoded body when not given. */
  post?: Record<string, string>;
  body?: string;
  ip?: string;
  /** ISO 3166 code ($_GEOIP_COUNTRY_CODE). */
  country?: string;
  /** Unix seconds ($_TIME); now when absent. */
  time?: number;
}

export interface HeaderChange {
  action: 'add' | 'delete';
  name: string;
  value?: string;
  cover?: boolean;
  /** Priority of the rule that asked for it. */
  priority: number;
  /** false when the edge refuses it (a protected response header); `note` says why. */
  applied: boolean;
  note?: string;
}

export type RuleOutcomeKind =
  | 'matched' // conditions held; its effects happened
  | 'off' // status OFF
  | 'debug_ip' // DEBUG for another IP
  | 'no_match' // the URI extraction pattern did not match
  | 'condition_false' // a $WHEN stopped it
  | 'error' // a runtime error stopped it
  | 'invalid' // the program does not parse
  | 'not_reached'; // an earlier rule ended the set or broke

export interface RuleTrace {
  rewrite_id?: number;
  describe: string;
  priority: number;
  outcome: RuleOutcomeKind;
  /** Chinese detail: the error, what ended the set. */
  detail?: string;
}

export interface MatchedRule {
  rewrite_id?: number;
  describe: string;
  priority: number;
  /** What it did last: redirect, exit, error_page, break, or null. */
  ended?: 'redirect' | 'exit' | 'error_page' | 'break';
}

/** What the edge would do with the request. */
export interface EdgeOutcome {
  /** The answer the edge gives itself (redirect, exit, error page); null: the request goes on to cache or origin. */
  status: number | null;
  location: string | null;
  body: string | null;
  /** The error page whose content is answered ($ERROR_PAGE). */
  error_page: string | null;
  /** The URI (path and query) the request continues with. */
  uri: string;
  rewritten: boolean;
  /** The method sent on ($SET_METHOD). */
  method: string;
  /** The body sent on ($SET_BODY), when changed. */
  request_body: string | null;
  /** Query parameters removed ($DEL_ARG). */
  deleted_args: string[];
  request_headers: HeaderChange[];
  response_headers: HeaderChange[];
  /** Bytes sent before limiting, and bytes per second; null when not limited. */
  limit_rate: { after: number | null; rate: number | null };
  matched: MatchedRule[];
  trace: RuleTrace[];
  notes: string[];
}
