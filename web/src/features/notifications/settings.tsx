import { useEffect, useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import { BenchForm } from '../../forms/bench-form';
import { bindFields, inFieldWords, TextField } from '../../forms/fields';
import { useApiForm, useFormValues } from '../../forms/form';
import { useAnswer } from '../../ui/answer';
import { Notice, ScreenHeader } from '../../ui/parts';
import { useTitle } from '../../ui/title';
import type { Kind, NotificationSettings } from './model';
import { strings } from './strings';

const s = strings.settings;
const KINDS = Object.keys(strings.kinds) as Kind[];

/** The person's own choices: which kinds, which rooms, email or not, their time zone. */
export default function NotificationSettingsScreen() {
  useTitle(s.title);
  const settings = useAnswer(() => call(api.GET('/api/v1/notification-settings')));
  const rooms = useAnswer(() =>
    call(api.GET('/api/v1/rooms', { params: { query: { limit: 200 } } })),
  );
  return (
    <>
      <ScreenHeader title={s.title} lead={s.lead}>
        <div class="header-actions">
          <a class="button" href="/notifications">
            {s.back}
          </a>
        </div>
      </ScreenHeader>
      {settings === null && <p>{s.loading}</p>}
      {settings !== null && !settings.ok && <Notice tone="bad">{settings.failure.error}</Notice>}
      {settings?.ok && (
        <SettingsForm
          settings={settings.data}
          rooms={rooms?.ok ? rooms.data.map((room) => ({ id: room.id, name: room.name })) : []}
        />
      )}
    </>
  );
}

function SettingsForm(props: {
  settings: NotificationSettings;
  rooms: readonly { id: string; name: string }[];
}) {
  const [held, setHeld] = useState(props.settings);
  const [kinds, setKinds] = useState(props.settings.kinds);
  const [everyRoom, setEveryRoom] = useState(props.settings.follow_all_rooms);
  const [followed, setFollowed] = useState<readonly string[]>(props.settings.followed_room_ids);
  const [email, setEmail] = useState(props.settings.email);
  const [saved, setSaved] = useState(false);
  const values = useFormValues({ time_zone: props.settings.time_zone });
  const form = useApiForm<NotificationSettings>({
    fields: ['kinds', 'followed_room_ids', 'email', ...values.names],
    send: (key) =>
      call(
        api.PATCH('/api/v1/notification-settings', {
          params: { header: { 'idempotency-key': key } },
          body: {
            kinds,
            follow_all_rooms: everyRoom,
            followed_room_ids: [...followed],
            email,
            time_zone: values.now.time_zone.trim(),
          },
        }),
      ),
    onSuccess: (data) => {
      setHeld(data);
      setSaved(true);
    },
  });
  useEffect(() => setSaved(false), [kinds, everyRoom, followed, email, values.now]);
  const field = bindFields(form, values);
  const roomsError = form.errorFor('followed_room_ids');
  return (
    <BenchForm title={s.title} heading={false} save={s.save} form={form} panel>
      <fieldset class="field">
        <legend>{s.kinds}</legend>
        {KINDS.map((kind) => (
          <label class="choice" key={kind}>
            <input
              type="checkbox"
              checked={kinds[kind]}
              onChange={(event) => {
                const on = event.currentTarget.checked;
                setKinds((now) => ({ ...now, [kind]: on }));
              }}
            />
            {strings.kinds[kind]}
          </label>
        ))}
      </fieldset>
      <fieldset class="field">
        <legend>{s.rooms}</legend>
        <p class="field-hint">{s.roomsHint}</p>
        <label class="choice">
          <input
            type="radio"
            name="follow"
            checked={everyRoom}
            onChange={() => setEveryRoom(true)}
          />
          {s.everyRoom}
        </label>
        <label class="choice">
          <input
            type="radio"
            name="follow"
            checked={!everyRoom}
            onChange={() => setEveryRoom(false)}
          />
          {s.someRooms}
        </label>
        {!everyRoom && props.rooms.length === 0 && <p class="muted">{s.noRooms}</p>}
        {!everyRoom &&
          props.rooms.map((room) => (
            <label class="choice choice-nested" key={room.id}>
              <input
                type="checkbox"
                checked={followed.includes(room.id)}
                onChange={(event) => {
                  const on = event.currentTarget.checked;
                  setFollowed((now) =>
                    on ? [...now, room.id] : now.filter((id) => id !== room.id),
                  );
                }}
              />
              {room.name}
            </label>
          ))}
        {roomsError && (
          <p class="field-error" role="alert">
            {inFieldWords(roomsError, 'followed_room_ids', s.rooms)}
          </p>
        )}
      </fieldset>
      <fieldset class="field">
        <legend class="visually-hidden">{s.email}</legend>
        <label class="choice">
          <input
            type="checkbox"
            checked={email}
            onChange={(event) => setEmail(event.currentTarget.checked)}
          />
          {s.email}
        </label>
        <p class="field-hint">
          {!held.email_available
            ? s.noServer
            : held.email_address === null
              ? s.noAddress
              : s.emailTo(held.email_address)}
        </p>
      </fieldset>
      <TextField
        {...field.text('time_zone')}
        label={s.timeZone}
        hint={s.timeZoneHint}
        autocomplete="off"
        maxLength={64}
      />
      {saved && (
        <p role="status" class="notice notice-info">
          {s.saved}
        </p>
      )}
    </BenchForm>
  );
}
