import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call, type Schemas } from '../../api/client';
import { bindFields, FormError, TextField } from '../../forms/fields';
import { given, textOf, useApiForm, useFormValues } from '../../forms/form';
import { useSignedIn } from '../../api/session';
import { useLoaded } from '../../ui/answer';
import { Chip, Notice, ScreenHeader } from '../../ui/parts';
import { useRecordScreen } from '../../ui/record-screen';
import { useTitle } from '../../ui/title';
import { rangeWords, readRecord, recordName, runHref, type RecordKind } from './model';

const strings = {
  title: 'SOP',
  back: 'All SOPs',
  loading: 'Loading the SOP…',
  version: (n: number) => `Version ${n} in force`,
  noVersion:
    'This SOP has no version in force, so no run can start from it. A version becomes effective through the lab’s import.',
  steps: 'Steps',
  minutes: (n: number) => `about ${n} min`,
  safety: 'Safety',
  asks: 'Record',
  runs: 'Runs of this SOP',
  start: 'Start a run',
  startLead:
    'Choose the plant or explant this run is for, then start. The runner shows one step at a time.',
  for: 'The run is for',
  kinds: { explant: 'An explant', plant: 'A plant', none: 'No record (e.g. media preparation)' },
  search: { explant: 'Find the explant', plant: 'Find the plant' },
  searchHint: { explant: 'Label, batch or code', plant: 'Name, species or code' },
  find: 'Find',
  choose: 'Choose',
  chosen: 'Chosen:',
  change: 'Change',
  noMatch: 'Nothing matches. Try fewer letters.',
  batch: 'Batch code (optional)',
  startButton: 'Start the run',
  pick: 'Choose a record first, or choose “No record”.',
} as const;

type Choice = RecordKind | 'none';
interface Picked {
  kind: RecordKind;
  id: string;
  name: string;
}

export default function SopPage(props: { params?: { id?: string } }) {
  const id = props.params?.id ?? '';
  const sop = useRecordScreen(
    () => call(api.GET('/api/v1/sops/{id}', { params: { path: { id } } })),
    id,
    { href: '/sops', back: strings.back, loading: strings.loading },
  );
  useTitle(sop.record?.title ?? strings.title);
  if (sop.record === null) return sop.fallback;
  const data = sop.record;
  return (
    <>
      {sop.back}
      <ScreenHeader title={data.title} lead={data.description ?? undefined}>
        {data.version ? (
          <Chip tone="ok">{strings.version(data.version.version)}</Chip>
        ) : (
          <Chip tone="off">{strings.noVersion.split(',')[0]}</Chip>
        )}
      </ScreenHeader>
      <p>
        <a href={`/sop-runs?sop_id=${data.id}`}>{strings.runs}</a>
      </p>
      {data.version === null ? <Notice>{strings.noVersion}</Notice> : <StartRun sopId={data.id} />}
      {data.version && (
        <section aria-labelledby="steps-title">
          <h2 id="steps-title">{strings.steps}</h2>
          <ol class="sop-steps">
            {data.version.steps.map((step) => (
              <li key={step.id}>
                <p>{step.instruction}</p>
                {step.safetyWarning && (
                  <p class="sop-safety">
                    <strong>{strings.safety}:</strong> {step.safetyWarning}
                  </p>
                )}
                {step.notes && <p class="muted">{step.notes}</p>}
                {step.measurements.map((m) => (
                  <p key={m.metric} class="small">
                    {strings.asks}: {m.metric} ({rangeWords(m) ?? m.unit})
                  </p>
                ))}
                {step.estimatedMinutes !== null && (
                  <p class="muted small">{strings.minutes(step.estimatedMinutes)}</p>
                )}
              </li>
            ))}
          </ol>
        </section>
      )}
    </>
  );
}

