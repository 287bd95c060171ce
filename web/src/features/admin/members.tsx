import { useRef, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../../api/client';
import { BenchForm } from '../../forms/bench-form';
import { bindFields, FormError, SelectField, TextField } from '../../forms/fields';
import { given, textOf, useApiForm, useFormValues } from '../../forms/form';
import { useSignedIn } from '../../api/session';
import { Confirm, PagedRows } from '../../ui/list';
import { usePagedList } from '../../ui/paged';
import { Chip, More, ScreenHeader, SecretBox, TimeAgo } from '../../ui/parts';
import { DownloadCsv } from '../../ui/download';
import { useTitle } from '../../ui/title';
import { strings } from './strings';

type Member = Schemas['Member'];
type Role = Member['role'];

const ROLE_ORDER: readonly Role[] = ['owner', 'admin', 'manager', 'member', 'viewer', 'guest'];

/** The roles an admin or owner may give: with what each may do, or by name only in a row. */
function roleOptions(actorIsOwner: boolean, described = true) {
  return ROLE_ORDER.filter((role) => role !== 'owner' || actorIsOwner).map(
    (role) => [role, described ? strings.members.roles[role] : role] as const,
  );
}

export default function Members() {
  useTitle(strings.members.title);
  const { session, atLeast } = useSignedIn();
  const isOwner = atLeast('owner');
  const list = usePagedList<Member>((cursor) =>
    call(
      api.GET('/api/v1/members', {
        params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } },
      }),
    ),
  );
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  return (
    <>
      <ScreenHeader title={strings.members.title} lead={strings.members.lead}>
        <div class="header-actions">
          {!adding && (
            <button type="button" class="button button-primary" onClick={() => setAdding(true)}>
              {strings.members.add}
            </button>
          )}
          <DownloadCsv path="/api/v1/members" query={{}} file="members" />
        </div>
      </ScreenHeader>
      {adding && (
        <AddMember
          isOwner={isOwner}
          onCancel={() => setAdding(false)}
          onAdded={(member) => {
            list.upsert(member, true);
            setAdding(false);
            setNotice(strings.members.added(member.name));
          }}
        />
      )}
      {notice && (
        <p role="status" class="notice notice-info">
          {notice}
        </p>
      )}
      <PagedRows
        list={list}
        loading={strings.members.loading}
        empty={strings.members.empty}
        more={strings.members.more}
        row={(member) => (
          <MemberRow
            key={member.id}
            member={member}
            self={member.id === session.member.id}
            isOwner={isOwner}
            onChange={(changed) => list.upsert(changed)}
          />
        )}
      />
    </>
  );
}

function AddMember(props: {
  isOwner: boolean;
  onAdded: (member: Member) => void;
  onCancel: () => void;
}) {
  const s = strings.members;
  const values = useFormValues({ name: '', email: '', role: 'member' });
  const v = values.now;
  const form = useApiForm({
    fields: values.names,
    send: (key) =>
      call(
        api.POST('/api/v1/members', {
          params: { header: { 'idempotency-key': key } },
          body: { name: v.name, role: v.role as Role, ...given({ email: textOf(v.email) }) },
        }),
      ),
    onSuccess: props.onAdded,
  });
  const field = bindFields(form, values);
  return (
    <BenchForm panel title={s.addTitle} save={s.save} form={form} onCancel={props.onCancel}>
      <TextField
        {...field.text('name')}
        label={s.name}
        required
        autocomplete="off"
        maxLength={200}
      />
      <SelectField {...field.select('role')} label={s.role} options={roleOptions(props.isOwner)} />
      <More>
        <TextField
          {...field.text('email')}
          label={s.email}
          hint={s.emailHint}
          type="email"
          autocomplete="off"
        />
      </More>
    </BenchForm>
  );
}

