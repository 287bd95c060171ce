import { useState } from 'preact/hooks';
import { api, call } from '../../../api/client';
import { bindFields, FormError, TextField } from '../../../forms/fields';
import { given, textOf, useApiForm, useFormValues } from '../../../forms/form';
import { TimeAgo } from '../../../ui/parts';
import { useRecordPage } from './context';
import { strings } from '../strings';

/**
 * Archiving a record made by mistake, after a confirmation (POST …/archive), and
 * restoring an archived one (POST …/unarchive). For members whose session may
 * write this kind of record, on their own records (a manager's on any).
 */
export function ArchivePanel(props: { archivedAt: string | null }) {
  const page = useRecordPage();
  const [asked, setAsked] = useState(false);
  const values = useFormValues({ reason: '' });
  const archived = props.archivedAt !== null;
  const form = useApiForm<{ id: string }>({
    fields: values.names,
    send: (key) => {
      const options = {
        params: { path: { id: page.id }, header: { 'idempotency-key': key } },
        body: archived ? {} : given({ reason: textOf(values.now.reason) }),
      };
      if (page.kind === 'plant') {
        return call<{ id: string }>(
          archived
            ? api.POST('/api/v1/plants/{id}/unarchive', options)
            : api.POST('/api/v1/plants/{id}/archive', options),
        );
      }
      return call<{ id: string }>(
        archived
          ? api.POST('/api/v1/explants/{id}/unarchive', options)
          : api.POST('/api/v1/explants/{id}/archive', options),
      );
    },
    onSuccess: () => {
      setAsked(false);
      values.reset();
      page.changed(archived ? strings.done.restored : strings.done.archived);
    },
  });
  const field = bindFields(form, values);
  // Archiving another member's record is for a manager: the page says so by its actions.
  if (!page.can(`write:${page.kind}s`) || !page.mayChange) {
    return archived ? <ArchivedNote at={props.archivedAt} /> : null;
  }
  return (
    <section class="panel record-archive" aria-labelledby="archive-title">
      <h2 id="archive-title">{archived ? strings.archived : strings.archive.title}</h2>
      {archived ? (
        <ArchivedNote at={props.archivedAt} />
      ) : (
        <p>{strings.archive.lead(strings.noun[page.kind])}</p>
      )}
      <FormError message={form.formError} />
      {archived ? (
        <div class="actions">
          <button
            type="button"
            class="button"
            disabled={form.busy}
            onClick={() => void form.submit()}
          >
            {strings.archive.restore}
          </button>
        </div>
      ) : !asked ? (
        <div class="actions">
          <button type="button" class="button button-danger" onClick={() => setAsked(true)}>
            {strings.archive.button}
          </button>
        </div>
      ) : (
        <form
          class="confirm form"
          noValidate
          aria-label={strings.archive.confirm(page.name)}
          onSubmit={(event) => void form.submit(event)}
        >
          <p>
            <strong>{strings.archive.confirm(page.name)}</strong>
          </p>
          <TextField {...field.text('reason')} label={strings.archive.reason} autocomplete="off" />
          <div class="actions">
            <button type="submit" class="button button-danger" disabled={form.busy}>
              {strings.archive.yes}
            </button>
            <button type="button" class="button button-quiet" onClick={() => setAsked(false)}>
              {strings.actions.cancel}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

function ArchivedNote(props: { at: string | null }) {
  return (
    <p class="muted">
      {strings.archivedSince} <TimeAgo at={props.at} />. {strings.archivedNotice}
    </p>
  );
}
