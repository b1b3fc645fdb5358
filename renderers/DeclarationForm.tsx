/**
 * A declaration rendered by the engine the way every dialog of the console uses it: no submit button
 * of its own (the dialog has 确定), live validation with the declaration's Chinese messages, server
 * refusals shown under their fields. `formRef` gives the caller `validateForm()`.
 */
import { useCallback, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import { createRoot } from 'react-dom/client';
import { deepEquals } from '@rjsf/utils';
import type { IChangeEvent } from '@rjsf/core';
import type { FieldError } from '../src/shared/errors';
import { collapseLines, ThemedForm, transformErrors, validatorFor, type RulesValidate } from './theme';
import { toErrorSchema } from './errorSchema';
import { benchTimings } from './timing';
import { useEngineData } from './engineData';
import { SectionedForm, sectionKeys } from './SectionedForm';

/** What the engine tells its caller of a change. */
export type EngineChange = Pick<IChangeEvent, 'formData' | 'errors' | 'errorSchema'>;

export interface DeclarationFormProps {
  schema: object;
  ui?: Record<string, unknown>;
  formData: unknown;
  /** The value, and the errors the engine shows for it (the schema's, the rules', and `errors`). */
  onChange(formData: any, event: EngineChange): void;
  /** Field errors from the server or a rule, shown under their fields. */
  errors?: FieldError[];
  formContext?: unknown;
  formRef?: Ref<any>;
  /**
   * A declaration's rules that depend on more than the value (e.g. the amount a rebate may not exceed):
   * run in the same validation as the schema, on the same data, so a fast edit never shows a stale
   * result (passed as `errors`, they would arrive one render after the value).
   */
  rules?: (formData: any) => FieldError[];
  /** The prefix of the fields' ids ("root" by default): another form in the same dialog takes its own. */
  idPrefix?: string;
  /**
   * Errors of a field are shown once it was changed or left, or after `validateForm()` (the dialog's
   * 确定) — never on a new, empty item (a rule just added). Default: the UI schema's root
   * `ui:options.errorsAfterTouch`, else shown as soon as the value is invalid.
   */
  errorsAfterTouch?: boolean;
  /**
   * A declaration whose root is only sections is rendered one engine form per section when it is large
   * (renderers/SectionedForm.tsx: `SECTIONED_FIELDS` fields or more); `true` asks for it at any size,
   * `false` never (tests compare the two).
   */
  sections?: boolean;
}

/**
 * Adds rule errors to RJSF's error handler at their JSON pointers (the root when the path is not there).
 * An item of a list edited as lines shows on the list, "第 2 行：…", as the schema's own errors do.
 */
function addRuleErrors(handler: any, errors: FieldError[], ui: Record<string, unknown>) {
  for (const e of errors) {
    const shown = collapseLines({ property: e.path.replace(/\//g, '.'), message: e.message, stack: e.message } as any, ui as any);
    let node = handler;
    for (const part of (shown.property ?? '').split('.').filter(Boolean)) {
      if (!node?.[part]?.addError) break;
      node = node[part];
    }
    node.addError(shown.message);
  }
  return handler;
}

/**
 * The rules as RJSF's `customValidate`, carrying the rules themselves: the engine's validator runs them
 * first and takes RJSF's custom-validation path only when they find something (renderers/theme quietRules).
 */
function rulesValidate(rules: (formData: any) => FieldError[], ui: Record<string, unknown>): RulesValidate {
  return Object.assign((data: unknown, handler: any) => addRuleErrors(handler, rules(data), ui), { rules });
}

/**
 * Which fields were changed or left, for `errorsAfterTouch`: the templates read `formContext.touched`
 * (undefined: every error shows). `validateForm()` through the caller's ref shows them all.
 */
function useTouched(enabled: boolean | undefined, outer: Ref<any> | undefined) {
  const inner = useRef<any>(null);
  const [touched, setTouched] = useState<{ ids: Set<string>; all: boolean }>(() => ({ ids: new Set(), all: false }));
  useImperativeHandle(
    outer,
    () =>
      new Proxy(
        {},
        {
          get(_t, key) {
            if (key === 'validateForm')
              return () => {
                if (enabled) setTouched((t) => (t.all ? t : { ids: t.ids, all: true }));
                return inner.current?.validateForm();
              };
            const v = inner.current?.[key];
            return typeof v === 'function' ? v.bind(inner.current) : v;
          },
        },
      ),
    [enabled],
  );
  const onTouch = useCallback(
    (id: string) => {
      if (!enabled) return;
      setTouched((t) => (t.all || t.ids.has(id) ? t : { ids: new Set(t.ids).add(id), all: false }));
    },
    [enabled],
  );
  const memo = useMemo(() => ({ ref: inner, onTouch }), [onTouch]);
  return {
    ...memo,
    /** The touched fields, or null when every error shows (not asked for, or after `validateForm()`). */
    shown: enabled && !touched.all ? touched.ids : null,
  };
}

/** The previous value while the new one is deeply equal to it (callers often build `ui` or `errors` anew on each render). */
function useStable<T>(value: T): T {
  const kept = useRef(value);
  if (kept.current !== value && !deepEquals(kept.current, value)) kept.current = value;
  return kept.current;
}

const NO_SUBMIT = { norender: true };

export function DeclarationForm({ schema, ui: uiGiven = {}, formData, onChange, errors: errorsGiven, formContext, formRef, rules, idPrefix, errorsAfterTouch, sections: sectioned }: DeclarationFormProps) {
  const ui = useStable(uiGiven);
  const errors = useStable(errorsGiven);
  // a declaration asks for it in its UI schema: "ui:options": { "errorsAfterTouch": true }
  const afterTouch = errorsAfterTouch ?? Boolean((ui['ui:options'] as { errorsAfterTouch?: boolean } | undefined)?.errorsAfterTouch);
  const touched = useTouched(afterTouch, formRef);
  // the form's context with the touched fields; the same object while neither changes
  const context = useMemo(() => (touched.shown ? { ...(formContext as object), touched: touched.shown } : formContext), [formContext, touched.shown]);
  // the same objects from render to render while their sources stay the same, so that the caller's echo
  // can be recognised (useEngineData) and RJSF's deep comparison of its props ends at the first reference
  const uiSchema = useMemo(() => ({ ...ui, 'ui:submitButtonOptions': NO_SUBMIT }), [ui]);
  const customValidate = useMemo(() => (rules ? rulesValidate(rules, ui) : undefined), [rules, ui]);
  const extraErrors = useMemo(() => (errors?.length ? toErrorSchema(errors) : undefined), [errors]);
  const validator = validatorFor(schema);
  const engine = useEngineData(formData, [schema, uiSchema, context, customValidate, extraErrors, validator, idPrefix, touched.onTouch]);
  // the caller's handlers of this render, for the engine's handler that stays the same
  const latest = useRef({ onChange, onTouch: touched.onTouch, onReport: engine.onReport });
  latest.current = { onChange, onTouch: touched.onTouch, onReport: engine.onReport };
  const onEngineChange = useCallback((e: EngineChange, id?: string) => {
    const { onChange, onTouch, onReport } = latest.current;
    if (id) onTouch(id);
    onReport(e.formData);
    onChange(e.formData, e);
  }, []);
  const sections = useMemo(() => (sectioned === false ? null : sectionKeys(schema, uiSchema, sectioned ? 0 : undefined)), [schema, uiSchema, sectioned]);
  if (sections)
    return (
      <SectionedForm
        ref={touched.ref}
        schema={schema}
        uiSchema={uiSchema}
        formData={formData}
        sections={sections}
        formContext={context}
        validator={validator}
        customValidate={customValidate}
        extraErrors={extraErrors}
        idPrefix={idPrefix}
        onChange={onEngineChange}
        onBlur={touched.onTouch}
      />
    );
  return (
    <ThemedForm
      ref={touched.ref}
      tagName="div"
      idPrefix={idPrefix}
      schema={schema}
      uiSchema={uiSchema}
      formData={engine.formData}
      formContext={context}
      onBlur={touched.onTouch}
      validator={validator}
      liveValidate="onChange"
      showErrorList={false}
      noHtml5Validate
      transformErrors={transformErrors}
      customValidate={customValidate}
      extraErrors={extraErrors}
      onChange={onEngineChange}
      onError={ignoreErrors}
    />
  );
}

const ignoreErrors = () => undefined;

/** A declaration of the bench's own, kept in its state as a dialog keeps its form's value (and told to `onChange` if given). */
function BenchForm({ formData, onChange, ...props }: Omit<DeclarationFormProps, 'onChange'> & Partial<Pick<DeclarationFormProps, 'onChange'>>) {
  const [value, setValue] = useState(formData);
  const change = useCallback(
    (v: unknown, e: EngineChange) => {
      setValue(v);
      onChange?.(v, e);
    },
    [onChange],
  );
  return <DeclarationForm {...props} formData={value} onChange={change} />;
}

/**
 * tests/bench/forms.ts renders a declaration of its own (200 generated fields) with this engine, and
 * tests/e2e/form-sections.spec.ts renders it both ways (one form, a form per section):
 * `window.__formEngine.mount(element, props)`. Installed only when the page asked for the engine's
 * timings (renderers/timing.ts, set before the console loads); absent for everyone else.
 */
if (benchTimings()) {
  (globalThis as { __formEngine?: unknown }).__formEngine = {
    mount(el: HTMLElement, props: Omit<DeclarationFormProps, 'onChange'> & Partial<Pick<DeclarationFormProps, 'onChange'>>) {
      const root = createRoot(el);
      root.render(<BenchForm {...props} />);
      return () => root.unmount();
    },
  };
}
