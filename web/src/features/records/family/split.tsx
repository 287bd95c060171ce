import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../../../api/client';
import { BenchForm } from '../../../forms/bench-form';
import { inFieldWords, NumberField, TextAreaField, TextField } from '../../../forms/fields';
import { countOf, given, textOf, useApiForm } from '../../../forms/form';
import { useAnswer } from '../../../ui/answer';
import { More } from '../../../ui/parts';
import { MediaBatchField, useBatchOptions } from '../../media/picker';
import { strings as media } from '../../media/strings';
import { useRecordPage } from '../page/context';
import { strings } from '../strings';
import { evenly, type Lineage } from './model';

/** What a split needs of the explant split. */
export interface SplitSource {
  readonly label: string;
  readonly vessels: number;
  readonly plantlets: number | null;
}

interface Daughter {
  label: string;
  vessel_count: string;
  plantlet_count: string;
  /** Its own medium; empty: the one for all. */
  media_batch_id: string;
}

/** The numbers of daughters offered at one tap, as far as the vessels go. */
const CHOICES = [2, 3, 4, 5, 6];
const NOTES_MAX = 5000;
const LABEL_MAX = 200;

/**
 * A subculture that splits the explant into daughter cultures (POST
 * /explants/{id}/split): one tap chooses how many, the vessels (and plantlets, when
 * counted) shared out evenly and each daughter labelled after the parent, numbered
 * after the children it already has; a second tap splits. Each stays editable.
 */
export function SplitForm(props: { source: SplitSource; onCancel: () => void }) {
  const page = useRecordPage();
  const { source } = props;
  const s = strings.split;
  // The daughters it already has: the API numbers new ones after them, and so does the form.
  const children = useAnswer(
    () =>
      call<Lineage>(
        api.GET('/api/v1/explants/{id}/lineage', {
          params: { path: { id: page.id }, query: { direction: 'descendants', depth: 1 } },
        }),
      ),
    [page.id],
  );
  const existing = children?.ok ? children.data.nodes.filter((n) => n.generation === 1).length : 0;
  const [daughters, setDaughters] = useState<Daughter[]>([]);
  const [notes, setNotes] = useState('');
  const [forAll, setForAll] = useState('');
  const batches = useBatchOptions();
  const choose = (n: number) => {
    const vessels = evenly(source.vessels, n);
    const plantlets = source.plantlets === null ? null : evenly(source.plantlets, n);
    setDaughters(
      vessels.map((count, i) => ({
        label: `${source.label}.${existing + i + 1}`,
        vessel_count: String(count),
        plantlet_count: plantlets === null ? '' : String(plantlets[i]),
        media_batch_id: '',
      })),
    );
  };
  const edit = (i: number, field: keyof Daughter) => (value: string) =>
    setDaughters((now) => now.map((d, j) => (j === i ? { ...d, [field]: value } : d)));
  const form = useApiForm<{ daughters: Schemas['Explant'][] }>({
    fields: ['daughters', 'notes'],
    send: (key) =>
      call(
        api.POST('/api/v1/explants/{id}/split', {
          params: { path: { id: page.id }, header: { 'idempotency-key': key } },
          body: {
            daughters: daughters.map((d) => ({
              vessel_count: countOf(d.vessel_count) as number,
              ...given({
                plantlet_count: countOf(d.plantlet_count),
                label: textOf(d.label),
                media_batch_id: d.media_batch_id || forAll || undefined,
              }),
            })),
            ...given({ notes: textOf(notes) }),
          },
        }),
      ),
    onSuccess: (split) =>
      page.saved(s.done(split.daughters.map((d) => d.label ?? d.external_id ?? d.id))),
    onQueued: page.kept,
  });
  const leaving = daughters.reduce((total, d) => total + (countOf(d.vessel_count) ?? 0), 0);
  const error = form.errorFor('daughters');
  return (
    <BenchForm
      noValidate
      title={s.title}
      lead={s.lead(source.vessels, source.label)}
      save={s.save(daughters.length)}
      form={form}
      onCancel={props.onCancel}
    >
      <fieldset class="field split-count">
        <legend>{s.daughters}</legend>
        <div class="count-choices">
          {CHOICES.filter((n) => n <= source.vessels).map((n) => (
            <label key={n} class="count-choice">
              <input
                type="radio"
                name="daughter-count"
                value={n}
                checked={daughters.length === n}
                onChange={() => choose(n)}
              />
              <span>{n}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {daughters.length > 0 && (
        <div class="split-daughters">
          <p class="split-left" aria-live="polite">
            {s.summary(
              daughters.map((d) => d.label),
              daughters.map((d) => countOf(d.vessel_count)),
            )}{' '}
            {s.left(source.vessels - leaving, source.label)}
          </p>
          <MediaBatchField
            name="media_batch_id"
            label={media.picker.forAll}
            value={forAll}
            onChange={setForAll}
            error={null}
            options={batches}
          />
          <More label={s.each} open={error !== null}>
            {daughters.map((d, i) => (
              <fieldset key={i} class="split-daughter">
                <legend>{s.daughter(i + 1)}</legend>
                <TextField
                  name={`daughters-${i}-label`}
                  label={s.label}
                  error={null}
                  value={d.label}
                  onInput={(event) => edit(i, 'label')(event.currentTarget.value)}
                  autocomplete="off"
                  maxLength={LABEL_MAX}
                />
                <NumberField
                  name={`daughters-${i}-vessel_count`}
                  label={s.vessels}
                  error={null}
                  value={d.vessel_count}
                  onInput={edit(i, 'vessel_count')}
                />
                <NumberField
                  name={`daughters-${i}-plantlet_count`}
                  label={s.plantlets}
                  error={null}
                  value={d.plantlet_count}
                  onInput={edit(i, 'plantlet_count')}
                />
                <MediaBatchField
                  name={`daughters-${i}-media_batch_id`}
                  label={media.picker.own}
                  none={media.picker.sameAsAll}
                  value={d.media_batch_id}
                  onChange={edit(i, 'media_batch_id')}
                  error={null}
                  options={batches}
                />
              </fieldset>
            ))}
          </More>
        </div>
      )}
      {error && (
        <p class="field-error" id="daughters-error" role="alert">
          {inFieldWords(error, 'daughters', s.daughtersWord)}
        </p>
      )}
      <More label={s.more} open={form.errorFor('notes') !== null}>
        <TextAreaField
          name="notes"
          label={s.notes}
          hint={s.notesHint}
          error={form.errorFor('notes')}
          value={notes}
          onInput={(event) => setNotes(event.currentTarget.value)}
          maxLength={NOTES_MAX}
        />
      </More>
    </BenchForm>
  );
}
