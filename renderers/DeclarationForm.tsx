/**
 * A declaration rendered by the engine the way every dialog of the console uses it: no submit button
 * of its own (the dialog has 确定), live validation with the declaration's Chinese messages, server
 * refusals shown under their fields. `formRef` gives the caller `validateForm()`.
 */
import { useCallback, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import { createRoot } from 'react-dom/client';
import type { IChangeEvent } from '@rjsf/core';
import type { FieldError } from '../src/shared/errors';
import { collapseLines, ThemedForm, transformErrors, validatorFor, type RulesValidate } from './theme';
import { toErrorSchema } from './errorSchema';
import { benchTimings } from './timing';

export interface DeclarationFormProps {
  schema: object;
  ui?: Record<string, unknown>;
  formData: unknown;
  onChange(formData: any, event: IChangeEvent): void;
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
    context: (formContext: unknown) => (enabled && !touched.all ? { ...(formContext as object), touched: touched.ids } : formContext),
  };
}

export function DeclarationForm({ schema, ui = {}, formData, onChange, errors, formContext, formRef, rules, idPrefix, errorsAfterTouch }: DeclarationFormProps) {
  // a declaration asks for it in its UI schema: "ui:options": { "errorsAfterTouch": true }
  const afterTouch = errorsAfterTouch ?? Boolean((ui['ui:options'] as { errorsAfterTouch?: boolean } | undefined)?.errorsAfterTouch);
  const touched = useTouched(afterTouch, formRef);
  return (
    <ThemedForm
      ref={touched.ref}
      tagName="div"
      idPrefix={idPrefix}
      schema={schema}
      uiSchema={{ ...ui, 'ui:submitButtonOptions': { norender: true } }}
      formData={formData}
      formContext={touched.context(formContext)}
      onBlur={touched.onTouch}
      validator={validatorFor(schema)}
      liveValidate="onChange"
      showErrorList={false}
      noHtml5Validate
      transformErrors={transformErrors}
      customValidate={rules ? rulesValidate(rules, ui) : undefined}
      extraErrors={errors?.length ? toErrorSchema(errors) : undefined}
      onChange={(e: IChangeEvent, id?: string) => {
        if (id) touched.onTouch(id);
        onChange(e.formData, e);
      }}
      onError={() => undefined}
    />
  );
}

/** A declaration of the bench's own, kept in its state as a dialog keeps its form's value. */
function BenchForm({ formData, ...props }: Omit<DeclarationFormProps, 'onChange'>) {
  const [value, setValue] = useState(formData);
  return <DeclarationForm {...props} formData={value} onChange={setValue} />;
}

/**
 * tests/bench/forms.ts renders a declaration of its own (200 generated fields) with this engine:
 * `window.__formEngine.mount(element, props)`. Installed only when the page asked for the engine's
 * timings (renderers/timing.ts, set by the bench before the console loads); absent for everyone else.
 */
if (benchTimings()) {
  (globalThis as { __formEngine?: unknown }).__formEngine = {
    mount(el: HTMLElement, props: Omit<DeclarationFormProps, 'onChange'>) {
      const root = createRoot(el);
      root.render(<BenchForm {...props} />);
      return () => root.unmount();
    },
  };
}