function MemberRow(props: {
  member: Member;
  self: boolean;
  isOwner: boolean;
  onChange: (member: Member) => void;
}) {
  const { member } = props;
  const active = member.status === 'active';
  const manageable = active && (member.role !== 'owner' || props.isOwner);
  const [link, setLink] = useState<Schemas['SignInLink'] | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [saved, setSaved] = useState(false);
  const [role, setRole] = useState<Role>(member.role);
  const pendingRole = useRef<Role>(member.role);
  const roleForm = useApiForm({
    fields: ['role'],
    send: (key) =>
      call(
        api.PATCH('/api/v1/members/{id}', {
          params: { path: { id: member.id }, header: { 'idempotency-key': key } },
          body: { role: pendingRole.current },
        }),
      ),
    onSuccess: (changed) => {
      props.onChange(changed);
      setSaved(true);
    },
  });
  const linkForm = useApiForm({
    fields: [],
    send: () =>
      call(api.POST('/api/v1/members/{id}/sign-in-links', { params: { path: { id: member.id } } })),
    onSuccess: (made) => {
      setRevoked(null);
      setLink(made);
    },
  });
  const [revoked, setRevoked] = useState<string | null>(null);
  const revokeForm = useApiForm({
    fields: [],
    send: (key) =>
      call(
        api.DELETE('/api/v1/members/{id}/sign-in-links', {
          params: { path: { id: member.id }, header: { 'idempotency-key': key } },
        }),
      ),
    onSuccess: (answer) => {
      // A link still on screen for this member no longer works: it goes.
      setLink(null);
      setRevoked(strings.members.revoked(member.name, answer.revoked_links));
    },
  });
  const removeForm = useApiForm({
    fields: [],
    send: (key) =>
      call(
        api.DELETE('/api/v1/members/{id}', {
          params: { path: { id: member.id }, header: { 'idempotency-key': key } },
        }),
      ),
    onSuccess: (removed) => {
      setConfirming(false);
      props.onChange(removed);
    },
  });

  return (
    <li class="row">
      <div class="row-main">
        <p class="row-title">
          {member.name}
          {props.self && <span class="tag">{strings.members.you}</span>}
        </p>
        {member.email && <p class="muted">{member.email}</p>}
        <p class="muted small">
          {strings.members.since} <TimeAgo at={member.created_at} />
        </p>
      </div>
      <div class="row-status">
        <Chip tone={active ? 'ok' : 'off'}>
          {active ? strings.members.active : strings.members.removed}
        </Chip>
      </div>
      <div class="row-role">
        {manageable && !props.self ? (
          <SelectField
            name={`role-${member.id}`}
            label={strings.members.role}
            error={roleForm.errorFor('role') ?? roleForm.formError}
            options={roleOptions(props.isOwner, false)}
            value={role}
            onChange={(value) => {
              pendingRole.current = value as Role;
              setRole(value as Role);
              setSaved(false);
              void roleForm.submit();
            }}
          />
        ) : (
          <p>
            <span class="muted small">{strings.members.role}: </span>
            {member.role}
          </p>
        )}
        {saved && (
          <p class="muted small" role="status">
            {strings.members.roleSaved}
          </p>
        )}
      </div>
      {manageable && (
        <div class="row-actions">
          <button
            type="button"
            class="button"
            disabled={linkForm.busy}
            onClick={() => void linkForm.submit()}
          >
            {strings.members.link}
          </button>
          <button
            type="button"
            class="button"
            disabled={revokeForm.busy}
            onClick={() => void revokeForm.submit()}
          >
            {strings.members.revoke}
          </button>
          {!props.self && !confirming && (
            <button type="button" class="button button-danger" onClick={() => setConfirming(true)}>
              {strings.members.remove}
            </button>
          )}
        </div>
      )}
      <FormError message={linkForm.formError ?? revokeForm.formError ?? removeForm.formError} />
      {revoked && (
        <p role="status" class="notice notice-info row-notice">
          {revoked}
        </p>
      )}
      {confirming && (
        <Confirm
          label={strings.members.remove}
          question={strings.members.confirmRemove(member.name)}
          yes={strings.members.confirm}
          no={strings.members.cancel}
          busy={removeForm.busy}
          onYes={() => void removeForm.submit()}
          onNo={() => setConfirming(false)}
        />
      )}
      {link && (
        <SecretBox
          label={strings.members.linkTitle(member.name)}
          value={link.url}
          warning={strings.members.linkWarning(new Date(link.expires_at).toLocaleTimeString())}
          onDone={() => setLink(null)}
        />
      )}
    </li>
  );
}
