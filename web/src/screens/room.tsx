import { useMemo } from 'preact/hooks';
import { api, call, type Schemas } from '../api/client';
import { useAnswer } from '../ui/answer';
import { Chip, Notice, ScreenHeader } from '../ui/parts';
import { SensorReadings } from '../ui/sensor-readings';
import { useTitle } from '../ui/title';
import { isStale } from './device-status';
import { LatestValues, RoomAlerts, RoomDevices, roomWords, useLabSensors } from './room-parts';

type Room = Schemas['Room'];

const strings = {
  title: 'Room',
  back: 'All rooms',
  loading: 'Loading the room…',
  facts: { plants: 'Plants', explants: 'Explants', devices: 'Devices' },
  alert: (n: number) => `${n} open alert${n === 1 ? '' : 's'}`,
  stale: (n: number) => `${n} device${n === 1 ? '' : 's'} not reporting`,
  allWell: 'no open alert',
  now: 'Now',
} as const;

/** A room's page: its state now (values, devices, alerts) and its charts. */
export default function RoomPage(props: { id?: string; params?: { id?: string } }) {
  const id = props.params?.id ?? props.id ?? '';
  const now = useMemo(() => Date.now(), [id]);
  const answer = useAnswer<Room>(
    () => call(api.GET('/api/v1/rooms/{id}', { params: { path: { id } } })),
    [id],
  );
  const sensors = useLabSensors();
  const room = answer?.ok ? answer.data : null;
  useTitle(room?.name ?? strings.title);
  const deviceNames = useMemo(
    () => new Map(sensors.devices.map((device) => [device.id, device.name])),
    [sensors.devices],
  );

  const back = (
    <p>
      <a href="/rooms">← {strings.back}</a>
    </p>
  );
  if (answer === null) return <p aria-busy="true">{strings.loading}</p>;
  if (!answer.ok || room === null) {
    return (
      <>
        {back}
        <Notice tone="bad">{answer.ok ? '' : answer.failure.error}</Notice>
      </>
    );
  }
  const devices = sensors.devicesIn(room.id);
  const alerts = sensors.alertsIn(room.id);
  const stale = devices.filter((device) => isStale(device, now)).length;
  return (
    <>
      {back}
      <ScreenHeader title={room.name}>
        <div class="chips">
          {alerts.length > 0 ? (
            <Chip tone="bad">{strings.alert(alerts.length)}</Chip>
          ) : (
            <Chip tone="ok">{strings.allWell}</Chip>
          )}
          {stale > 0 && <Chip tone="bad">{strings.stale(stale)}</Chip>}
        </div>
      </ScreenHeader>
      <dl class="facts">
        {room.plant_count !== null && (
          <>
            <dt>{strings.facts.plants}</dt>
            <dd>{room.plant_count}</dd>
          </>
        )}
        {room.explant_count !== null && (
          <>
            <dt>{strings.facts.explants}</dt>
            <dd>{room.explant_count}</dd>
          </>
        )}
      </dl>
      <section class="panel" aria-labelledby="room-now">
        <h2 id="room-now">{strings.now}</h2>
        <RoomAlerts alerts={alerts} room={room} />
        <LatestValues room={room} />
        <h3 class="room-devices-title">{roomWords.devices}</h3>
        <RoomDevices devices={devices} now={now} />
      </section>
      <SensorReadings room_id={room.id} deviceNames={deviceNames} />
    </>
  );
}
