/**
 * RJSF templates on Blueprint 6: how a field, an object, an array and their buttons look.
 * A theme is only this set of templates plus the widgets (./widgets.tsx).
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { Button, Card, FormGroup, H6, Intent } from '@blueprintjs/core';
import {
  getTemplate,
  getUiOptions,
  type ArrayFieldItemTemplateProps,
  type ArrayFieldTemplateProps,
  type DescriptionFieldProps,
  type FieldErrorProps,
  type FieldHelpProps,
  type FieldTemplateProps,
  type IconButtonProps,
  type ObjectFieldTemplateProps,
  type TemplatesType,
  type TitleFieldProps,
  type BaseInputTemplateProps,
} from '@rjsf/utils';
import { InputGroup } from '@blueprintjs/core';

/**
 * The errors of a field as shown: all of them, unless the form shows errors only after a field was
 * touched (DeclarationForm `errorsAfterTouch`, formContext.touched) and this one was not.
 */
export function shownErrors(id: string, rawErrors: unknown[] | undefined, formContext: unknown): string[] {
  const touched = (formContext as { touched?: Set<string> } | undefined)?.touched;
  if (touched && !touched.has(id)) return [];
  return (rawErrors ?? []).filter(Boolean) as string[];
}

/**
 * In the form context of a section rendered as a form of its own (renderers/SectionedForm.tsx): that
 * form's root draws nothing of its own, its section goes into the root the sectioned form draws.
 */
export const SECTION_PART = '__sectionPart';

const isSectionPart = (registry: { formContext?: unknown }) => Boolean((registry.formContext as Record<string, unknown> | undefined)?.[SECTION_PART]);

/** Options a UI schema may give a field: hide it while a sibling has a value. */
export interface HideWhen {
  path: string;
  equals: unknown;
}

function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, rawErrors = [], rawHelp, hidden, required, displayLabel, schema, uiSchema, classNames, registry } = props;
  if (hidden) return <div className="bp-rjsf-hidden">{children}</div>;
  if (props.fieldPathId.path.length === 0 && isSectionPart(registry)) return <>{children}</>;
  const options = getUiOptions(uiSchema);
  const isObjectLike = schema.type === 'object' || (schema.type === 'array' && !options.widget && !(schema.items as any)?.enum);
  const errors = shownErrors(id, rawErrors, registry.formContext);
  if (isObjectLike) {
    return (
      <div className={`bp-rjsf-group ${classNames ?? ''}`}>
        {children}
        {errors.length > 0 && <FieldErrors errors={errors} id={id} />}
      </div>
    );
  }
  // checkboxes and switches carry their own label
  const isBoolean = schema.type === 'boolean' || options.widget === 'switch';
  // a row of radios or checkboxes is a group: its label names the group and its error describes it,
  // where a <label for> would point at no control (issue 24)
  const isGroup = options.widget === 'radio' || options.widget === 'checkboxes';
  const shownLabel = displayLabel && !isBoolean ? label : undefined;
  const content = isGroup ? (
    <div
      role="group"
      className="bp-rjsf-group-controls"
      aria-labelledby={shownLabel ? `${id}__label` : undefined}
      aria-label={shownLabel ? undefined : label || undefined}
      aria-describedby={errors.length ? `${id}__error` : undefined}
    >
      {children}
    </div>
  ) : (
    children
  );
  return (
    <FormGroup
      className={`bp-rjsf-field ${classNames ?? ''}`}
      label={isGroup && shownLabel ? <span id={`${id}__label`}>{shownLabel}</span> : shownLabel}
      labelFor={isGroup ? undefined : id}
      labelInfo={displayLabel && required && !isBoolean ? <span className="bp-rjsf-required">*</span> : undefined}
      intent={errors.length ? Intent.DANGER : Intent.NONE}
      helperText={
        errors.length || rawHelp ? (
          <>
            {errors.length > 0 && <FieldErrors errors={errors} id={id} />}
            {rawHelp && <span className="bp-rjsf-help">{rawHelp}</span>}
          </>
        ) : undefined
      }
    >
      {content}
    </FormGroup>
  );
}

export function FieldErrors({ errors, id }: { errors: ReactNode[]; id: string }) {
  return (
    <span className="bp-rjsf-errors" id={`${id}__error`} role="alert">
      {errors.map((e, i) => (
        <span key={i} className="bp-rjsf-error">
          {e}
        </span>
      ))}
    </span>
  );
}

