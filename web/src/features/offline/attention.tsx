import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { BenchForm } from '../../forms/bench-form';
import { bindFields, TextAreaField, TextField } from '../../forms/fields';
import { useApiForm, useFormValues } from '../../forms/form';
import { Confirm } from '../../ui/list';
import { Notice, ScreenHeader } from '../../ui/parts';
import { useTitle } from '../../ui/title';
import { words } from '../../ui/words';
import { told } from '../../offline/queue-send';
import { removeAttention, type QueuedWrite } from '../../offline/queue-store';
import { strings } from './strings';
import { describe, timeOf, useQueue } from './waiting';

const s = strings.attention;

/** Body members a person can correct in a text field; the rest go as they were. */
const LONG = ['body', 'notes', 'description'];
const editable = (body: Record<string, unknown>) =>
  Object.keys(body).filter(
    (name) => name !== 'image_base64' && ['string', 'number'].includes(typeof body[name]),
  );

async function forget(write: QueuedWrite): Promise<void> {
  await removeAttention(write.seq);
  told();
}

/** The refused write sent again as corrected: same operation, a new Idempotency-Key. */
function sendAgain(write: QueuedWrite, body: Record<string, unknown>, key: string) {
  const init = {
    params: { path: write.params, header: { 'idempotency-key': key } },
    body,
  } as never;
  const path = write.path as never;
  return call<unknown>(write.method === 'PATCH' ? api.PATCH(path, init) : api.POST(path, init));
}

/** The form of a refused write, holding what was sent, the API's words beside its field. */
function FixForm(props: {
  write: QueuedWrite;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const sent = (props.write.body ?? {}) as Record<string, unknown>;
  const names = editable(sent);
  const values = useFormValues<string>(
    Object.fromEntries(names.map((n) => [n, String(sent[n] as string | number)])),
  );
  const corrected = () => ({
    ...sent,
    ...Object.fromEntries(
      names.map((n) => [n, typeof sent[n] === 'number' ? Number(values.now[n]) : values.now[n]]),
    ),
  });
  const done = (message: string) => () =>
    void forget(props.write).then(() => props.onDone(message));
  const form = useApiForm({
    fields: names,
    send: (key) => sendAgain(props.write, corrected(), key),
    onSuccess: done(s.sent),
    onQueued: done(strings.waitingToSend),
  });
  const field = bindFields(form, values);
  return (
    <BenchForm
      noValidate
      title={`${s.fix}: ${describe(props.write)}`}
      save={s.send}
      form={form}
      onCancel={props.onCancel}
    >
      {names.map((name) =>
        LONG.includes(name) ? (
          <TextAreaField
            key={name}
            {...field.text(name)}
            value={values.now[name] ?? ''}
            label={words(name)}
          />
        ) : (
          <TextField
            key={name}
            {...field.text(name)}
            value={values.now[name] ?? ''}
            label={words(name)}
          />
        ),
      )}
    </BenchForm>
  );
}

function Refused(props: { write: QueuedWrite; onDone: (message: string) => void }) {
  const { write } = props;
  const [fixing, setFixing] = useState(false);
  const [dropping, setDropping] = useState(false);
  return (
    <li class="panel attention-item">
      <h2>{describe(write)}</h2>
      <p class="muted small">
        <time dateTime={write.doneAt}>{strings.doneAt(timeOf(write.doneAt))}</time>
        {write.record !== null && (
          <>
            {' · '}
            <a href={write.record}>{s.record}</a>
          </>
        )}
      </p>
      <p>
        <strong>{s.refused}:</strong> {write.refusal?.error}
      </p>
      {fixing ? (
        <FixForm write={write} onDone={props.onDone} onCancel={() => setFixing(false)} />
      ) : dropping ? (
        <Confirm
          label={s.drop}
          question={s.dropQuestion}
          yes={s.dropYes}
          no={s.dropNo}
          busy={false}
          focus
          onYes={() => void forget(write).then(() => props.onDone(s.dropped))}
          onNo={() => setDropping(false)}
        />
      ) : (
        <div class="actions">
          <button type="button" class="button button-primary" onClick={() => setFixing(true)}>
            {s.fix}
          </button>
          <button type="button" class="button button-quiet" onClick={() => setDropping(true)}>
            {s.drop}
          </button>
        </div>
      )}
    </li>
  );
}

/** "Needs your attention": the work done on this device that the server refused. */
export default function Attention() {
  useTitle(s.title);
  const { attention } = useQueue();
  const [said, setSaid] = useState<string | null>(null);
  return (
    <>
      <ScreenHeader title={s.title} lead={s.lead} />
      <p class="record-done" role="status">
        {said}
      </p>
      {attention.length === 0 ? (
        <Notice>{s.empty}</Notice>
      ) : (
        <ul class="attention-list">
          {attention.map((write) => (
            <Refused key={write.seq} write={write} onDone={setSaid} />
          ))}
        </ul>
      )}
    </>
  );
}
