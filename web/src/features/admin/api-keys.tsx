import { useEffect, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../../api/client';
import { SCOPES, type Scope } from '../../api/scopes';
import { FormError, SelectField, TextField } from '../../forms/fields';
import { useApiForm } from '../../forms/form';
import { useSignedIn } from '../../api/session';
import { Confirm, PagedRows } from '../../ui/list';
import { usePagedList } from '../../ui/paged';
import { Chip, More, Notice, ScreenHeader, SecretBox, TimeAgo } from '../../ui/parts';
import { DownloadCsv } from '../../ui/download';
import { useTitle } from '../../ui/title';

type ApiKey = Schemas['ApiKey'];
type Member = Schemas['Member'];

const strings = {
  title: 'API keys',
  lead: 'Keys let scripts, label printers and sync tools use the API as one member. People sign in with links instead.',
  adminsOnly: 'Only admins and owners manage API keys.',
  create: 'Create a key',
  createTitle: 'New API key',
  member: 'Acts as',
  memberHint: 'The key can never do more than this member’s role allows.',
  name: 'Name',
  nameHint: 'What uses it, e.g. “Label printer, room 2”.',
  environment: 'Environment',
  environments: [
    ['production', 'Production (xpk_live_…)'],
    ['development', 'Development (xpk_dev_…)'],
  ] as const,
  scopesLegend: 'What the key may do',
  allScopes: `Everything the member’s role allows (all ${SCOPES.length} scopes)`,
  someScopes: 'Only these scopes:',
  save: 'Create key',
  cancel: 'Cancel',
  secretTitle: (name: string) => `The key “${name}”`,
  secretWarning:
    'Copy it now into the tool that will use it. It is shown only this once; Vitro keeps only a fingerprint of it.',
  active: 'active',
  revoked: 'revoked',
  lastUsed: 'last used',
  neverUsed: 'not used yet',
  scopeCount: (n: number) =>
    n === SCOPES.length ? 'all scopes' : `${n} scope${n === 1 ? '' : 's'}`,
  revoke: 'Revoke',
  confirmRevoke: (name: string) =>
    `Revoke “${name}”? Whatever uses it stops working at its next request. This cannot be undone.`,
  confirm: 'Yes, revoke',
  more: 'More keys',
  loading: 'Loading keys…',
  empty: 'No keys yet.',
  unknownMember: 'a removed member',
} as const;

export default function ApiKeys() {
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
  return <KeysList />;
}

function KeysList() {
  const { atLeast } = useSignedIn();
  const list = usePagedList<ApiKey>((cursor) =>
    call(
      api.GET('/api/v1/api-keys', {
        params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } },
      }),
    ),
  );
  // The first 200 members: the names on the keys and the "Acts as" choices.
  const [members, setMembers] = useState<readonly Member[]>([]);
  useEffect(() => {
    void call(api.GET('/api/v1/members', { params: { query: { limit: 200 } } })).then((answer) => {
      if (answer.ok) setMembers(answer.data);
    });
  }, []);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Schemas['ApiKeyCreated'] | null>(null);
  const nameOf = (id: string) => members.find((m) => m.id === id)?.name ?? strings.unknownMember;
  const roleOf = (id: string) => members.find((m) => m.id === id)?.role;

  return (
    <>
      <ScreenHeader title={strings.title} lead={strings.lead}>
        <div class="header-actions">
          {!creating && (
            <button type="button" class="button button-primary" onClick={() => setCreating(true)}>
              {strings.create}
            </button>
          )}
          <DownloadCsv path="/api/v1/api-keys" query={{}} file="api-keys" />
        </div>
      </ScreenHeader>
      {creating && (
        <CreateKey
          members={members.filter(
            (m) => m.status === 'active' && (m.role !== 'owner' || atLeast('owner')),
          )}
          onCancel={() => setCreating(false)}
          onCreated={(key) => {
            setCreated(key);
            setCreating(false);
            // Listed as every key is: without its secret.
            const listed: ApiKey & { key?: string } = { ...key };
            delete listed.key;
            list.upsert(listed, true);
          }}
        />
      )}
      {created && (
        <SecretBox
          label={strings.secretTitle(created.name)}
          value={created.key}
          warning={strings.secretWarning}
          onDone={() => setCreated(null)}
        />
      )}
      <PagedRows
        list={list}
        loading={strings.loading}
        empty={strings.empty}
        more={strings.more}
        row={(key) => (
          <KeyRow
            key={key.id}
            apiKey={key}
            memberName={nameOf(key.member_id)}
            revocable={
              key.revoked_at === null && (roleOf(key.member_id) !== 'owner' || atLeast('owner'))
            }
            onChange={(changed) => list.upsert(changed)}
          />
        )}
      />
    </>
  );
}

