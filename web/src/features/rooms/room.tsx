import { useMemo } from 'preact/hooks';
import { api, call, type Schemas } from '../../api/client';
import { Chip, Fact, ScreenHeader } from '../../ui/parts';
import { useRecordScreen } from '../../ui/record-screen';
import { SensorReadings } from '../sensors/readings';
import { useTitle } from '../../ui/title';
import { isStale } from '../devices/status';
import { LatestValues, RoomAlerts, RoomDevices, useLabSensors } from './parts';
import { strings } from './strings';

type Room = Schemas['Room'];

/** A room's page: its state now (values, devices, alerts) and its charts. */
export default function RoomPage(props: { id?: string; params?: { id?: string } }) {
  const id = props.params?.id ?? props.id ?? '';
  const now = useMemo(() => Date.now(), [id]);
  const screen = useRecordScreen<Room>(
    () => call(api.GET('/api/v1/rooms/{id}', { params: { path: { id } } })),
    id,
    { href: '/rooms', back: strings.room.back, loading: strings.room.loading },
  );
  const sensors = useLabSensors();
  const room = screen.record;
  useTitle(room?.name ?? strings.room.title);
  const deviceNames = useMemo(
    () => new Map(sensors.devices.map((device) => [device.id, device.name])),
    [sensors.devices],
  );

  if (room === null) return screen.fallback;
  const devices = sensors.devicesIn(room.id);
  const alerts = sensors.alertsIn(room.id);
  const stale = devices.filter((device) => isStale(device, now)).length;
  return (
    <>
      {screen.back}
      <ScreenHeader title={room.name}>
        <div class="chips">
          {alerts.length > 0 ? (
            <Chip tone="bad">{strings.room.alert(alerts.length)}</Chip>
          ) : (
            <Chip tone="ok">{strings.room.allWell}</Chip>
          )}
          {stale > 0 && <Chip tone="bad">{strings.room.stale(stale)}</Chip>}
        </div>
      </ScreenHeader>
      <dl class="facts">
        {room.plant_count !== null && (
          <Fact term={strings.room.facts.plants}>{room.plant_count}</Fact>
        )}
        {room.explant_count !== null && (
          <Fact term={strings.room.facts.explants}>{room.explant_count}</Fact>
        )}
      </dl>
      <section class="panel" aria-labelledby="room-now">
        <h2 id="room-now">{strings.room.now}</h2>
        <RoomAlerts alerts={alerts} room={room} />
        <LatestValues room={room} />
        <h3 class="room-devices-title">{strings.parts.devices}</h3>
        <RoomDevices devices={devices} now={now} />
      </section>
      <SensorReadings room_id={room.id} deviceNames={deviceNames} />
    </>
  );
}
