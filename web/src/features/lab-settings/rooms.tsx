import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../../api/client';
import { BenchForm } from '../../forms/bench-form';
import { bindFields, TextField } from '../../forms/fields';
import { useApiForm, useFormValues } from '../../forms/form';
import { usePagedList } from '../../ui/paged';
import { Chip } from '../../ui/parts';
import { EditAndArchive, SettingsList } from './list-screen';
import { useCanChange } from './parts';
import { strings } from './strings';

type Room = Schemas['Room'];
const s = strings.rooms;

/** The lab's rooms to set up: a new one, a new name, archived and back. */
export default function RoomSettings() {
  const canChange = useCanChange();
  const [archived, setArchived] = useState(false);
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
    <SettingsList
      words={s}
      canChange={canChange}
      list={list}
      newForm={(added, cancel) => (
        <NewRoom onCancel={cancel} onAdded={(room) => added(room, s.added(room.name))} />
      )}
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
    >
      <label class="choice">
        <input
          type="checkbox"
          checked={archived}
          onChange={(event) => setArchived(event.currentTarget.checked)}
        />
        {s.showArchived}
      </label>
    </SettingsList>
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
      {props.canChange && !renaming && (
        <EditAndArchive
          name={room.name}
          archived={room.archived_at !== null}
          words={{
            edit: s.rename,
            archive: s.archive,
            restore: s.restore,
            question: s.archiveQuestion(room.name),
            yes: s.archiveYes,
          }}
          onEdit={() => setRenaming(true)}
          send={(key) =>
            call(
              api.PATCH('/api/v1/rooms/{id}', {
                params: { path: { id: room.id }, header: { 'idempotency-key': key } },
                body: { archived: room.archived_at === null },
              }),
            )
          }
          onChange={props.onChange}
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
