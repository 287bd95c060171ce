import type { Schemas } from '../../api/client';
import { bindFields, DateField, NumberField, SelectField, TextField } from '../../forms/fields';
import type { ApiForm, FormValues } from '../../forms/form';
import { words } from '../../ui/words';
import { strings } from './strings';

/** One of the lab's own fields for a kind of record, as GET /custom-fields defines it. */
export type CustomField = Schemas['CustomFieldLists']['plant'][number];

/** `mother stock id` -> `Mother stock id`, as the form's other labels read. */
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A custom field's name in a form: the API's, so its refusal lands beside it. */
const nameOf = (field: CustomField) => `custom_fields.${field.key}`;

/** The starting values of a form's custom fields (all empty), for `useFormValues`. */
export const emptyCustomValues = (fields: readonly CustomField[]): Record<string, string> =>
  Object.fromEntries(fields.map((field) => [nameOf(field), '']));

/**
 * The `custom_fields` of a request from what the form holds: the empty ones left out,
 * numbers and yes/no as the API takes them. What does not read as a number goes as
 * typed, so the API says in its own words what is wrong with it.
 */
export function customFieldsOf(
  fields: readonly CustomField[],
  values: Readonly<Record<string, string>>,
): Record<string, string | number | boolean> | undefined {
  const entries = fields.flatMap((field): [string, string | number | boolean][] => {
    const text = (values[nameOf(field)] ?? '').trim();
    if (text === '') return [];
    if (field.type === 'number') {
      const number = Number(text);
      return [[field.key, Number.isFinite(number) ? number : text]];
    }
    if (field.type === 'boolean') return [[field.key, text === 'true']];
    return [[field.key, text]];
  });
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}

/** The inputs of the lab's own fields, each by its type, each refusal beside its input. */
export function CustomInputs(props: {
  fields: readonly CustomField[];
  form: ApiForm<unknown>;
  values: FormValues<string>;
}) {
  const bound = bindFields(props.form, props.values);
  // Every name is in the values: they start from the same fields (`emptyCustomValues`).
  const held = (name: string) => ({ ...bound.value(name), value: props.values.now[name] ?? '' });
  const s = strings.customInputs;
  return (
    <>
      {props.fields.map((field) => {
        const name = nameOf(field);
        const label = sentence(words(field.key));
        switch (field.type) {
          case 'number':
            return <NumberField key={name} {...held(name)} label={label} hint={s.number} />;
          case 'date':
            return <DateField key={name} {...held(name)} label={label} />;
          case 'boolean':
          case 'select': {
            const choices: (readonly [string, string])[] =
              field.type === 'boolean'
                ? [
                    ['true', s.yes],
                    ['false', s.no],
                  ]
                : (field.options ?? []).map((option) => [option, option] as const);
            return (
              <SelectField
                key={name}
                {...bound.select(name)}
                value={held(name).value}
                label={label}
                options={[['', s.notSet], ...choices]}
              />
            );
          }
          default:
            return (
              <TextField
                key={name}
                {...bound.text(name)}
                value={held(name).value}
                label={label}
                autocomplete="off"
                maxLength={1000}
              />
            );
        }
      })}
    </>
  );
}
