/**
 * A large declaration made of sections, rendered by the engine as one form per section.
 *
 * RJSF derives a form's whole state again on every change: the defaults of every field, the schema
 * resolved for each if/then, the data sanitized for it. On a declaration of 200 fields that is most of a
 * keystroke (tests/bench/forms.ts, docs/performance.md). When a declaration's root is only a list of
 * sections (objects), nothing at the root depends on the data, so each section can be its own engine form:
 * a keystroke derives the state of its section alone, and the sections it did not touch do not render.
 *
 * The page is the one a single form renders (the same markup, ids, messages and order): each section form
 * renders its section without a root of its own (`SECTION_PART` in the form's context, read by the
 * templates), inside the root that this component renders as the root template would. Validation is the
 * whole declaration's, as before — the same validator on the whole value with the rules and the same
 * messages, live from the first change, all of it after `validateForm()` — and each section is handed its
 * part of the errors.
 */
import { forwardRef, memo, useCallback, useImperativeHandle, useMemo, useRef, useState, type ReactNode } from 'react';
import { deepEquals, getUiOptions, orderProperties, validationDataMerge, type ErrorSchema } from '@rjsf/utils';
import type { IChangeEvent } from '@rjsf/core';
import { ThemedForm, transformErrors, type validator as engineValidator } from './theme';
import { FieldErrors, shownErrors, SECTION_PART } from './theme/templates';
import { useEngineData } from './engineData';

/** A declaration of at least this many fields, all in sections, is rendered one form per section. */
export const SECTIONED_FIELDS = 60;

/** Root keywords that change what a form renders or fills in from the data: a root with any stays one form. */
const ROOT_RENDERING = ['if', 'then', 'else', 'allOf', 'anyOf', 'oneOf', 'not', 'dependencies', 'dependentSchemas', 'dependentRequired', 'patternProperties', '$ref', 'propertyNames', 'unevaluatedProperties', 'default'];

/** Root UI options that change how the root renders its sections. */
const ROOT_UI = ['ui:field', 'ui:ObjectFieldTemplate', 'ui:FieldTemplate', 'ui:widget', 'ui:disabled', 'ui:readonly'];

function fieldCount(s: any): number {
  if (!s || typeof s !== 'object') return 0;
  if (s.properties) return Object.values(s.properties).reduce((n: number, p) => n + fieldCount(p), 0);
  return 1;
}

/**
 * The sections of a declaration rendered one form each, in the order the root shows them; null when it is
 * rendered as one form: smaller than `min` fields, a root that is more than its sections (conditions,
 * additional properties, a default, a value of its own), or sections the root's UI hides or draws itself.
 */
export function sectionKeys(schema: any, ui: Record<string, any> | undefined, min = SECTIONED_FIELDS): string[] | null {
  if (!schema || schema.type !== 'object' || !schema.properties) return null;
  if (ROOT_RENDERING.some((k) => k in schema)) return null;
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return null;
  if (ROOT_UI.some((k) => ui?.[k] !== undefined)) return null;
  const keys = Object.keys(schema.properties);
  if (keys.length < 2) return null;
  for (const k of keys) {
    const s = schema.properties[k];
    if (!s || s.type !== 'object' || !s.properties || '$ref' in s) return null;
    if (ui?.[k]?.['ui:options']?.hideWhen || ui?.[k]?.['ui:widget'] === 'hidden') return null;
  }
  if (fieldCount(schema) < min) return null;
  try {
    return orderProperties(keys, ui?.['ui:order'] as string[] | undefined);
  } catch {
    return null;
  }
}

type Validator = typeof engineValidator;
type Validation = Pick<IChangeEvent, 'errors' | 'errorSchema'>;

export interface SectionedFormProps {
  schema: any;
  uiSchema: Record<string, any>;
  formData: any;
  sections: string[];
  formContext: unknown;
  validator: Validator;
  customValidate?: (data: any, handler: any) => any;
  /** The errors given from outside (the server's, a caller's rule): shown as given. */
  extraErrors?: ErrorSchema;
  idPrefix?: string;
  onChange(e: Pick<IChangeEvent, 'formData' | 'errors' | 'errorSchema'>, id?: string): void;
  onBlur(id: string): void;
}

/** `validateForm()`, as RJSF's form has it: validates the whole value, shows every error, true when none. */
export interface SectionedFormHandle {
  validateForm(): boolean;
}

