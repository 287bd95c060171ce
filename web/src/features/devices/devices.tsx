import { api, call, type Schemas } from '../../api/client';
import { PagedRows } from '../../ui/list';
import { usePagedList } from '../../ui/paged';
import { Chip, ScreenHeader, TimeAgo } from '../../ui/parts';
import { DownloadCsv } from '../../ui/download';
import { useTitle } from '../../ui/title';
import { deviceTone } from './status';
import { strings } from './strings';
import { recordHref } from '../../ui/links';

type Device = Schemas['Device'];

export default function Devices() {
  useTitle(strings.devices.title);
  const list = usePagedList<Device>((cursor) =>
    call(
      api.GET('/api/v1/devices', {
        params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } },
      }),
    ),
  );
  return (
    <>
      <ScreenHeader title={strings.devices.title} lead={strings.devices.lead}>
        <DownloadCsv path="/api/v1/devices" query={{}} file="devices" />
      </ScreenHeader>
      <PagedRows
        list={list}
        loading={strings.devices.loading}
        empty={strings.devices.empty}
        more={strings.devices.more}
        row={(device) => (
          <li class="row" key={device.id}>
            <div class="row-main">
              <p class="row-title">
                <a href={recordHref.device(device.id)}>{device.name}</a>
              </p>
              <p class="muted small">
                {device.type}
                {device.hardware ? ` · ${device.hardware}` : ''} · {strings.devices.lastSeen}{' '}
                <TimeAgo at={device.last_seen_at} never={strings.devices.never} />
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