/** Start a run: the record from the address (?plant_id= / ?explant_id=) or found by search. */
function StartRun(props: { sopId: string }) {
  const { query, route } = useLocation();
  const { can } = useSignedIn();
  const fromAddress: Picked | null = query.explant_id
    ? { kind: 'explant', id: query.explant_id, name: '' }
    : query.plant_id
      ? { kind: 'plant', id: query.plant_id, name: '' }
      : null;
  const [choice, setChoice] = useState<Choice>(fromAddress?.kind ?? 'explant');
  const [picked, setPicked] = useState<Picked | null>(fromAddress);
  const values = useFormValues({ batch_code: '' });
  const [missing, setMissing] = useState(false);
  const named = useLoaded(
    () =>
      fromAddress === null
        ? Promise.resolve(null)
        : readRecord(fromAddress.kind, fromAddress.id).then((a) =>
            a.ok ? recordName(fromAddress.kind, a.data) : null,
          ),
    [fromAddress?.id],
  );
  const form = useApiForm<Schemas['SopRun']>({
    fields: [...values.names, 'plant_id', 'explant_id'],
    send: (key) =>
      call(
        api.POST('/api/v1/sop-runs', {
          params: { header: { 'idempotency-key': key } },
          body: {
            sop_id: props.sopId,
            ...given({ batch_code: textOf(values.now.batch_code) }),
            ...(choice !== 'none' && picked !== null ? { [`${picked.kind}_id`]: picked.id } : {}),
          },
        }),
      ),
    onSuccess: (run) => route(runHref(run.id)),
  });
  const field = bindFields(form, values);
  if (!can('write:sop_runs')) return null;
  const pickedName = picked === null ? '' : picked.name || named || picked.id;
  return (
    <section class="panel" aria-labelledby="start-title">
      <h2 id="start-title">{strings.start}</h2>
      <p class="muted">{strings.startLead}</p>
      <form
        class="form"
        aria-labelledby="start-title"
        onSubmit={(event) => {
          event.preventDefault();
          if (choice !== 'none' && picked === null) return setMissing(true);
          void form.submit();
        }}
      >
        <FormError
          message={form.formError ?? form.errorFor('plant_id') ?? form.errorFor('explant_id')}
        />
        <fieldset class="field">
          <legend>{strings.for}</legend>
          <div class="choice-row">
            {(['explant', 'plant', 'none'] as const).map((kind) => (
              <label key={kind} class="choice">
                <input
                  type="radio"
                  name="record-kind"
                  value={kind}
                  checked={choice === kind}
                  onChange={() => {
                    setChoice(kind);
                    setMissing(false);
                    if (picked?.kind !== kind) setPicked(null);
                  }}
                />
                {strings.kinds[kind]}
              </label>
            ))}
          </div>
        </fieldset>
        {choice !== 'none' &&
          (picked !== null ? (
            <p class="picked">
              {strings.chosen} <strong>{pickedName}</strong>{' '}
              <button type="button" class="button button-quiet" onClick={() => setPicked(null)}>
                {strings.change}
              </button>
            </p>
          ) : (
            <RecordSearch
              kind={choice}
              onPick={(p) => {
                setPicked(p);
                setMissing(false);
              }}
            />
          ))}
        {missing && (
          <p class="field-error" role="alert">
            {strings.pick}
          </p>
        )}
        <TextField
          {...field.text('batch_code')}
          label={strings.batch}
          maxLength={120}
          autocomplete="off"
        />
        <div class="actions">
          <button type="submit" class="button button-primary button-large" disabled={form.busy}>
            {strings.startButton}
          </button>
        </div>
      </form>
    </section>
  );
}

/** Finds a plant or explant by the list operations' `q` search. */
function RecordSearch(props: { kind: RecordKind; onPick: (picked: Picked) => void }) {
  const [text, setText] = useState('');
  const [asked, setAsked] = useState<string | null>(null);
  const results = useLoaded(async () => {
    if (asked === null) return null;
    const query = { q: asked, limit: 10 };
    const answer =
      props.kind === 'plant'
        ? await call(api.GET('/api/v1/plants', { params: { query } }))
        : await call(api.GET('/api/v1/explants', { params: { query } }));
    return answer.ok
      ? {
          ok: true as const,
          items: answer.data.map((r) => ({ id: r.id, name: recordName(props.kind, r) })),
        }
      : { ok: false as const, error: answer.failure.error };
  }, [asked, props.kind]);
  const find = () => setAsked(text.trim());
  return (
    <div class="field record-search">
      <label for="record-search">{strings.search[props.kind]}</label>
      <div class="filter-q-input">
        <input
          id="record-search"
          type="search"
          value={text}
          placeholder={strings.searchHint[props.kind]}
          autocomplete="off"
          enterkeyhint="search"
          onInput={(event) => setText(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              find();
            }
          }}
        />
        <button type="button" class="button" onClick={find}>
          {strings.find}
        </button>
      </div>
      {results && !results.ok && <p class="field-error">{results.error}</p>}
      {results?.ok && results.items.length === 0 && <p>{strings.noMatch}</p>}
      {results?.ok && results.items.length > 0 && (
        <ul class="rows" aria-label={strings.search[props.kind]}>
          {results.items.map((item) => (
            <li class="row" key={item.id}>
              <div class="row-main">
                <p class="row-title">{item.name}</p>
              </div>
              <div class="row-status">
                <button
                  type="button"
                  class="button"
                  aria-label={`${strings.choose} ${item.name}`}
                  onClick={() => props.onPick({ kind: props.kind, id: item.id, name: item.name })}
                >
                  {strings.choose}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
