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
import { strings } from './strings';

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
    { href: '/sops', back: strings.sop.back, loading: strings.sop.loading },
  );
  useTitle(sop.record?.title ?? strings.sop.title);
  if (sop.record === null) return sop.fallback;
  const data = sop.record;
  return (
    <>
      {sop.back}
      <ScreenHeader title={data.title} lead={data.description ?? undefined}>
        {data.version ? (
          <Chip tone="ok">{strings.sop.version(data.version.version)}</Chip>
        ) : (
          <Chip tone="off">{strings.sop.noVersion.split(',')[0]}</Chip>
        )}
      </ScreenHeader>
      <p>
        <a href={`/sop-runs?sop_id=${data.id}`}>{strings.sop.runs}</a>
      </p>
      {data.version === null ? (
        <Notice>{strings.sop.noVersion}</Notice>
      ) : (
        <StartRun sopId={data.id} />
      )}
      {data.version && (
        <section aria-labelledby="steps-title">
          <h2 id="steps-title">{strings.sop.steps}</h2>
          <ol class="sop-steps">
            {data.version.steps.map((step) => (
              <li key={step.id}>
                <p>{step.instruction}</p>
                {step.safetyWarning && (
                  <p class="sop-safety">
                    <strong>{strings.sop.safety}:</strong> {step.safetyWarning}
                  </p>
                )}
                {step.notes && <p class="muted">{step.notes}</p>}
                {step.measurements.map((m) => (
                  <p key={m.metric} class="small">
                    {strings.sop.asks}: {m.metric} ({rangeWords(m) ?? m.unit})
                  </p>
                ))}
                {step.estimatedMinutes !== null && (
                  <p class="muted small">{strings.sop.minutes(step.estimatedMinutes)}</p>
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
      <h2 id="start-title">{strings.sop.start}</h2>
      <p class="muted">{strings.sop.startLead}</p>
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
          <legend>{strings.sop.for}</legend>
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
                {strings.sop.kinds[kind]}
              </label>
            ))}
          </div>
        </fieldset>
        {choice !== 'none' &&
          (picked !== null ? (
            <p class="picked">
              {strings.sop.chosen} <strong>{pickedName}</strong>{' '}
              <button type="button" class="button button-quiet" onClick={() => setPicked(null)}>
                {strings.sop.change}
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
            {strings.sop.pick}
          </p>
        )}
        <TextField
          {...field.text('batch_code')}
          label={strings.sop.batch}
          maxLength={120}
          autocomplete="off"
        />
        <div class="actions">
          <button type="submit" class="button button-primary button-large" disabled={form.busy}>
            {strings.sop.startButton}
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
      <label for="record-search">{strings.sop.search[props.kind]}</label>
      <div class="filter-q-input">
        <input
          id="record-search"
          type="search"
          value={text}
          placeholder={strings.sop.searchHint[props.kind]}
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
          {strings.sop.find}
        </button>
      </div>
      {results && !results.ok && <p class="field-error">{results.error}</p>}
      {results?.ok && results.items.length === 0 && <p>{strings.sop.noMatch}</p>}
      {results?.ok && results.items.length > 0 && (
        <ul class="rows" aria-label={strings.sop.search[props.kind]}>
          {results.items.map((item) => (
            <li class="row" key={item.id}>
              <div class="row-main">
                <p class="row-title">{item.name}</p>
              </div>
              <div class="row-status">
                <button
                  type="button"
                  class="button"
                  aria-label={`${strings.sop.choose} ${item.name}`}
                  onClick={() => props.onPick({ kind: props.kind, id: item.id, name: item.name })}
                >
                  {strings.sop.choose}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
