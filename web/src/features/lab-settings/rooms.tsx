import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../../api/client';
import { BenchForm } from '../../forms/bench-form';
import { bindFields, FormError, TextField } from '../../forms/fields';
import { useApiForm, useFormValues } from '../../forms/form';
import { Confirm, PagedRows } from '../../ui/list';
import { usePagedList } from '../../ui/paged';
import { Chip } from '../../ui/parts';
import { SettingsHeader, Saved, useCanChange } from './parts';
import { strings } from './strings';

type Room = Schemas['Room'];
const s = strings.rooms;

/** The lab's rooms to set up: a new one, a new name, archived and back. */
export default function RoomSettings() {
  const canChange = useCanChange();
  const [archived, setArchived] = useState(false);
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const list = usePagedList<Room>(
    (cursor) =>
      call(
        api.GET('/api/v1/rooms', {
          params: {
            query: {
              limit: 50,
              archived: archived ? 'include' : 'exclude',
              ...(cursor ? { cursor } : {}),
            },
          },
        }),
      ),
    [archived],
  );
  return (
    <>
      <SettingsHeader title={s.title} lead={s.lead} canChange={canChange}>
        {!adding && (
          <button type="button" class="button button-primary" onClick={() => setAdding(true)}>
            {s.add}
          </button>
        )}
      </SettingsHeader>
      {adding && (
        <NewRoom
          onCancel={() => setAdding(false)}
          onAdded={(room) => {
            list.upsert(room, true);
            setAdding(false);
            setNotice(s.added(room.name));
          }}
        />
      )}
      <Saved message={notice} />
      <label class="choice">
        <input
          type="checkbox"
          checked={archived}
          onChange={(event) => setArchived(event.currentTarget.checked)}
        />
        {s.showArchived}
      </label>
      <PagedRows
        list={list}
        loading={s.loading}
        empty={s.empty}
        more={s.more}
        row={(room) => (
          <RoomRow
            key={room.id}
            room={room}
            canChange={canChange}
            onChange={(changed) =>
              changed.archived_at !== null && !archived
                ? list.remove(changed.id)
                : list.upsert(changed)
            }
          />
        )}
      />
    </>
  );
}

function NewRoom(props: { onAdded: (room: Room) => void; onCancel: () => void }) {
  const values = useFormValues({ name: '' });
  const form = useApiForm({
    fields: values.names,
    send: (key) =>
      call(
        api.POST('/api/v1/rooms', {
          params: { header: { 'idempotency-key': key } },
          body: { name: values.now.name.trim() },
        }),
      ),
    onSuccess: props.onAdded,
  });
  const field = bindFields(form, values);
  return (
    <BenchForm panel title={s.addTitle} save={s.save} form={form} onCancel={props.onCancel}>
      <TextField
        {...field.text('name')}
        label={s.name}
        required
        autocomplete="off"
        maxLength={200}
      />
    </BenchForm>
  );
}

function RoomRow(props: { room: Room; canChange: boolean; onChange: (room: Room) => void }) {
  const { room } = props;
  const [renaming, setRenaming] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const archive = useApiForm({
    fields: [],
    send: (key) =>
      call(
        api.PATCH('/api/v1/rooms/{id}', {
          params: { path: { id: room.id }, header: { 'idempotency-key': key } },
          body: { archived: room.archived_at === null },
        }),
      ),
    onSuccess: (changed) => {
      setConfirming(false);
      props.onChange(changed);
    },
  });
  const counts = s.counts(room.plant_count, room.explant_count);
  return (
    <li class="row" data-room={room.id}>
      <div class="row-main">
        <p class="row-title">
          <a href={`/rooms/${room.id}`}>{room.name}</a>
        </p>
        {counts && <p class="muted small">{counts}</p>}
      </div>
      <div class="row-status">
        {room.archived_at !== null ? (
          <Chip tone="off">{s.archived}</Chip>
        ) : (
          <Chip tone="ok">{s.inUse}</Chip>
        )}
      </div>
      {props.canChange && !renaming && !confirming && (
        <div class="row-actions">
          <button
            type="button"
            class="button"
            aria-label={`${s.rename} ${room.name}`}
            onClick={() => setRenaming(true)}
          >
            {s.rename}
          </button>
          {room.archived_at === null ? (
            <button
              type="button"
              class="button button-quiet"
              aria-label={`${s.archive} ${room.name}`}
              onClick={() => setConfirming(true)}
            >
              {s.archive}
            </button>
          ) : (
            <button
              type="button"
              class="button"
              aria-label={`${s.restore} ${room.name}`}
              disabled={archive.busy}
              onClick={() => void archive.submit()}
            >
              {s.restore}
            </button>
          )}
        </div>
      )}
      <FormError message={archive.formError} />
      {confirming && (
        <Confirm
          label={`${s.archive} ${room.name}`}
          question={s.archiveQuestion(room.name)}
          yes={s.archiveYes}
          no={strings.cancel}
          busy={archive.busy}
          tone="primary"
          focus
          onYes={() => void archive.submit()}
          onNo={() => setConfirming(false)}
        />
      )}
      {renaming && (
        <div class="row-wide">
          <Rename
            room={room}
            onCancel={() => setRenaming(false)}
            onRenamed={(changed) => {
              setRenaming(false);
              props.onChange(changed);
            }}
          />
        </div>
      )}
    </li>
  );
}

function Rename(props: { room: Room; onRenamed: (room: Room) => void; onCancel: () => void }) {
  const values = useFormValues({ name: props.room.name });
  const form = useApiForm({
    fields: values.names,
    send: (key) =>
      call(
        api.PATCH('/api/v1/rooms/{id}', {
          params: { path: { id: props.room.id }, header: { 'idempotency-key': key } },
          body: { name: values.now.name.trim() },
        }),
      ),
    onSuccess: props.onRenamed,
  });
  const field = bindFields(form, values);
  return (
    <BenchForm
      title={s.renameTitle(props.room.name)}
      heading={false}
      save={s.saveName}
      form={form}
      onCancel={props.onCancel}
    >
      <TextField
        {...field.text('name')}
        label={s.name}
        required
        autocomplete="off"
        maxLength={200}
      />
    </BenchForm>
  );
}
