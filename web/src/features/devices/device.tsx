import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../../api/client';
import { BenchForm } from '../../forms/bench-form';
import { bindFields, FormError, SelectField, TextField } from '../../forms/fields';
import { given, textOf, useApiForm, useFormValues } from '../../forms/form';
import { useSignedIn } from '../../api/session';
import { Confirm, PagedRows } from '../../ui/list';
import { usePagedList } from '../../ui/paged';
import { useAnswer } from '../../ui/answer';
import { Chip, Fact, More, Notice, ScreenHeader, SecretBox, TimeAgo } from '../../ui/parts';
import { SensorReadings } from '../sensors/readings';
import { useRecordScreen } from '../../ui/record-screen';
import { useTitle } from '../../ui/title';
import { deviceTone, isStale, type DeviceStatus as Status } from './status';
import { recordHref } from '../../ui/links';
import { strings } from './strings';

type Device = Schemas['Device'];
type Token = Schemas['DeviceToken'];

export default function DevicePage(props: { id?: string; params?: { id?: string } }) {
  const id = props.params?.id ?? props.id ?? '';
  const { atLeast } = useSignedIn();
  useTitle(strings.device.title);
  // Reading one device is an admin's operation; others find it in the device list.
  return atLeast('admin') ? <DeviceDetail id={id} /> : <DeviceForMember id={id} />;
}

/** What every member sees of a device: its facts, whether it reports, and its readings. */
function DeviceForMember(props: { id: string }) {
  const answer = useAnswer<Device[]>(
    () => call(api.GET('/api/v1/devices', { params: { query: { limit: 200 } } })),
    [props.id],
  );
  const device = answer?.ok ? (answer.data.find((d) => d.id === props.id) ?? null) : null;
  useTitle(device?.name ?? strings.device.title);
  if (answer === null) return <p aria-busy="true">{strings.device.loading}</p>;
  if (device === null) {
    return (
      <>
        <ScreenHeader title={strings.device.title} />
        <Notice tone="bad">{answer.ok ? strings.device.notFound : answer.failure.error}</Notice>
      </>
    );
  }
  return (
    <>
      <DeviceFacts device={device} />
      <SensorReadings device_id={device.id} deviceNames={new Map([[device.id, device.name]])} />
    </>
  );
}

function RoomName(props: { id: string }) {
  const answer = useAnswer(
    () => call(api.GET('/api/v1/rooms/{id}', { params: { path: { id: props.id } } })),
    [props.id],
  );
  return (
    <a href={recordHref.room(props.id)}>{answer?.ok ? answer.data.name : strings.device.room}</a>
  );
}

/** A device's header and facts, with a stale device said to be so. */
function DeviceFacts(props: { device: Device }) {
  const { device } = props;
  const stale = isStale(device, Date.now());
  return (
    <>
      <ScreenHeader title={device.name}>
        <div class="chips">
          <Chip tone={deviceTone(device.status)}>{device.status}</Chip>
          {stale && <Chip tone="bad">{strings.device.stale}</Chip>}
        </div>
      </ScreenHeader>
      {stale && <Notice tone="bad">{strings.device.staleHelp}</Notice>}
      <dl class="facts">
        <Fact term={strings.device.facts.type}>{device.type}</Fact>
        {device.room_id && (
          <Fact term={strings.device.room}>
            <RoomName id={device.room_id} />
          </Fact>
        )}
        {device.hardware && <Fact term={strings.device.facts.hardware}>{device.hardware}</Fact>}
        {device.firmware_version && (
          <Fact term={strings.device.facts.firmware}>{device.firmware_version}</Fact>
        )}
        <Fact term={strings.device.facts.lastSeen}>
          <TimeAgo at={device.last_seen_at} never={strings.device.never} />
        </Fact>
        <Fact term={strings.device.facts.registered}>
          <TimeAgo at={device.created_at} />
        </Fact>
      </dl>
    </>
  );
}

function DeviceDetail(props: { id: string }) {
  const screen = useRecordScreen<Device>(
    () => call(api.GET('/api/v1/devices/{deviceId}', { params: { path: { deviceId: props.id } } })),
    props.id,
    { href: '/devices', back: strings.device.back, loading: strings.device.loading },
  );
  const device = screen.record;
  useTitle(device?.name ?? strings.device.title);
  if (device === null) return screen.fallback;
  return (
    <>
      {screen.back}
      <DeviceFacts device={device} />
      <SensorReadings device_id={device.id} deviceNames={new Map([[device.id, device.name]])} />
      <StatusPanel device={device} onChange={screen.setRecord} />
      <Tokens device={device} />
    </>
  );
}

