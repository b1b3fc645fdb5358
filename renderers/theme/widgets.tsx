/**
 * Widgets of the Blueprint theme. Each reads its options from the UI schema (`ui:options`), so a
 * declaration chooses behaviour without code:
 *   switch      boolean (or two values: onValue/offValue), `inverted` for "disable" flags
 *   number      NumericInput honouring minimum/maximum
 *   select      HTMLSelect of the enum (labels from enumNames or ui:enumNames)
 *   radio       RadioGroup of the enum
 *   checkboxes  a multiple choice of an array of enums
 *   textarea    free text
 *   lines       an array of strings edited one per line
 *   bucket      one of the account's services (ui:options kind, pageSize)
 *   bucketList  several of the account's services of one kind (ui:options kind, pageSize; maxItems caps it)
 */
import { Checkbox, HTMLSelect, Intent, NumericInput, Radio, RadioGroup, Switch, TextArea } from '@blueprintjs/core';
import type { RegistryWidgetsType, WidgetProps } from '@rjsf/utils';
import { enumOptionsDeselectValue, enumOptionsIsSelected, enumOptionsSelectValue } from '@rjsf/utils';
import { BucketPickerWidget } from './BucketPicker';
import { BucketListWidget } from './BucketList';

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
  const enumOptions = options.enumOptions ?? [];
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
  const { id, value, disabled, readonly, onChange, options } = props;
  const enumOptions = options.enumOptions ?? [];
  // ui:enumDisabled (or ui:options.enumDisabled): options shown but not choosable
  const enumDisabled = (options.enumDisabled as unknown[] | undefined) ?? [];
  return (
    <RadioGroup
      name={id}
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
  const enumOptions = options.enumOptions ?? [];
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
  const { id, value, disabled, readonly, onChange, schema, rawErrors = [] } = props;
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
  const { id, value, disabled, readonly, onChange, options, placeholder, rawErrors = [] } = props;
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

/** An array of strings edited as text, one item per line; blank lines are dropped. */
function LinesWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, onChange, options, placeholder, rawErrors = [] } = props;
  const text = Array.isArray(value) ? value.join('\n') : '';
  return (
    <TextArea
      id={id}
      defaultValue={text}
      placeholder={placeholder}
      rows={(options.rows as number) ?? 5}
      fill
      disabled={disabled}
      readOnly={readonly}
      intent={rawErrors.length ? Intent.DANGER : Intent.NONE}
      onChange={(e) =>
        onChange(
          e.target.value
            .split('\n')
            .map((l) => l.trim())
            .filter(Boolean),
        )
      }
    />
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
