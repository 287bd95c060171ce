import { useEffect, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../../api/client';
import { SCOPES, type Scope } from '../../api/scopes';
import { BenchForm } from '../../forms/bench-form';
import { bindFields, FormError, inFieldWords, SelectField, TextField } from '../../forms/fields';
import { given, textOf, useApiForm, useFormValues } from '../../forms/form';
import { useSignedIn } from '../../api/session';
import { Confirm, PagedRows } from '../../ui/list';
import { usePagedList } from '../../ui/paged';
import { Chip, More, ScreenHeader, SecretBox, TimeAgo } from '../../ui/parts';
import { DownloadCsv } from '../../ui/download';
import { useTitle } from '../../ui/title';
import { strings } from './strings';

type ApiKey = Schemas['ApiKey'];
type Member = Schemas['Member'];
type Environment = NonNullable<Schemas['ApiKey']['environment']>;

export default function ApiKeys() {
  useTitle(strings.apiKeys.title);
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
  const nameOf = (id: string) =>
    members.find((m) => m.id === id)?.name ?? strings.apiKeys.unknownMember;
  const roleOf = (id: string) => members.find((m) => m.id === id)?.role;

  return (
    <>
      <ScreenHeader title={strings.apiKeys.title} lead={strings.apiKeys.lead}>
        <div class="header-actions">
          {!creating && (
            <button type="button" class="button button-primary" onClick={() => setCreating(true)}>
              {strings.apiKeys.create}
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
          label={strings.apiKeys.secretTitle(created.name)}
          value={created.key}
          warning={strings.apiKeys.secretWarning}
          onDone={() => setCreated(null)}
        />
      )}
      <PagedRows
        list={list}
        loading={strings.apiKeys.loading}
        empty={strings.apiKeys.empty}
        more={strings.apiKeys.more}
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

/** The form's own refusal of a key with no scope, as the API would refuse it (422). */
const noScopes = {
  ok: false,
  failure: { status: 422, code: 'VALIDATION_ERROR', error: `scopes: ${strings.apiKeys.noScopes}` },
} as const;

function CreateKey(props: {
  members: readonly Member[];
  onCreated: (key: Schemas['ApiKeyCreated']) => void;
  onCancel: () => void;
}) {
  const { session } = useSignedIn();
  const s = strings.apiKeys;
  const values = useFormValues({
    member_id: session.member.id,
    name: '',
    environment: 'production',
  });
  const v = values.now;
  const [only, setOnly] = useState(false);
  const [scopes, setScopes] = useState<readonly Scope[]>([]);
  const form = useApiForm({
    fields: [...values.names, 'scopes'],
    send: (key) =>
      // "Only these scopes" with none ticked would make a key that can do nothing.
      only && scopes.length === 0
        ? Promise.resolve(noScopes)
        : call(
            api.POST('/api/v1/api-keys', {
              params: { header: { 'idempotency-key': key } },
              body: {
                member_id: v.member_id,
                environment: v.environment as Environment,
                ...given({ name: textOf(v.name), scopes: only ? [...scopes] : undefined }),
              },
            }),
          ),
    onSuccess: props.onCreated,
  });
  const field = bindFields(form, values);
  const toggle = (scope: Scope, on: boolean) =>
    setScopes((current) => (on ? [...current, scope] : current.filter((x) => x !== scope)));
  return (
    <BenchForm panel title={s.createTitle} save={s.save} form={form} onCancel={props.onCancel}>
      <SelectField
        {...field.select('member_id')}
        label={s.member}
        hint={s.memberHint}
        options={props.members.map((m) => [m.id, `${m.name} (${m.role})`] as const)}
      />
      <TextField
        {...field.text('name')}
        label={s.name}
        hint={s.nameHint}
        autocomplete="off"
        maxLength={200}
      />
      <More>
        <SelectField
          {...field.select('environment')}
          label={s.environment}
          options={s.environments}
        />
        <fieldset class="field">
          <legend>{s.scopesLegend}</legend>
          <label class="choice">
            <input type="radio" name="scope-mode" checked={!only} onChange={() => setOnly(false)} />
            {s.allScopes(SCOPES.length)}
          </label>
          <label class="choice">
            <input type="radio" name="scope-mode" checked={only} onChange={() => setOnly(true)} />
            {s.someScopes}
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
          {form.errorFor('scopes') && (
            <p class="field-error" role="alert">
              {inFieldWords(form.errorFor('scopes')!, 'scopes', s.scopesLegend)}
            </p>
          )}
        </fieldset>
      </More>
    </BenchForm>
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
          <code>{apiKey.prefix}…</code> · {strings.apiKeys.member} {props.memberName}
        </p>
        <p class="muted small">
          {strings.apiKeys.scopeCount(apiKey.scopes.length, SCOPES.length)} · {apiKey.environment} ·{' '}
          {apiKey.last_used_at === null ? (
            strings.apiKeys.neverUsed
          ) : (
            <>
              {strings.apiKeys.lastUsed} <TimeAgo at={apiKey.last_used_at} />
            </>
          )}
        </p>
      </div>
      <div class="row-status">
        <Chip tone={active ? 'ok' : 'off'}>
          {active ? strings.apiKeys.active : strings.apiKeys.revoked}
        </Chip>
      </div>
      {props.revocable && !confirming && (
        <div class="row-actions">
          <button type="button" class="button button-danger" onClick={() => setConfirming(true)}>
            {strings.apiKeys.revoke}
          </button>
        </div>
      )}
      <FormError message={revoke.formError} />
      {confirming && (
        <Confirm
          label={strings.apiKeys.revoke}
          question={strings.apiKeys.confirmRevoke(apiKey.name)}
          yes={strings.apiKeys.confirm}
          no={strings.apiKeys.cancel}
          busy={revoke.busy}
          onYes={() => void revoke.submit()}
          onNo={() => setConfirming(false)}
        />
      )}
    </li>
  );
}