function StatusPanel(props: { device: Device; onChange: (device: Device) => void }) {
  const status = props.device.status as Status;
  const [asked, setAsked] = useState<Status | null>(null);
  const form = useApiForm({
    fields: ['status'],
    send: (key) =>
      call(
        api.PATCH('/api/v1/devices/{deviceId}', {
          params: { path: { deviceId: props.device.id }, header: { 'idempotency-key': key } },
          body: { status: asked ?? status },
        }),
      ),
    onSuccess: (device) => {
      setAsked(null);
      props.onChange(device);
    },
  });
  const choices: Status[] =
    status === 'active' ? ['paused', 'retired'] : status === 'paused' ? ['active', 'retired'] : [];
  return (
    <section class="panel" aria-labelledby="status-title">
      <h2 id="status-title">{strings.device.statusTitle}</h2>
      <p>{strings.device.statusHelp[status] ?? status}</p>
      <FormError message={form.errorFor('status') ?? form.formError} />
      {asked === null ? (
        <div class="actions">
          {choices.map((choice) => (
            <button
              type="button"
              key={choice}
              class={choice === 'active' ? 'button' : 'button button-danger'}
              onClick={() => setAsked(choice)}
            >
              {strings.device.actions[choice]}
            </button>
          ))}
        </div>
      ) : (
        <Confirm
          label={strings.device.actions[asked]}
          question={strings.device.confirm[asked]}
          yes={strings.device.yes}
          no={strings.device.cancel}
          busy={form.busy}
          onYes={() => void form.submit()}
          onNo={() => setAsked(null)}
        />
      )}
    </section>
  );
}

function Tokens(props: { device: Device }) {
  const deviceId = props.device.id;
  const list = usePagedList<Token>(
    (cursor) =>
      call(
        api.GET('/api/v1/devices/{deviceId}/tokens', {
          params: { path: { deviceId }, query: { limit: 50, ...(cursor ? { cursor } : {}) } },
        }),
      ),
    [deviceId, props.device.status],
  );
  const [minting, setMinting] = useState(false);
  const [minted, setMinted] = useState<Schemas['DeviceTokenCreated'] | null>(null);
  return (
    <section class="panel" aria-labelledby="tokens-title">
      <h2 id="tokens-title">{strings.device.tokensTitle}</h2>
      <p class="muted">{strings.device.tokensLead}</p>
      {props.device.status === 'active' && !minting && (
        <button type="button" class="button button-primary" onClick={() => setMinting(true)}>
          {strings.device.mint}
        </button>
      )}
      {minting && (
        <MintToken
          deviceId={deviceId}
          onCancel={() => setMinting(false)}
          onMinted={(token) => {
            setMinting(false);
            setMinted(token);
            void list.reload();
          }}
        />
      )}
      {minted && (
        <SecretBox
          label={strings.device.tokenSecretTitle}
          value={minted.token}
          warning={strings.device.tokenSecretWarning}
          onDone={() => setMinted(null)}
        />
      )}
      <PagedRows
        list={list}
        empty={strings.device.noTokens}
        more={strings.device.more}
        row={(token) => <TokenRow key={token.id} token={token} onChange={(t) => list.upsert(t)} />}
      />
    </section>
  );
}

function MintToken(props: {
  deviceId: string;
  onMinted: (token: Schemas['DeviceTokenCreated']) => void;
  onCancel: () => void;
}) {
  const s = strings.device;
  const values = useFormValues({ name: '', environment: 'production' });
  const v = values.now;
  const form = useApiForm({
    fields: values.names,
    send: () =>
      call(
        api.POST('/api/v1/devices/{deviceId}/tokens', {
          params: { path: { deviceId: props.deviceId } },
          body: {
            environment: v.environment as 'production' | 'development',
            ...given({ name: textOf(v.name) }),
          },
        }),
      ),
    onSuccess: props.onMinted,
  });
  const field = bindFields(form, values);
  return (
    <BenchForm
      heading={false}
      title={s.mintTitle}
      save={s.mintSave}
      form={form}
      onCancel={props.onCancel}
    >
      <TextField
        {...field.text('name')}
        label={s.tokenName}
        hint={s.tokenNameHint}
        autocomplete="off"
      />
      <More>
        <SelectField
          {...field.select('environment')}
          label={s.environment}
          options={s.environments}
        />
      </More>
    </BenchForm>
  );
}

function TokenRow(props: { token: Token; onChange: (token: Token) => void }) {
  const { token } = props;
  const revoke = useApiForm({
    fields: [],
    send: (key) =>
      call(
        api.DELETE('/api/v1/devices/{deviceId}/tokens/{tokenId}', {
          params: {
            path: { deviceId: token.deviceId, tokenId: token.id },
            header: { 'idempotency-key': key },
          },
        }),
      ),
    onSuccess: props.onChange,
  });
  const active = token.status === 'active';
  return (
    <li class="row">
      <div class="row-main">
        <p class="row-title">
          <code>{token.prefix}…</code> {token.name}
        </p>
        <p class="muted small">
          {token.environment} · {strings.device.lastUsed}{' '}
          <TimeAgo at={token.lastUsedAt} never={strings.device.never} />
        </p>
      </div>
      <div class="row-status">
        <Chip tone={active ? 'ok' : 'off'}>
          {active ? strings.device.active : strings.device.revoked}
        </Chip>
      </div>
      {active && (
        <div class="row-actions">
          <button
            type="button"
            class="button button-danger"
            disabled={revoke.busy}
            onClick={() => void revoke.submit()}
          >
            {strings.device.revoke}
          </button>
        </div>
      )}
      <FormError message={revoke.formError} />
    </li>
  );
}
