/**
 * A declaration rendered by the engine the way every dialog of the console uses it: no submit button
 * of its own (the dialog has 确定), live validation with the declaration's Chinese messages, server
 * refusals shown under their fields. `formRef` gives the caller `validateForm()`.
 */
import type { Ref } from 'react';
import type { IChangeEvent } from '@rjsf/core';
import type { FieldError } from '../src/shared/errors';
import { ThemedForm, transformErrors, validatorFor } from './theme';
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

/** Adds rule errors to RJSF's error handler at their JSON pointers (the root when the path is not there). */
function addRuleErrors(handler: any, errors: FieldError[]) {
  for (const e of errors) {
    let node = handler;
    for (const part of e.path.split('/').filter(Boolean)) {
      if (!node?.[part]?.addError) break;
      node = node[part];
    }
    node.addError(e.message);
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
      customValidate={rules ? (data: unknown, handler: any) => addRuleErrors(handler, rules(data)) : undefined}
      extraErrors={errors?.length ? toErrorSchema(errors) : undefined}
      onChange={(e: IChangeEvent) => onChange(e.formData, e)}
      onError={() => undefined}
    />
  );
}
