import { api, call, type Schemas } from '../../api/client';
import { useAnswer } from '../../ui/answer';
import { Chip, TimeAgo } from '../../ui/parts';
import { isStale } from '../devices/status';
import { OutOfRange } from '../sensors/out-of-range';
import { sensorWords } from '../sensors/strings';
import { strings } from './strings';
import { recordHref } from '../../ui/links';

type Device = Schemas['Device'];
type Alert = Schemas['Alert'];
type Room = Schemas['Room'];

/*
 * What the Rooms list and a room's page share: the lab's devices and open sensor
 * alerts (each read once, one page: a lab has tens of devices and at most 100
 * alert rules), a room's latest values, its devices with whether each still
 * reports, and its open alerts.
 */

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
  if (readings.length === 0) return <p class="muted small">{strings.parts.noReadings}</p>;
  return (
    <dl class="readings" aria-label={strings.parts.latest}>
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
            {reading.out_of_range && (
              <>
                {' '}
                <OutOfRange type={reading.type} unit={reading.unit} />
              </>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** A device's state in words and a chip: reporting, not reporting (stale), paused. */
export function DeviceState(props: { device: Device; now: number }) {
  const { device } = props;
  if (device.status === 'paused') return <Chip tone="warn">{strings.parts.paused}</Chip>;
  if (device.status === 'retired') return <Chip tone="off">{strings.parts.retired}</Chip>;
  return isStale(device, props.now) ? (
    <Chip tone="bad">{strings.parts.stale}</Chip>
  ) : (
    <Chip tone="ok">{strings.parts.reporting}</Chip>
  );
}

export function RoomDevices(props: { devices: readonly Device[]; now: number }) {
  if (props.devices.length === 0) return <p class="muted small">{strings.parts.noDevices}</p>;
  return (
    <ul class="room-devices" aria-label={strings.parts.devices}>
      {props.devices.map((device) => (
        <li
          key={device.id}
          data-device={device.id}
          data-stale={isStale(device, props.now) ? 'true' : 'false'}
        >
          <a href={recordHref.device(device.id)}>{device.name}</a>{' '}
          <DeviceState device={device} now={props.now} />{' '}
          <span class="muted small">
            {strings.parts.lastReport}{' '}
            <TimeAgo at={device.last_seen_at} never={strings.parts.never} />
          </span>
        </li>
      ))}
    </ul>
  );
}

/** What an alert watches for, in words: `Temperature above 28 °C`. */
function conditionWords(alert: Alert, unit: string): string {
  const what = sensorWords(alert.sensor_type);
  if (alert.condition === 'no_readings') return strings.parts.noReadingsOf(what);
  return strings.parts.crossed(what, alert.condition === 'above', alert.threshold, unit);
}

export function RoomAlerts(props: { alerts: readonly Alert[]; room: Room }) {
  if (props.alerts.length === 0) return null;
  const unitOf = (type: string) =>
    props.room.latest_readings?.find((reading) => reading.type === type)?.unit ?? '';
  return (
    <ul class="room-alerts" aria-label={strings.parts.alerts}>
      {props.alerts.map((alert) => (
        <li key={alert.id} data-alert={alert.id}>
          <Chip tone="bad">{conditionWords(alert, unitOf(alert.sensor_type))}</Chip>{' '}
          <span class="muted small">
            {strings.parts.alertOpened} <TimeAgo at={alert.opened_at} />
          </span>
        </li>
      ))}
    </ul>
  );
}
