import { api, call, type Schemas } from '../../api/client';
import { useSignedIn } from '../../api/session';
import { PagedRows } from '../../ui/list';
import { usePagedList } from '../../ui/paged';
import { Chip, Notice, ScreenHeader, TimeAgo } from '../../ui/parts';
import { DownloadCsv } from '../../ui/download';
import { useTitle } from '../../ui/title';
import { deviceTone } from './status';

type Device = Schemas['Device'];

const strings = {
  title: 'Devices',
  lead: 'Sensors, controllers and gateways that send readings. Open one to pause or retire it and to manage its tokens.',
  adminsOnly: 'Only admins and owners manage devices.',
  lastSeen: 'Last seen',
  never: 'never',
  more: 'More devices',
  loading: 'Loading devices…',
  empty:
    'No devices yet. A device is registered by a script with an API key (POST /api/v1/devices).',
} as const;

export default function Devices() {
  useTitle(strings.title);
  const { atLeast } = useSignedIn();
  if (!atLeast('admin')) {
    return (
      <>
        <ScreenHeader title={strings.title} lead={strings.lead} />
        <Notice>{strings.adminsOnly}</Notice>
      </>
    );
  }
  return <DeviceList />;
}

function DeviceList() {
  const list = usePagedList<Device>((cursor) =>
    call(
      api.GET('/api/v1/devices', {
        params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } },
      }),
    ),
  );
  return (
    <>
      <ScreenHeader title={strings.title} lead={strings.lead}>
        <DownloadCsv path="/api/v1/devices" query={{}} file="devices" />
      </ScreenHeader>
      <PagedRows
        list={list}
        loading={strings.loading}
        empty={strings.empty}
        more={strings.more}
        row={(device) => (
          <li class="row" key={device.id}>
            <div class="row-main">
              <p class="row-title">
                <a href={`/devices/${device.id}`}>{device.name}</a>
              </p>
              <p class="muted small">
                {device.type}
                {device.hardware ? ` · ${device.hardware}` : ''} · {strings.lastSeen}{' '}
                <TimeAgo at={device.last_seen_at} never={strings.never} />
              </p>
            </div>
            <div class="row-status">
              <Chip tone={deviceTone(device.status)}>{device.status}</Chip>
            </div>
          </li>
        )}
      />
    </>
  );
}
