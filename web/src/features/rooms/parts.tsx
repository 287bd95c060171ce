import { api, call, type Schemas } from '../../api/client';
import { useAnswer } from '../../ui/answer';
import { Chip, TimeAgo } from '../../ui/parts';
import { isStale } from '../devices/status';
import { sensorWords } from '../records/model';

type Device = Schemas['Device'];
type Alert = Schemas['Alert'];
type Room = Schemas['Room'];

/*
 * What the Rooms list and a room's page share: the lab's devices and open sensor
 * alerts (each read once, one page: a lab has tens of devices and at most 100
 * alert rules), a room's latest values, its devices with whether each still
 * reports, and its open alerts.
 */

export const roomWords = {
  noReadings: 'No sensor readings yet.',
  devices: 'Devices',
  noDevices: 'No device in this room.',
  reporting: 'reporting',
  stale: 'not reporting',
  paused: 'paused',
  retired: 'retired',
  lastReport: 'Last report',
  never: 'never',
  alerts: 'Open alerts',
  alertOpened: 'opened',
  condition: (alert: Alert, unitOf: (type: string) => string) => {
    const what = sensorWords(alert.sensor_type);
    const unit = unitOf(alert.sensor_type);
    if (alert.condition === 'no_readings') return `${what}: no readings`;
    const side = alert.condition === 'above' ? 'above' : 'below';
    return `${what} ${side} ${alert.threshold ?? '?'}${unit ? ` ${unit}` : ''}`;
  },
  latest: 'Latest values',
} as const;

/** The lab's devices (one page of 200, the most a device list gives) and its open alerts. */
export function useLabSensors() {
  const devices = useAnswer<Device[]>(() =>
    call(api.GET('/api/v1/devices', { params: { query: { limit: 200 } } })),
  );
  const alerts = useAnswer<Alert[]>(() =>
    call(api.GET('/api/v1/alerts', { params: { query: { status: 'open', limit: 100 } } })),
  );
  const list = devices?.ok ? devices.data : [];
  return {
    devices: list,
    alerts: alerts?.ok ? alerts.data : [],
    /** A room's devices, retired ones left out (they are gone from the room). */
    devicesIn: (roomId: string) =>
      list.filter((device) => device.room_id === roomId && device.status !== 'retired'),
    /** A room's open alerts: those on the room, or on a device in it. */
    alertsIn: (roomId: string) =>
      (alerts?.ok ? alerts.data : []).filter(
        (alert) =>
          alert.room_id === roomId ||
          (alert.device_id !== null &&
            list.some((device) => device.id === alert.device_id && device.room_id === roomId)),
      ),
  };
}

/** The latest value of each sensor type in a room, and how old it is. */
export function LatestValues(props: { room: Room }) {
  const readings = props.room.latest_readings;
  if (readings === null) return null;
  if (readings.length === 0) return <p class="muted small">{roomWords.noReadings}</p>;
  return (
    <dl class="readings" aria-label={roomWords.latest}>
      {readings.map((reading) => (
        <div key={reading.type} data-type={reading.type}>
          <dt>{sensorWords(reading.type)}</dt>
          <dd>
            <strong>
              {reading.value} {reading.unit}
            </strong>{' '}
            <span class="muted small">
              <TimeAgo at={reading.recorded_at} />
            </span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A device's state in words and a chip: reporting, not reporting (stale), paused. */
export function DeviceState(props: { device: Device; now: number }) {
  const { device } = props;
  if (device.status === 'paused') return <Chip tone="warn">{roomWords.paused}</Chip>;
  if (device.status === 'retired') return <Chip tone="off">{roomWords.retired}</Chip>;
  return isStale(device, props.now) ? (
    <Chip tone="bad">{roomWords.stale}</Chip>
  ) : (
    <Chip tone="ok">{roomWords.reporting}</Chip>
  );
}

export function RoomDevices(props: { devices: readonly Device[]; now: number }) {
  if (props.devices.length === 0) return <p class="muted small">{roomWords.noDevices}</p>;
  return (
    <ul class="room-devices" aria-label={roomWords.devices}>
      {props.devices.map((device) => (
        <li
          key={device.id}
          data-device={device.id}
          data-stale={isStale(device, props.now) ? 'true' : 'false'}
        >
          <a href={`/devices/${device.id}`}>{device.name}</a>{' '}
          <DeviceState device={device} now={props.now} />{' '}
          <span class="muted small">
            {roomWords.lastReport} <TimeAgo at={device.last_seen_at} never={roomWords.never} />
          </span>
        </li>
      ))}
    </ul>
  );
}

export function RoomAlerts(props: { alerts: readonly Alert[]; room: Room }) {
  if (props.alerts.length === 0) return null;
  const unitOf = (type: string) =>
    props.room.latest_readings?.find((reading) => reading.type === type)?.unit ?? '';
  return (
    <ul class="room-alerts" aria-label={roomWords.alerts}>
      {props.alerts.map((alert) => (
        <li key={alert.id} data-alert={alert.id}>
          <Chip tone="bad">{roomWords.condition(alert, unitOf)}</Chip>{' '}
          <span class="muted small">
            {roomWords.alertOpened} <TimeAgo at={alert.opened_at} />
          </span>
        </li>
      ))}
    </ul>
  );
}