export const SectionedForm = forwardRef<SectionedFormHandle, SectionedFormProps>(function SectionedForm(props, ref) {
  const { schema, uiSchema, formData, sections, formContext, validator, customValidate, extraErrors, idPrefix = 'root', onChange, onBlur } = props;
  // the whole value: the prop, then each section's report on top of it until the caller hands a value back
  const whole = useRef({ given: formData, value: formData });
  if (whole.current.given !== formData) whole.current = { given: formData, value: formData };
  // live validation starts with the first change a person makes, as the single form's `liveValidate`
  const [live, setLive] = useState(false);
  const liveNow = useRef(false);
  // validates a value once: a change validates the value it reports, and the render that follows shows
  // the same value's errors
  const validate = useMemo(() => {
    let last: { data: unknown; result: Validation } | null = null;
    return (data: unknown): Validation => {
      if (last?.data !== data || !last) last = { data, result: validator.validateFormData(data, schema, customValidate as any, transformErrors, uiSchema as any) as Validation };
      return last.result;
    };
  }, [validator, schema, customValidate, uiSchema]);
  const shown = useCallback(
    (v: Validation | null): Validation => {
      const base = v ?? { errors: [], errorSchema: {} };
      return extraErrors ? (validationDataMerge(base, extraErrors) as Validation) : base;
    },
    [extraErrors],
  );
  const errorSchema = useMemo(() => shown(live ? validate(formData) : null).errorSchema, [shown, live, validate, formData]);
  // each section's errors, the same object while they stay the same (a section whose errors and value did
  // not change does not render)
  const kept = useRef(new Map<string, ErrorSchema | undefined>());
  const partErrors = (k: string) => {
    const now = (errorSchema as Record<string, ErrorSchema | undefined>)[k];
    const before = kept.current.get(k);
    if (before === now || deepEquals(before, now)) return before;
    kept.current.set(k, now);
    return now;
  };

  const latest = useRef({ onChange, validate, shown });
  latest.current = { onChange, validate, shown };
  const report = useCallback((key: string, value: unknown, id?: string) => {
    const next = { ...(whole.current.value ?? {}), [key]: value };
    whole.current.value = next;
    if (id && !liveNow.current) {
      liveNow.current = true;
      setLive(true);
    }
    const { onChange, validate, shown } = latest.current;
    const { errors, errorSchema } = shown(liveNow.current ? validate(next) : null);
    onChange({ formData: next, errors, errorSchema }, id);
  }, []);

  useImperativeHandle(
    ref,
    () => ({
      validateForm() {
        liveNow.current = true;
        setLive(true);
        return validate(whole.current.value).errors.length === 0;
      },
    }),
    [validate],
  );

  const context = useMemo(() => ({ ...(formContext as object), [SECTION_PART]: true }), [formContext]);
  // the root as the engine's templates draw it (FieldTemplate, ObjectFieldTemplate), with RJSF's classes
  const rawRootErrors = (errorSchema as { __errors?: string[] }).__errors ?? [];
  const rootErrors = shownErrors(idPrefix, rawRootErrors, formContext);
  const options = getUiOptions(uiSchema);
  const rootClasses = ['rjsf-field', 'rjsf-field-object', ...(rawRootErrors.length ? ['rjsf-field-error'] : []), ...(options.classNames ? [options.classNames] : [])].join(' ');
  return (
    <div className="rjsf" {...FORM_TAG}>
      <div className={`bp-rjsf-group ${rootClasses}`}>
        <fieldset className={'bp-rjsf-root' + (options.inline ? ' bp-rjsf-inline' : '')} id={idPrefix}>
          {sections.map((k) => (
            <SectionPart
              key={k}
              name={k}
              schema={schema}
              ui={uiSchema}
              value={formData?.[k]}
              errors={partErrors(k)}
              context={context}
              validator={validator}
              idPrefix={idPrefix}
              report={report}
              onBlur={onBlur}
            />
          ))}
        </fieldset>
        {rootErrors.length > 0 && <FieldErrors errors={rootErrors as ReactNode[]} id={idPrefix} />}
      </div>
    </div>
  );
});

const NO_SUBMIT = { norender: true };

/** What RJSF's form gives its tag (`noHtml5Validate`), so the page is the same as a single form's. */
const FORM_TAG = { noValidate: true } as object;

/** Renders nothing of its own: a section form's fields go straight into the root this component draws. */
function Part({ children }: { children?: ReactNode }) {
  return <>{children}</>;
}

interface SectionPartProps {
  name: string;
  schema: any;
  ui: Record<string, any>;
  value: unknown;
  errors: ErrorSchema | undefined;
  context: unknown;
  validator: Validator;
  idPrefix: string;
  report(key: string, value: unknown, id?: string): void;
  onBlur(id: string): void;
}

/**
 * One section as an engine form of its own: a root holding only this section (so its fields keep their ids
 * and the section its title and place), the root's definitions for its `$ref`s, no validation of its own.
 */
const SectionPart = memo(function SectionPart({ name, schema, ui, value, errors, context, validator, idPrefix, report, onBlur }: SectionPartProps) {
  const partSchema = useMemo(() => {
    const { properties, required, ...rest } = schema;
    const kept = Object.fromEntries(Object.entries(rest).filter(([k]) => k === 'definitions' || k === '$defs' || k === '$schema'));
    return { ...kept, type: 'object' as const, properties: { [name]: properties[name] }, ...(Array.isArray(required) && required.includes(name) ? { required: [name] } : {}) };
  }, [schema, name]);
  const partUi = useMemo(() => ({ [name]: ui[name] ?? {}, 'ui:submitButtonOptions': NO_SUBMIT }), [ui, name]);
  const extraErrors = useMemo(() => (errors ? ({ [name]: errors } as ErrorSchema) : undefined), [errors, name]);
  // the value the engine reported, handed back as the same object (see engineFormData)
  const reported = useRef<Record<string, unknown> | null>(null);
  const partData = useMemo(() => (reported.current && reported.current[name] === value ? reported.current : { [name]: value }), [value, name]);
  const engine = useEngineData(partData, [partSchema, partUi, context, extraErrors, validator, idPrefix]);
  const { onReport } = engine;
  const onPartChange = useCallback(
    (e: IChangeEvent, id?: string) => {
      const data = e.formData as Record<string, unknown>;
      reported.current = data;
      onReport(data);
      report(name, data?.[name], id);
    },
    [onReport, report, name],
  );
  return (
    <ThemedForm
      tagName={Part}
      idPrefix={idPrefix}
      schema={partSchema}
      uiSchema={partUi}
      formData={engine.formData}
      formContext={context}
      onBlur={onBlur}
      validator={validator}
      showErrorList={false}
      noHtml5Validate
      extraErrors={extraErrors}
      onChange={onPartChange}
    />
  );
});
