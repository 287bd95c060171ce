import { useMemo } from 'preact/hooks';
import { api, call, type Schemas } from '../../api/client';
import { usePagedList } from '../../ui/paged';
import { DownloadCsv } from '../../ui/download';
import { Notice, ScreenHeader } from '../../ui/parts';
import { useTitle } from '../../ui/title';
import { recordHref } from '../../ui/links';
import { LatestValues, RoomAlerts, RoomDevices, useLabSensors } from './parts';
import { strings } from './strings';

type Room = Schemas['Room'];

/** The lab's rooms at a glance: what each reads now, and what is wrong there. */
export default function Rooms() {
  useTitle(strings.rooms.title);
  const now = useMemo(() => Date.now(), []);
  const sensors = useLabSensors();
  const list = usePagedList<Room>((cursor) =>
    call(
      api.GET('/api/v1/rooms', { params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } } }),
    ),
  );
  return (
    <>
      <ScreenHeader title={strings.rooms.title} lead={strings.rooms.lead}>
        <DownloadCsv path="/api/v1/rooms" query={{}} file="rooms" />
      </ScreenHeader>
      {list.failure && <Notice tone="bad">{list.failure.error}</Notice>}
      <ul class="rows room-list" aria-busy={list.loading}>
        {list.items.map((room) => (
          <li class="row" key={room.id} data-room={room.id}>
            <div class="row-main">
              <p class="row-title">
                <a href={recordHref.room(room.id)}>{room.name}</a>
              </p>
              <p class="muted small">
                {strings.rooms.counts(room.plant_count, room.explant_count)}
              </p>
              <RoomAlerts alerts={sensors.alertsIn(room.id)} room={room} />
              <LatestValues room={room} />
              <RoomDevices devices={sensors.devicesIn(room.id)} now={now} />
            </div>
          </li>
        ))}
      </ul>
      {list.loading && <p>{strings.rooms.loading}</p>}
      {!list.loading && list.items.length === 0 && !list.failure && <p>{strings.rooms.empty}</p>}
      {list.more && (
        <button type="button" class="button" onClick={() => void list.loadMore()}>
          {strings.rooms.more}
        </button>
      )}
    </>
  );
}
