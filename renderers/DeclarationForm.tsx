/**
 * A declaration rendered by the engine the way every dialog of the console uses it: no submit button
 * of its own (the dialog has 确定), live validation with the declaration's Chinese messages, server
 * refusals shown under their fields. `formRef` gives the caller `validateForm()`.
 */
import type { Ref } from 'react';
import type { IChangeEvent } from '@rjsf/core';
import type { FieldError } from '../src/shared/errors';
import { collapseLines, ThemedForm, transformErrors, validatorFor } from './theme';
import { toErrorSchema } from './errorSchema';

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

export function DeclarationForm({ schema, ui = {}, formData, onChange, errors, formContext, formRef, rules }: DeclarationFormProps) {
  return (
    <ThemedForm
      ref={formRef}
      tagName="div"
      schema={schema}
      uiSchema={{ ...ui, 'ui:submitButtonOptions': { norender: true } }}
      formData={formData}
      formContext={formContext}
      validator={validatorFor(schema)}
      liveValidate="onChange"
      showErrorList={false}
      noHtml5Validate
      transformErrors={transformErrors}
      customValidate={rules ? (data: unknown, handler: any) => addRuleErrors(handler, rules(data), ui) : undefined}
      extraErrors={errors?.length ? toErrorSchema(errors) : undefined}
      onChange={(e: IChangeEvent) => onChange(e.formData, e)}
      onError={() => undefined}
    />
  );
}
