import { useMemo } from 'preact/hooks';
import { api, call, type Schemas } from '../../api/client';
import { usePagedList } from '../../ui/paged';
import { DownloadCsv } from '../../ui/download';
import { Notice, ScreenHeader } from '../../ui/parts';
import { useTitle } from '../../ui/title';
import { recordHref } from '../records/model';
import { LatestValues, RoomAlerts, RoomDevices, useLabSensors } from './parts';

type Room = Schemas['Room'];

const strings = {
  title: 'Rooms',
  lead: 'Each growth room with its latest sensor values, its devices and any open alert. Open a room for its charts.',
  loading: 'Loading rooms…',
  empty: 'No rooms yet. Rooms are set up by an import.',
  more: 'More rooms',
  counts: (plants: number | null, explants: number | null) =>
    [
      plants === null ? null : `${plants} plant${plants === 1 ? '' : 's'}`,
      explants === null ? null : `${explants} explant${explants === 1 ? '' : 's'}`,
    ]
      .filter(Boolean)
      .join(' · '),
} as const;

/** The lab's rooms at a glance: what each reads now, and what is wrong there. */
export default function Rooms() {
  useTitle(strings.title);
  const now = useMemo(() => Date.now(), []);
  const sensors = useLabSensors();
  const list = usePagedList<Room>((cursor) =>
    call(
      api.GET('/api/v1/rooms', { params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } } }),
    ),
  );
  return (
    <>
      <ScreenHeader title={strings.title} lead={strings.lead}>
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
              <p class="muted small">{strings.counts(room.plant_count, room.explant_count)}</p>
              <RoomAlerts alerts={sensors.alertsIn(room.id)} room={room} />
              <LatestValues room={room} />
              <RoomDevices devices={sensors.devicesIn(room.id)} now={now} />
            </div>
          </li>
        ))}
      </ul>
      {list.loading && <p>{strings.loading}</p>}
      {!list.loading && list.items.length === 0 && !list.failure && <p>{strings.empty}</p>}
      {list.more && (
        <button type="button" class="button" onClick={() => void list.loadMore()}>
          {strings.more}
        </button>
      )}
    </>
  );
}