function CreateKey(props: {
  members: readonly Member[];
  onCreated: (key: Schemas['ApiKeyCreated']) => void;
  onCancel: () => void;
}) {
  const { session } = useSignedIn();
  const [memberId, setMemberId] = useState(session.member.id);
  const [name, setName] = useState('');
  const [environment, setEnvironment] = useState<'production' | 'development'>('production');
  const [only, setOnly] = useState(false);
  const [scopes, setScopes] = useState<readonly Scope[]>([]);
  const form = useApiForm({
    fields: ['member_id', 'name', 'environment', 'scopes'],
    send: (key) =>
      call(
        api.POST('/api/v1/api-keys', {
          params: { header: { 'idempotency-key': key } },
          body: {
            member_id: memberId,
            environment,
            ...(name.trim() === '' ? {} : { name: name.trim() }),
            ...(only ? { scopes: [...scopes] } : {}),
          },
        }),
      ),
    onSuccess: props.onCreated,
  });
  const toggle = (scope: Scope, on: boolean) =>
    setScopes((current) => (on ? [...current, scope] : current.filter((s) => s !== scope)));
  return (
    <form
      class="form panel"
      onSubmit={(event) => void form.submit(event)}
      aria-label={strings.createTitle}
    >
      <h2>{strings.createTitle}</h2>
      <FormError message={form.formError} />
      <SelectField
        name="member_id"
        label={strings.member}
        hint={strings.memberHint}
        error={form.errorFor('member_id')}
        options={props.members.map((m) => [m.id, `${m.name} (${m.role})`] as const)}
        value={memberId}
        onChange={setMemberId}
      />
      <TextField
        name="name"
        label={strings.name}
        hint={strings.nameHint}
        error={form.errorFor('name')}
        value={name}
        autocomplete="off"
        onInput={(event) => setName(event.currentTarget.value)}
      />
      <More>
        <SelectField
          name="environment"
          label={strings.environment}
          error={form.errorFor('environment')}
          options={strings.environments}
          value={environment}
          onChange={(value) => setEnvironment(value as 'production' | 'development')}
        />
        <fieldset class="field">
          <legend>{strings.scopesLegend}</legend>
          <label class="choice">
            <input type="radio" name="scope-mode" checked={!only} onChange={() => setOnly(false)} />
            {strings.allScopes}
          </label>
          <label class="choice">
            <input type="radio" name="scope-mode" checked={only} onChange={() => setOnly(true)} />
            {strings.someScopes}
          </label>
          {only && (
            <div class="scope-grid">
              {SCOPES.map((scope) => (
                <label class="choice" key={scope}>
                  <input
                    type="checkbox"
                    checked={scopes.includes(scope)}
                    onChange={(event) => toggle(scope, event.currentTarget.checked)}
                  />
                  <code>{scope}</code>
                </label>
              ))}
            </div>
          )}
          {form.errorFor('scopes') && <p class="field-error">{form.errorFor('scopes')}</p>}
        </fieldset>
      </More>
      <div class="actions">
        <button type="submit" class="button button-primary" disabled={form.busy}>
          {strings.save}
        </button>
        <button type="button" class="button button-quiet" onClick={props.onCancel}>
          {strings.cancel}
        </button>
      </div>
    </form>
  );
}

function KeyRow(props: {
  apiKey: ApiKey;
  memberName: string;
  revocable: boolean;
  onChange: (key: ApiKey) => void;
}) {
  const { apiKey } = props;
  const [confirming, setConfirming] = useState(false);
  const revoke = useApiForm({
    fields: [],
    send: (key) =>
      call(
        api.DELETE('/api/v1/api-keys/{id}', {
          params: { path: { id: apiKey.id }, header: { 'idempotency-key': key } },
        }),
      ),
    onSuccess: (revoked) => {
      setConfirming(false);
      props.onChange(revoked);
    },
  });
  const active = apiKey.revoked_at === null;
  return (
    <li class="row">
      <div class="row-main">
        <p class="row-title">{apiKey.name}</p>
        <p class="muted">
          <code>{apiKey.prefix}…</code> · {strings.member} {props.memberName}
        </p>
        <p class="muted small">
          {strings.scopeCount(apiKey.scopes.length)} · {apiKey.environment} ·{' '}
          {apiKey.last_used_at === null ? (
            strings.neverUsed
          ) : (
            <>
              {strings.lastUsed} <TimeAgo at={apiKey.last_used_at} />
            </>
          )}
        </p>
      </div>
      <div class="row-status">
        <Chip tone={active ? 'ok' : 'off'}>{active ? strings.active : strings.revoked}</Chip>
      </div>
      {props.revocable && !confirming && (
        <div class="row-actions">
          <button type="button" class="button button-danger" onClick={() => setConfirming(true)}>
            {strings.revoke}
          </button>
        </div>
      )}
      <FormError message={revoke.formError} />
      {confirming && (
        <Confirm
          label={strings.revoke}
          question={strings.confirmRevoke(apiKey.name)}
          yes={strings.confirm}
          no={strings.cancel}
          busy={revoke.busy}
          onYes={() => void revoke.submit()}
          onNo={() => setConfirming(false)}
        />
      )}
    </li>
  );
}
