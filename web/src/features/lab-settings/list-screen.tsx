import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Answer } from '../../api/client';
import { FormError } from '../../forms/fields';
import { useApiForm } from '../../forms/form';
import { Confirm, PagedRows } from '../../ui/list';
import type { PagedList } from '../../ui/paged';
import { SettingsHeader, Saved } from './parts';
import { strings } from './strings';

/**
 * A lab settings list (rooms, equipment, recipes, SOPs): its header with the "New …"
 * button for who may change it, the new record's form once pressed, what was added,
 * then the rows page by page.
 */
export function SettingsList<T extends { id: string }>(props: {
  words: { title: string; lead: string; add: string; loading: string; empty: string; more: string };
  canChange: boolean;
  list: PagedList<T>;
  /** The new record's form: `added` puts the record first and says `notice`. */
  newForm: (added: (item: T, notice: string) => void, cancel: () => void) => ComponentChildren;
  row: (item: T) => ComponentChildren;
  /** Between the header and the rows (a filter, a rule to know). */
  children?: ComponentChildren;
}) {
  const { words, list } = props;
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <>
      <SettingsHeader title={words.title} lead={words.lead} canChange={props.canChange}>
        {!adding && (
          <button type="button" class="button button-primary" onClick={() => setAdding(true)}>
            {words.add}
          </button>
        )}
      </SettingsHeader>
      {props.children}
      {adding &&
        props.newForm(
          (item, said) => {
            list.upsert(item, true);
            setAdding(false);
            setNotice(said);
          },
          () => setAdding(false),
        )}
      <Saved message={notice} />
      <PagedRows
        list={list}
        loading={words.loading}
        empty={words.empty}
        more={words.more}
        row={props.row}
      />
    </>
  );
}

/**
 * A row's Edit (or Rename) and Archive (or Retire), the latter asked first, and its
 * way back; each button names the record for screen readers.
 */
export function EditAndArchive<T>(props: {
  name: string;
  archived: boolean;
  words: { edit: string; archive: string; restore: string; question: string; yes: string };
  onEdit: () => void;
  /** Archives the record, or brings it back when it is archived. */
  send: (idempotencyKey: string) => Promise<Answer<T>>;
  onChange: (item: T) => void;
}) {
  const { words, name } = props;
  const [confirming, setConfirming] = useState(false);
  const form = useApiForm({
    fields: [],
    send: props.send,
    onSuccess: (changed) => {
      setConfirming(false);
      props.onChange(changed);
    },
  });
  return (
    <>
      {!confirming && (
        <div class="row-actions">
          <button
            type="button"
            class="button"
            aria-label={`${words.edit} ${name}`}
            onClick={props.onEdit}
          >
            {words.edit}
          </button>
          {props.archived ? (
            <button
              type="button"
              class="button"
              aria-label={`${words.restore} ${name}`}
              disabled={form.busy}
              onClick={() => void form.submit()}
            >
              {words.restore}
            </button>
          ) : (
            <button
              type="button"
              class="button button-quiet"
              aria-label={`${words.archive} ${name}`}
              onClick={() => setConfirming(true)}
            >
              {words.archive}
            </button>
          )}
        </div>
      )}
      <FormError message={form.formError} />
      {confirming && (
        <Confirm
          label={`${words.archive} ${name}`}
          question={words.question}
          yes={words.yes}
          no={strings.cancel}
          busy={form.busy}
          tone="primary"
          focus
          onYes={() => void form.submit()}
          onNo={() => setConfirming(false)}
        />
      )}
    </>
  );
}
