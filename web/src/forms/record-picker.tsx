import { useState } from 'preact/hooks';
import { api, call } from '../api/client';
import { strings } from './strings';

/** A plant or explant a form links to. */
export interface PickedRecord {
  readonly type: 'plant' | 'explant';
  readonly id: string;
  readonly label: string;
}

const LIMIT = 5;

/**
 * Finds a plant or explant by a few letters (the lists' own search) and picks
 * one: a form's optional link to a record. `plants`: plants only (a line).
 */
export function RecordPicker(props: {
  name: string;
  label: string;
  value: PickedRecord | null;
  onChange: (value: PickedRecord | null) => void;
  error: string | null;
  plants?: boolean;
}) {
  const [text, setText] = useState('');
  const [found, setFound] = useState<readonly PickedRecord[] | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `field-${props.name}`;

  const find = async () => {
    const q = text.trim();
    if (q === '') return;
    setBusy(true);
    const [plants, explants] = await Promise.all([
      call(api.GET('/api/v1/plants', { params: { query: { q, limit: LIMIT } } })),
      props.plants
        ? null
        : call(api.GET('/api/v1/explants', { params: { query: { q, limit: LIMIT } } })),
    ]);
    setBusy(false);
    setFound([
      ...(plants.ok
        ? plants.data.map((p) => ({
            type: 'plant' as const,
            id: p.id,
            label: `${p.name} (${p.species})`,
          }))
        : []),
      ...(explants?.ok
        ? explants.data.map((e) => ({
            type: 'explant' as const,
            id: e.id,
            label: e.label ?? e.external_id ?? e.id,
          }))
        : []),
    ]);
  };

  if (props.value !== null) {
    return (
      <div class="field">
        <p class="field-label">{props.label}</p>
        <p>
          {props.plants ? '' : `${strings.picker.linked} ${strings.picker[props.value.type]} `}
          <strong>{props.value.label}</strong>{' '}
          <button type="button" class="button button-quiet" onClick={() => props.onChange(null)}>
            {props.plants ? strings.picker.change : strings.picker.unlink}
          </button>
        </p>
        {props.error && <p class="field-error">{props.error}</p>}
      </div>
    );
  }
  return (
    <div class={props.error ? 'field field-invalid' : 'field'}>
      <label for={id}>{props.label}</label>
      <p class="field-hint" id={`${props.name}-hint`}>
        {strings.picker.hint}
      </p>
      <div class="filter-q-input">
        <input
          id={id}
          type="search"
          value={text}
          autocomplete="off"
          aria-describedby={`${props.name}-hint`}
          onInput={(event) => setText(event.currentTarget.value)}
          onKeyDown={(event) => {
            // Enter finds; it does not submit the whole form.
            if (event.key === 'Enter') {
              event.preventDefault();
              void find();
            }
          }}
        />
        <button type="button" class="button" disabled={busy} onClick={() => void find()}>
          {strings.picker.find}
        </button>
      </div>
      {busy && <p class="muted small">{strings.picker.searching}</p>}
      {found !== null && found.length === 0 && <p class="muted small">{strings.picker.none}</p>}
      {found !== null && found.length > 0 && (
        <ul class="picker-results" aria-label={strings.picker.results}>
          {found.map((record) => (
            <li key={record.id}>
              <button
                type="button"
                class="button button-quiet"
                onClick={() => {
                  props.onChange(record);
                  setFound(null);
                  setText('');
                }}
              >
                {record.label} · {strings.picker[record.type]}
              </button>
            </li>
          ))}
        </ul>
      )}
      {props.error && <p class="field-error">{props.error}</p>}
    </div>
  );
}
