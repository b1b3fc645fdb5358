/**
 * The registry: every declaration, compiled once with the project's vocabulary.
 * Built from declarations found on disk (./load.ts, server and tests) or bundled by webpack
 * (renderers/declarations.ts, console); the same class serves both.
 */
import type Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import type { FieldError } from '../src/shared/errors';
import type { ServiceKind } from '../src/shared/services';
import { createAjv, createFirstErrorAjv } from './vocabulary';
import { boundedValidator, type BoundedValidate } from './bounded';
import { ERROR_TEXTS, errorText } from '../src/shared/errors';
import { toFieldErrors } from './errors';
import { defaultsOf } from './defaults';
import { summaryOf } from './summary';
import type { Declaration, RuleContext } from './types';

export type ValidationResult =
  | { ok: true; value: unknown }
  | { ok: false; errors: FieldError[] };

let textCodes: Map<string, number> | undefined;
/** The catalogue code whose text is exactly this message, if any. */
export function codeOfText(message: string): number | undefined {
  textCodes ??= new Map(Object.entries(ERROR_TEXTS).map(([code, text]) => [text, Number(code)]));
  return textCodes.get(message);
}

export class SettingRegistry {
  readonly ajv: Ajv;
  private readonly byId = new Map<string, Declaration>();
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(declarations: Declaration[], ajv: Ajv = createAjv()) {
    this.ajv = ajv;
    for (const d of declarations) {
      if (this.byId.has(d.meta.id)) throw new Error(`duplicate setting id ${d.meta.id}`);
      this.byId.set(d.meta.id, d);
    }
  }

  list(): Declaration[] {
    return [...this.byId.values()].sort((a, b) => (a.meta.order ?? 100) - (b.meta.order ?? 100) || a.meta.id.localeCompare(b.meta.id));
  }

  get(id: string): Declaration | undefined {
    return this.byId.get(id);
  }

  /** The settings shown on one tab family for a service kind, in panel order. */
  forTab(kind: ServiceKind, tab: string): Declaration[] {
    return this.list().filter((d) => d.meta.kinds.includes(kind) && d.meta.tab === tab && !d.meta.partOf);
  }

  /** The settings shown inside the dialog of `id` for a service kind (setting.json "partOf"). */
  partsOf(id: string, kind: ServiceKind): Declaration[] {
    return this.list().filter((d) => d.meta.partOf?.setting === id && d.meta.kinds.includes(kind));
  }

  validator(id: string): ValidateFunction {
    let v = this.validators.get(id);
    if (!v) {
      const d = this.byId.get(id);
      if (!d) throw new Error(`unknown setting ${id}`);
      v = this.ajv.compile(d.schema);
      this.validators.set(id, v);
    }
    return v;
  }

  private bounded = new Map<string, BoundedValidate>();
  private quickAjv: Ajv | null = null;

  /** Schema validation only (what fixtures and the console form check): linear in the payload (./bounded.ts). */
  check(id: string, payload: unknown): FieldError[] {
    let v = this.bounded.get(id);
    if (!v) {
      const d = this.byId.get(id);
      if (!d) throw new Error(`unknown setting ${id}`);
      this.quickAjv ??= createFirstErrorAjv();
      v = boundedValidator(this.quickAjv, this.ajv, d.schema);
      this.bounded.set(id, v);
    }
    return v(payload) ? [] : toFieldErrors(v.errors);
  }

  /** Full validation as the server does it: tidying, schema, then normalisation, then the guard. */
  async validate(id: string, written: unknown, ctx?: RuleContext): Promise<ValidationResult> {
    const d = this.byId.get(id);
    if (!d) throw new Error(`unknown setting ${id}`);
    const payload = d.rules.tidy ? d.rules.tidy(structuredClone(written)) : written;
    const errors = this.check(id, payload);
    // a schema message that is exactly a catalogue text carries its code (a limit such as 21601 缓存规则最多 50 条)
    if (errors.length) return { ok: false, errors: errors.map((e) => (codeOfText(e.message) ? { ...e, code: codeOfText(e.message) } : e)) };
    const value = d.rules.normalize ? d.rules.normalize(structuredClone(payload)) : payload;
    if (d.rules.guard && ctx) {
      const refusals = await d.rules.guard(value, ctx);
      if (refusals && refusals.length) {
        return { ok: false, errors: refusals.map((r) => ({ ...r, message: r.message ?? errorText(r.code) })) };
      }
    }
    return { ok: true, value };
  }

  /** A written payload with the field aliases of setting.json ("fieldAliases") renamed to their fields. */
  unalias(id: string, payload: unknown): unknown {
    const aliases = this.byId.get(id)?.meta.fieldAliases;
    if (!aliases || !payload || typeof payload !== 'object' || Array.isArray(payload)) return payload;
    const out: Record<string, unknown> = { ...(payload as Record<string, unknown>) };
    for (const [alias, field] of Object.entries(aliases)) {
      if (alias in out && !(field in out)) {
        out[field] = out[alias];
        delete out[alias];
      }
    }
    return out;
  }

  defaults(id: string): unknown {
    const d = this.byId.get(id);
    if (!d) throw new Error(`unknown setting ${id}`);
    const value = defaultsOf(d.schema);
    return d.rules.normalize ? d.rules.normalize(value) : value;
  }

  /** The label of a value; `related` holds the values of the settings named in summaryWith, `kind` the service's. */
  summary(id: string, value: unknown, related: Record<string, unknown> = {}, kind?: string) {
    const d = this.byId.get(id);
    return d ? summaryOf(this.ajv, d.meta, value, related, kind) : undefined;
  }

  /** The value a kind of service always has for this setting, if any (setting.json "fixed"). */
  fixedFor(id: string, kind: string): unknown {
    return this.byId.get(id)?.meta.fixed?.[kind];
  }
}