/** Errors are shown by FieldTemplate next to the field; this one renders nothing. */
function FieldErrorTemplate(_props: FieldErrorProps) {
  return null;
}

function FieldHelpTemplate(_props: FieldHelpProps) {
  return null;
}

function TitleFieldTemplate({ id, title }: TitleFieldProps) {
  return title ? (
    <H6 id={id} className="bp-rjsf-title">
      {title}
    </H6>
  ) : null;
}

function DescriptionFieldTemplate({ id, description }: DescriptionFieldProps) {
  return description ? (
    <p id={id} className="bp-rjsf-description">
      {description}
    </p>
  ) : null;
}

function ObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const { title, description, properties, uiSchema, formData, registry, fieldPathId, schema } = props;
  const options = getUiOptions(uiSchema);
  const TitleField = getTemplate('TitleFieldTemplate', registry, options);
  const DescriptionField = getTemplate('DescriptionFieldTemplate', registry, options);
  const isRoot = fieldPathId.path.length === 0;
  // an item of a list is titled by the list ("规则 1"), not again by its own schema
  const isArrayItem = typeof fieldPathId.path[fieldPathId.path.length - 1] === 'number';
  const visible = properties.filter((p) => {
    const hideWhen = (uiSchema?.[p.name]?.['ui:options'] as { hideWhen?: HideWhen } | undefined)?.hideWhen;
    return !hideWhen || (formData as Record<string, unknown> | undefined)?.[hideWhen.path] !== hideWhen.equals;
  });
  // ui:options.inline: the fields of a group side by side (a row of checkboxes)
  const inline = options.inline ? ' bp-rjsf-inline' : '';
  if (isRoot && isSectionPart(registry)) return <>{visible.map((p) => p.content)}</>;
  return (
    <fieldset className={(isRoot || isArrayItem ? 'bp-rjsf-root' : 'bp-rjsf-object') + inline} id={fieldPathId.$id}>
      {!isRoot && !isArrayItem && title && (
        // the group's name, read with each of its fields
        <legend className="bp-rjsf-legend">
          <TitleField id={`${fieldPathId.$id}__title`} title={title} schema={schema} uiSchema={uiSchema} registry={registry} />
        </legend>
      )}
      {!isRoot && description && <DescriptionField id={`${fieldPathId.$id}__description`} description={description} schema={schema} uiSchema={uiSchema} registry={registry} />}
      {visible.map((p) => p.content)}
    </fieldset>
  );
}

function ArrayFieldTemplate(props: ArrayFieldTemplateProps) {
  const { canAdd, disabled, readonly, items, onAddClick, title, uiSchema, fieldPathId, registry, schema } = props;
  // addAt "top": a new item goes first (error_pages: a new rule is put at the top, spec 002 §4)
  const options = getUiOptions(uiSchema) as { addLabel?: string; emptyText?: string; title?: string; addAt?: 'top' | 'bottom' };
  // the new item takes focus: at the top it would otherwise appear far above the button that added it (issue 24)
  const itemsBox = useRef<HTMLDivElement>(null);
  const added = useRef<number | null>(null);
  useEffect(() => {
    if (added.current === null || items.length <= added.current) return;
    added.current = null;
    const box = itemsBox.current;
    const cards = box ? [...box.querySelectorAll<HTMLElement>('.bp-rjsf-array-item')].filter((c) => c.parentElement?.closest('.bp-rjsf-array-items') === box) : [];
    const card = options.addAt === 'top' ? cards[0] : cards[cards.length - 1];
    card?.querySelector<HTMLElement>('input:not([type="hidden"]):not(:disabled), select:not(:disabled), textarea:not(:disabled)')?.focus();
  }, [items.length, options.addAt]);
  const onAdd = (e: unknown) => {
    added.current = items.length;
    if (options.addAt === 'top') (onAddClick as (e: unknown, index?: number) => void)(e, 0);
    else (onAddClick as (e: unknown) => void)(e);
  };
  const { AddButton } = registry.templates.ButtonTemplates;
  return (
    <fieldset className="bp-rjsf-array" id={fieldPathId.$id}>
      {(options.title || title) && (
        <legend className="bp-rjsf-legend">
          <H6 className="bp-rjsf-title">{options.title || title}</H6>
        </legend>
      )}
      {items.length === 0 && options.emptyText && <p className="bp-rjsf-empty">{options.emptyText}</p>}
      <div className="bp-rjsf-array-items" ref={itemsBox}>
        {items}
      </div>
      {canAdd && (
        <AddButton
          id={`${fieldPathId.$id}__add`}
          className="bp-rjsf-array-add"
          onClick={onAdd}
          disabled={disabled || readonly}
          uiSchema={uiSchema}
          registry={registry}
          title={options.addLabel}
        />
      )}
      {schema.maxItems !== undefined && (
        <span className="bp-rjsf-count">
          {items.length} / {schema.maxItems as number}
        </span>
      )}
    </fieldset>
  );
}

