import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../../api/client';
import { BenchForm } from '../../forms/bench-form';
import { SelectField, TextAreaField, TextField } from '../../forms/fields';
import { useApiForm } from '../../forms/form';
import { useAnswer } from '../../ui/answer';
import { Notice } from '../../ui/parts';
import { SettingsHeader, Saved, useCanChange } from './parts';
import { strings } from './strings';

type Lists = Schemas['CustomFieldLists'];
type Kind = keyof Lists;
type Definition = Lists[Kind][number];
const KINDS: readonly Kind[] = ['plant', 'explant', 'transfer', 'contamination'];
const s = strings.customFields;
const typeName = (type: string) => s.types.find(([value]) => value === type)?.[1] ?? type;

/** The lab's custom fields of each kind of record: added, changed, removed. */
export default function CustomFieldSettings() {
  const canChange = useCanChange();
  const answer = useAnswer(() => call(api.GET('/api/v1/custom-fields')));
  return (
    <>
      <SettingsHeader title={s.title} lead={s.lead} canChange={canChange} />
      {canChange && <p class="muted">{s.keys}</p>}
      {answer === null && <p>{s.loading}</p>}
      {answer !== null && !answer.ok && <Notice tone="bad">{answer.failure.error}</Notice>}
      {answer?.ok &&
        KINDS.map((kind) =>
          canChange ? (
            <KindForm key={kind} kind={kind} start={answer.data[kind]} />
          ) : (
            <KindView key={kind} kind={kind} fields={answer.data[kind]} />
          ),
        )}
    </>
  );
}

function KindView(props: { kind: Kind; fields: readonly Definition[] }) {
  const id = `fields-${props.kind}`;
  return (
    <section class="panel" aria-labelledby={id}>
      <h2 id={id}>{s.kinds[props.kind]}</h2>
      {props.fields.length === 0 ? (
        <p class="muted">{s.none}</p>
      ) : (
        <ul class="rows">
          {props.fields.map((field) => (
            <li class="row" key={field.key}>
              <div class="row-main">
                <p class="row-title">{field.key}</p>
                <p class="muted small">
                  {typeName(field.type)}
                  {field.options ? ` · ${s.choices(field.options)}` : ''}
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

interface Draft {
  /** Stays the same while the key is typed, so the row keeps its focus. */
  row: number;
  key: string;
  type: string;
  options: string;
}

const draftOf = (field: Definition, row: number): Draft => ({
  row,
  key: field.key,
  type: field.type,
  options: (field.options ?? []).join('\n'),
});

/** A select field's choices, a line each; none left out, for the API to say they are needed. */
function optionsOf(field: Draft): { options?: string[] } {
  const options = field.options
    .split('\n')
    .map((option) => option.trim())
    .filter(Boolean);
  return field.type === 'select' && options.length > 0 ? { options } : {};
}

function KindForm(props: { kind: Kind; start: readonly Definition[] }) {
  const { kind } = props;
  const [fields, setFields] = useState<Draft[]>(() => props.start.map(draftOf));
  const [next, setNext] = useState(props.start.length);
  const [saved, setSaved] = useState<string | null>(null);
  const form = useApiForm({
    fields: [],
    send: (key) =>
      call(
        api.PATCH('/api/v1/custom-fields', {
          params: { header: { 'idempotency-key': key } },
          body: {
            [kind]: fields.map((field) => ({
              key: field.key.trim(),
              type: field.type as 'text',
              ...optionsOf(field),
            })),
          },
        }),
      ),
    onSuccess: (lists) => {
      setFields(lists[kind].map(draftOf));
      setNext(lists[kind].length);
      setSaved(s.saved(s.kinds[kind]!));
    },
  });
  const change = (row: number, changed: Partial<Draft>) => {
    setSaved(null);
    setFields(fields.map((field) => (field.row === row ? { ...field, ...changed } : field)));
  };
  const title = s.kinds[kind]!;
  return (
    <section class="panel" aria-label={title}>
      <BenchForm title={title} save={s.save(title)} form={form}>
        {fields.length === 0 && <p class="muted">{s.none}</p>}
        <ul class="rows">
          {fields.map((field) => {
            const name = (part: string) => `${kind}-${field.row}-${part}`;
            return (
              <li class="stage-edit-row" key={field.row}>
                <div class="field-pair">
                  <TextField
                    name={name('key')}
                    label={s.key}
                    error={null}
                    value={field.key}
                    autocomplete="off"
                    onInput={(event) => change(field.row, { key: event.currentTarget.value })}
                  />
                  <SelectField
                    name={name('type')}
                    label={s.type}
                    error={null}
                    options={s.types}
                    value={field.type}
                    onChange={(type) => change(field.row, { type })}
                  />
                </div>
                {field.type === 'select' && (
                  <TextAreaField
                    name={name('options')}
                    label={s.options}
                    hint={s.optionsHint}
                    error={null}
                    value={field.options}
                    onInput={(event) => change(field.row, { options: event.currentTarget.value })}
                  />
                )}
                <div class="actions">
                  <button
                    type="button"
                    class="button button-quiet"
                    aria-label={`${s.removeShort}: ${field.key || s.newField}`}
                    onClick={() => {
                      setSaved(null);
                      setFields(fields.filter((x) => x.row !== field.row));
                    }}
                  >
                    {s.removeShort}
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
        <div class="actions">
          <button
            type="button"
            class="button"
            onClick={() => {
              setFields([...fields, { row: next, key: '', type: 'text', options: '' }]);
              setNext(next + 1);
            }}
          >
            {s.add}
          </button>
        </div>
        <Saved message={saved} />
      </BenchForm>
    </section>
  );
}
