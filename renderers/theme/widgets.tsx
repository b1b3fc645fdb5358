/**
 * Widgets of the Blueprint theme. Each reads its options from the UI schema (`ui:options`), so a
 * declaration chooses behaviour without code:
 *   switch      boolean (or two values: onValue/offValue), `inverted` for "disable" flags
 *   number      NumericInput honouring minimum/maximum
 *   select      HTMLSelect of the enum (labels from enumNames or ui:enumNames)
 *   radio       RadioGroup of the enum
 *   checkboxes  a multiple choice of an array of enums
 *   textarea    free text
 *   lines       an array of strings edited one per line (importFile: from a text file, with a size cap)
 *   bucket      one of the account's services (ui:options kind, pageSize)
 *   bucketList  several of the account's services of one kind (ui:options kind, pageSize; maxItems caps it)
 */
import { useState } from 'react';
import { Checkbox, FileInput, HTMLSelect, Intent, NumericInput, Radio, RadioGroup, Switch, TextArea } from '@blueprintjs/core';
import type { EnumOptionsType, RegistryWidgetsType, WidgetProps } from '@rjsf/utils';
import { enumOptionsDeselectValue, enumOptionsIsSelected, enumOptionsSelectValue } from '@rjsf/utils';
import { BucketPickerWidget } from './BucketPicker';
import { BucketListWidget } from './BucketList';
import { shownErrors } from './templates';

/**
 * The enum's options with their Chinese labels. RJSF 6 reads only `ui:enumNames`; a declaration that
 * names its values beside the enum in the schema (`enumNames`: third_backup, work_order, monitor_task,
 * purge_url) would show the raw values (bandwidth, gt, 0 …) without this. `ui:enumNames` wins.
 */
export function enumOptionsOf(props: Pick<WidgetProps, 'options' | 'schema'>): EnumOptionsType[] {
  const list = (props.options.enumOptions ?? []) as EnumOptionsType[];
  if (props.options.enumNames) return list;
  const own = props.schema as { enum?: unknown[]; enumNames?: unknown; items?: { enum?: unknown[]; enumNames?: unknown } };
  const source = own.enum ? own : own.items;
  const names = source?.enumNames;
  if (!source?.enum || !Array.isArray(names)) return list;
  return list.map((o) => {
    const name = names[source.enum!.findIndex((v) => v === o.value)];
    return typeof name === 'string' && name ? { ...o, label: name } : o;
  });
}

function SwitchWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, onChange, options, label, schema, uiSchema } = props;
  const onValue = options.onValue ?? true;
  const offValue = options.offValue ?? false;
  const inverted = Boolean(options.inverted);
  const isOn = inverted ? value === onValue || value === true : value === onValue;
  const checked = inverted ? !isOn : isOn;
  const text = (uiSchema?.['ui:title'] as string | undefined) ?? schema.title ?? label;
  return (
    <Switch
      id={id}
      checked={Boolean(checked)}
      disabled={disabled || readonly}
      label={text}
      onChange={(e) => {
        const on = (e.target as HTMLInputElement).checked;
        const logical = inverted ? !on : on;
        onChange(logical ? onValue : offValue);
      }}
    />
  );
}

function CheckboxWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, onChange, label, schema } = props;
  return <Checkbox id={id} checked={Boolean(value)} disabled={disabled || readonly} label={schema.title ?? label} onChange={(e) => onChange((e.target as HTMLInputElement).checked)} />;
}

function CheckboxesWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, onChange, options } = props;
  const enumOptions = enumOptionsOf(props);
  const values = Array.isArray(value) ? value : [];
  return (
    <div id={id} className={`bp-rjsf-checkboxes ${options.inline ? 'inline' : ''}`}>
      {enumOptions.map((o, i) => (
        <Checkbox
          key={String(o.value)}
          id={`${id}-${i}`}
          inline={Boolean(options.inline)}
          label={o.label}
          checked={enumOptionsIsSelected(o.value, values)}
          disabled={disabled || readonly}
          onChange={(e) =>
            onChange((e.target as HTMLInputElement).checked ? enumOptionsSelectValue(i, values, enumOptions) : enumOptionsDeselectValue(i, values, enumOptions))
          }
        />
      ))}
    </div>
  );
}

function RadioWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, onChange, options, label } = props;
  const enumOptions = enumOptionsOf(props);
  // ui:enumDisabled (or ui:options.enumDisabled): options shown but not choosable
  const enumDisabled = (options.enumDisabled as unknown[] | undefined) ?? [];
  return (
    <RadioGroup
      name={id}
      aria-label={label || undefined}
      selectedValue={enumOptions.findIndex((o) => o.value === value)}
      inline={Boolean(options.inline)}
      disabled={disabled || readonly}
      onChange={(e) => onChange(enumOptions[Number((e.target as HTMLInputElement).value)]?.value)}
    >
      {enumOptions.map((o, i) => (
        <Radio key={String(o.value)} label={o.label} value={i} disabled={enumDisabled.includes(o.value)} />
      ))}
    </RadioGroup>
  );
}

function SelectWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, onChange, options, placeholder } = props;
  const enumOptions = enumOptionsOf(props);
  const index = enumOptions.findIndex((o) => o.value === value);
  return (
    <HTMLSelect id={id} value={index < 0 ? '' : String(index)} disabled={disabled || readonly} onChange={(e) => onChange(e.target.value === '' ? undefined : enumOptions[Number(e.target.value)].value)}>
      {index < 0 && <option value="">{placeholder || '请选择'}</option>}
      {enumOptions.map((o, i) => (
        <option key={String(o.value)} value={String(i)}>
          {o.label}
        </option>
      ))}
    </HTMLSelect>
  );
}

function NumberWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, onChange, schema, registry } = props;
  const rawErrors = shownErrors(id, props.rawErrors, registry.formContext);
  return (
    <NumericInput
      id={id}
      value={value === undefined || value === null ? '' : value}
      min={schema.minimum as number | undefined}
      max={schema.maximum as number | undefined}
      disabled={disabled || readonly}
      intent={rawErrors.length ? Intent.DANGER : Intent.NONE}
      clampValueOnBlur={false}
      allowNumericCharactersOnly
      onValueChange={(n, s) => onChange(s === '' ? undefined : Number.isNaN(n) ? s : n)}
    />
  );
}

function TextareaWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, onChange, options, placeholder, registry } = props;
  const rawErrors = shownErrors(id, props.rawErrors, registry.formContext);
  return (
    <TextArea
      id={id}
      value={value ?? ''}
      placeholder={placeholder}
      rows={(options.rows as number) ?? 4}
      fill
      disabled={disabled}
      readOnly={readonly}
      intent={rawErrors.length ? Intent.DANGER : Intent.NONE}
      onChange={(e) => onChange(e.target.value === '' ? options.emptyValue : e.target.value)}
    />
  );
}

/** Lines of a text: trimmed, blank ones dropped. */
function toLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}

/**
 * An array of strings edited as text, one item per line; blank lines are dropped.
 * `importFile: { label, maxBytes, tooLarge }` adds a button that replaces the lines with those of a
 * text file, refusing files over maxBytes with the declaration's own text (ip_antileech: 60 KB).
 */
function LinesWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, onChange, options, placeholder, registry } = props;
  const rawErrors = shownErrors(id, props.rawErrors, registry.formContext);
  const text = Array.isArray(value) ? value.join('\n') : '';
  const importFile = options.importFile as { label: string; maxBytes: number; tooLarge: string } | undefined;
  // ui:options.unique: repeated lines are dropped from the value (the text keeps them while typing)
  const lines = (t: string) => (options.unique ? [...new Set(toLines(t))] : toLines(t));
  // the text area is uncontrolled while typing; an import remounts it with the file's lines
  const [generation, setGeneration] = useState(0);
  const [importError, setImportError] = useState<string | null>(null);
  const onFile = (file: File | undefined) => {
    if (!file || !importFile) return;
    if (file.size > importFile.maxBytes) {
      setImportError(importFile.tooLarge);
      return;
    }
    setImportError(null);
    file.text().then((t) => {
      onChange(lines(t));
      setGeneration((g) => g + 1);
    });
  };
  return (
    <>
      <TextArea
        key={generation}
        id={id}
        defaultValue={text}
        placeholder={placeholder}
        rows={(options.rows as number) ?? 5}
        fill
        disabled={disabled}
        readOnly={readonly}
        intent={rawErrors.length ? Intent.DANGER : Intent.NONE}
        onChange={(e) => onChange(lines(e.target.value))}
      />
      {importFile && !readonly && (
        <div className="bp-rjsf-lines-import">
          <FileInput
            text={importFile.label}
            buttonText="选择文件"
            disabled={disabled}
            inputProps={{ accept: '.txt,.csv,text/plain', id: `${id}__import` }}
            onInputChange={(e) => {
              const input = e.target as HTMLInputElement;
              onFile(input.files?.[0]);
              input.value = '';
            }}
          />
          {importError && (
            <p className="bp-rjsf-error" role="alert">
              {importError}
            </p>
          )}
        </div>
      )}
    </>
  );
}

export const widgets: RegistryWidgetsType = {
  switch: SwitchWidget,
  CheckboxWidget,
  CheckboxesWidget,
  RadioWidget,
  SelectWidget,
  TextareaWidget,
  number: NumberWidget,
  updown: NumberWidget,
  UpDownWidget: NumberWidget,
  lines: LinesWidget,
  bucket: BucketPickerWidget,
  bucketList: BucketListWidget,
};