function ArrayFieldItemTemplate(props: ArrayFieldItemTemplateProps) {
  const { children, buttonsProps, hasToolbar, registry, uiSchema, index } = props;
  const ArrayFieldItemButtonsTemplate = getTemplate('ArrayFieldItemButtonsTemplate', registry, getUiOptions(uiSchema));
  return (
    <Card className="bp-rjsf-array-item" compact data-index={index}>
      <div className="bp-rjsf-array-item-head">
        <span className="bp-rjsf-array-item-no">规则 {index + 1}</span>
        {hasToolbar && (
          <span className="bp-rjsf-array-item-tools">
            <ArrayFieldItemButtonsTemplate {...buttonsProps} />
          </span>
        )}
      </div>
      {children}
    </Card>
  );
}

function iconButton(icon: 'add' | 'trash' | 'arrow-up' | 'arrow-down' | 'duplicate' | 'cross', text: string, intent?: Intent) {
  return function IconButton(props: IconButtonProps) {
    const { onClick, disabled, id, className, title } = props;
    return (
      <Button
        id={id}
        className={className}
        icon={icon}
        size="small"
        variant={icon === 'add' ? 'outlined' : 'minimal'}
        intent={intent}
        disabled={disabled}
        onClick={onClick as any}
        aria-label={title ?? text}
        title={title ?? text}
        text={icon === 'add' ? (title ?? text) : undefined}
      />
    );
  };
}

function BaseInputTemplate(props: BaseInputTemplateProps) {
  const { id, value, readonly, disabled, autofocus, onBlur, onFocus, onChange, options, schema, type, placeholder, htmlName, registry } = props;
  const rawErrors = shownErrors(id, props.rawErrors, registry.formContext);
  const inputType = type === 'number' || type === 'integer' ? 'number' : (type ?? 'text');
  return (
    <InputGroup
      id={id}
      name={htmlName ?? id}
      type={inputType}
      value={value === undefined || value === null ? '' : String(value)}
      placeholder={placeholder}
      readOnly={readonly}
      disabled={disabled}
      autoFocus={autofocus}
      maxLength={schema.maxLength as number | undefined}
      intent={rawErrors.length ? Intent.DANGER : Intent.NONE}
      onChange={(e) => onChange(e.target.value === '' ? options.emptyValue : e.target.value)}
      onBlur={(e) => onBlur(id, e.target.value)}
      onFocus={(e) => onFocus(id, e.target.value)}
      aria-invalid={rawErrors.length > 0}
      aria-describedby={rawErrors.length ? `${id}__error` : undefined}
    />
  );
}

export const templates: Partial<TemplatesType> = {
  FieldTemplate,
  FieldErrorTemplate,
  FieldHelpTemplate,
  TitleFieldTemplate,
  DescriptionFieldTemplate,
  ObjectFieldTemplate,
  ArrayFieldTemplate,
  ArrayFieldItemTemplate,
  BaseInputTemplate,
  ErrorListTemplate: () => null,
  ButtonTemplates: {
    AddButton: iconButton('add', '添加'),
    RemoveButton: iconButton('trash', '删除', Intent.DANGER),
    MoveUpButton: iconButton('arrow-up', '上移'),
    MoveDownButton: iconButton('arrow-down', '下移'),
    CopyButton: iconButton('duplicate', '复制'),
    ClearButton: iconButton('cross', '清空'),
    SubmitButton: () => null,
  },
};
