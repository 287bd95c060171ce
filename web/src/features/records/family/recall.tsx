import { useState } from 'preact/hooks';
import { useSignedIn } from '../../../api/session';
import { api, call, type Answer } from '../../../api/client';
import type { operations } from '../../../api/schema';
import { BenchForm } from '../../../forms/bench-form';
import { bindFields, inFieldWords, SelectField, TextField } from '../../../forms/fields';
import { useApiForm, useFormValues } from '../../../forms/form';
import { useLoaded } from '../../../ui/answer';
import { recordHref } from '../../../ui/links';
import { Confirm } from '../../../ui/list';
import { words } from '../../../ui/words';
import { useRecordPage } from '../page/context';
import { strings } from '../strings';

type RecallBody = operations['recallExplant']['requestBody']['content']['application/json'];
type Status = NonNullable<RecallBody['status']>;
type RecallResult = { count: number; explant_ids: string[]; dry_run: boolean };

/** The statuses a recall may put cultures in, quarantine first (the usual one). */
const STATUSES: readonly Status[] = [
  'quarantined',
  'discarded',
  'needs_subculture',
  'senescing',
  'retired',
  'lost',
  'active',
  'establishing',
  'growing',
];
/** The cultures a dry run names before the count of the rest. */
const FIRST = 5;
const REASON_MAX = 1000;

/** Whether the signed-in person may recall a family: a manager or above who writes explants. */
export function useMayRecall(): boolean {
  const { can, atLeast } = useSignedIn();
  return can('write:explants') && atLeast('manager');
}

/**
 * A recall of a record's family (POST …/recall), for managers and above (the family
 * part tells a member who may): the status (quarantined unless chosen) and the reason,
 * then a dry run that says how many and which first, then the recall itself once
 * confirmed.
 */
export function RecallPanel() {
  return useMayRecall() ? <RecallForm /> : null;
}

function RecallForm() {
  const page = useRecordPage();
  const s = strings.recall;
  const values = useFormValues({ status: 'quarantined', reason: '' });
  const [preview, setPreview] = useState<RecallResult | null>(null);
  const send = (dryRun: boolean) => (key: string) => {
    const options = {
      params: { path: { id: page.id }, header: { 'idempotency-key': key } },
      body: {
        status: values.now.status as Status,
        reason: values.now.reason.trim(),
        ...(dryRun ? { dry_run: true } : {}),
      },
    };
    return call<RecallResult>(
      page.kind === 'plant'
        ? api.POST('/api/v1/plants/{id}/recall', options)
        : api.POST('/api/v1/explants/{id}/recall', options),
    );
  };
  const check = useApiForm<RecallResult>({
    fields: values.names,
    send: send(true),
    onSuccess: setPreview,
  });
  const recall = useApiForm<RecallResult>({
    fields: values.names,
    send: send(false),
    onSuccess: (done) => {
      const message = s.done(done.count, words(values.now.status));
      setPreview(null);
      values.reset();
      page.changed(message);
    },
  });
  const field = bindFields(check, values);
  // Named apart from the archive form's reason below it (a field's name is its id), the
  // API's words still naming the field by its label.
  const apart = (name: 'status' | 'reason', label: string) => {
    const error = check.errorFor(name);
    return {
      name: `recall-${name}`,
      error: error === null ? null : inFieldWords(error, name, label),
    };
  };
  // A choice changed after the dry run asks for another: what was shown no longer holds.
  const changed = (set: (value: string) => void) => (value: string) => {
    setPreview(null);
    set(value);
  };
  const status = words(values.now.status);
  return (
    <section class="panel record-recall" aria-labelledby="recall-title">
      <h2 id="recall-title">{s.title}</h2>
      <BenchForm
        noValidate
        heading={false}
        title={s.title}
        lead={s.lead[page.kind]}
        save={check.busy ? s.checking : s.check}
        form={check}
      >
        <SelectField
          {...field.select('status')}
          {...apart('status', s.status)}
          onChange={changed(values.set('status'))}
          label={s.status}
          options={STATUSES.map((value) => [value, words(value)] as const)}
        />
        <TextField
          {...field.text('reason')}
          {...apart('reason', s.reason)}
          onInput={(event) => changed(values.set('reason'))(event.currentTarget.value)}
          label={s.reason}
          hint={s.reasonHint}
          autocomplete="off"
          maxLength={REASON_MAX}
        />
      </BenchForm>
      {preview !== null &&
        (preview.count === 0 ? (
          <p class="notice notice-info" role="status">
            {s.preview(0, status)}
          </p>
        ) : (
          <Confirm
            label={s.title}
            question={s.preview(preview.count, status)}
            yes={s.confirm(preview.count)}
            no={s.change}
            busy={recall.busy}
            focus
            onYes={() => void recall.submit()}
            onNo={() => setPreview(null)}
          >
            <FirstOnes ids={preview.explant_ids} />
            {recall.formError && <p class="form-error">{recall.formError}</p>}
          </Confirm>
        ))}
    </section>
  );
}

/** The first cultures a dry run names, by their labels, then how many more. */
function FirstOnes(props: { ids: readonly string[] }) {
  const first = props.ids.slice(0, FIRST);
  const named = useLoaded(
    () =>
      Promise.all(
        first.map((id) =>
          call(api.GET('/api/v1/explants/{id}', { params: { path: { id } } })).then(
            (answer: Answer<{ label: string | null; external_id: string | null }>) =>
              answer.ok ? (answer.data.label ?? answer.data.external_id ?? id) : id,
          ),
        ),
      ),
    [props.ids.join()],
  );
  const rest = props.ids.length - first.length;
  return (
    <>
      <ul class="recall-first">
        {first.map((id, i) => (
          <li key={id}>
            <a href={recordHref.explant(id)}>{named?.[i] ?? '…'}</a>
          </li>
        ))}
      </ul>
      {rest > 0 && <p>{strings.recall.andMore(rest)}</p>}
    </>
  );
}
