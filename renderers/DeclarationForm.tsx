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
}

export function DeclarationForm({ schema, ui = {}, formData, onChange, errors, formContext, formRef }: DeclarationFormProps) {
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
      extraErrors={errors?.length ? toErrorSchema(errors) : undefined}
      onChange={(e: IChangeEvent) => onChange(e.formData, e)}
      onError={() => undefined}
    />
  );
}
