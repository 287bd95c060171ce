import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../../api/client';
import { FormError } from '../../forms/fields';
import { useApiForm } from '../../forms/form';
import { Confirm, PagedRows } from '../../ui/list';
import { usePagedList } from '../../ui/paged';
import { Chip, More, type Tone } from '../../ui/parts';
import { useRecordScreen } from '../../ui/record-screen';
import { SettingsHeader, Saved, useCanChange } from './parts';
import { SopDetails } from './sop-details';
import { StepsEditor } from './steps-editor';
import { strings } from './strings';

type Version = Schemas['SopVersionDetail'];
const s = strings.sop;
const TONE: Record<string, Tone> = { effective: 'ok', draft: 'warn', superseded: 'off' };

/** One SOP's versions: the one in force, drafts to edit and make effective, superseded ones. */
export default function SopSettingsPage(props: { params?: { id?: string } }) {
  const id = props.params?.id ?? '';
  const canChange = useCanChange();
  const sop = useRecordScreen(
    () => call(api.GET('/api/v1/sops/{id}', { params: { path: { id } } })),
    id,
    { href: '/settings/sops', back: s.back, loading: s.loading },
  );
  const versions = usePagedList<Version>(
    (cursor) =>
      call(
        api.GET('/api/v1/sops/{id}/versions', {
          params: { path: { id }, query: { limit: 50, ...(cursor ? { cursor } : {}) } },
        }),
      ),
    [id],
  );
  const [drafting, setDrafting] = useState(false);
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  if (sop.record === null) return sop.fallback;
  const data = sop.record;
  const latest = [...versions.items].sort((a, b) => b.version - a.version)[0];
  const hasDraft = versions.items.some((v) => v.lifecycleStatus === 'draft');
  const changed = (message: string) => {
    setNotice(message);
    void versions.reload();
    sop.reload();
  };
  return (
    <>
      <SettingsHeader
        title={data.title}
        lead={data.description ?? strings.sops.lead}
        canChange={canChange}
        back={{ href: '/settings/sops', label: s.back }}
      >
        <div class="header-actions">
          {!drafting && !hasDraft && !versions.loading && (
            <button type="button" class="button button-primary" onClick={() => setDrafting(true)}>
              {s.newVersion}
            </button>
          )}
          {!editing && (
            <button type="button" class="button" onClick={() => setEditing(true)}>
              {strings.sops.details}
            </button>
          )}
        </div>
      </SettingsHeader>
      {editing && (
        <SopDetails
          sop={data}
          onCancel={() => setEditing(false)}
          onSaved={(saved) => {
            setEditing(false);
            sop.setRecord(saved);
          }}
        />
      )}
      <p>
        {data.version ? (
          <Chip tone="ok">{strings.sops.inForce(data.version.version)}</Chip>
        ) : (
          <Chip tone="off">{strings.sops.noVersionInForce}</Chip>
        )}{' '}
        <a href={`/sops/${data.id}`}>{s.runnerLink}</a>
      </p>
      <p class="muted">{strings.sops.pinned}</p>
      {drafting && (
        <StepsEditor
          title={s.draftTitle((latest?.version ?? 0) + 1)}
          lead={s.newVersionLead}
          save={s.createDraft}
          start={latest?.steps ?? []}
          send={(steps, key) =>
            call(
              api.POST('/api/v1/sops/{id}/versions', {
                params: { path: { id }, header: { 'idempotency-key': key } },
                body: { steps },
              }),
            )
          }
          onSaved={() => {
            setDrafting(false);
            changed(s.draftSaved);
          }}
          onCancel={() => setDrafting(false)}
        />
      )}
      <Saved message={notice} />
      <section aria-labelledby="versions-title">
        <h2 id="versions-title">{s.versions}</h2>
        <PagedRows
          list={versions}
          loading={s.loadingVersions}
          empty={s.noVersions}
          more={s.versions}
          row={(version) => (
            <VersionRow
              key={version.id}
              sopId={id}
              version={version}
              canChange={canChange}
              onChanged={changed}
            />
          )}
        />
      </section>
    </>
  );
}

function VersionRow(props: {
  sopId: string;
  version: Version;
  canChange: boolean;
  onChanged: (message: string) => void;
}) {
  const { version } = props;
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const draft = version.lifecycleStatus === 'draft';
  const effective = useApiForm({
    fields: [],
    send: (key) =>
      call(
        api.POST('/api/v1/sops/{id}/versions/{versionId}/make-effective', {
          params: {
            path: { id: props.sopId, versionId: version.id },
            header: { 'idempotency-key': key },
          },
        }),
      ),
    onSuccess: () => {
      setConfirming(false);
      props.onChanged(s.madeEffective(version.version));
    },
  });
  const title = s.version(version.version);
  return (
    <li class="row" aria-label={title}>
      <div class="row-main">
        <p class="row-title">{title}</p>
        <p class="muted small">{s.steps(version.steps.length)}</p>
      </div>
      <div class="row-status">
        <Chip tone={TONE[version.lifecycleStatus] ?? 'info'}>
          {s.status[version.lifecycleStatus] ?? version.lifecycleStatus}
        </Chip>
      </div>
      {props.canChange && draft && !editing && !confirming && (
        <div class="row-actions">
          <button type="button" class="button" onClick={() => setEditing(true)}>
            {s.editDraft}
          </button>
          <button type="button" class="button button-primary" onClick={() => setConfirming(true)}>
            {s.makeEffective}
          </button>
        </div>
      )}
      <FormError message={effective.formError} />
      {confirming && (
        <Confirm
          label={s.makeEffective}
          question={s.makeEffectiveQuestion(version.version)}
          yes={s.makeEffectiveYes}
          no={strings.cancel}
          busy={effective.busy}
          tone="primary"
          focus
          onYes={() => void effective.submit()}
          onNo={() => setConfirming(false)}
        />
      )}
      <div class="row-wide">
        {editing ? (
          <StepsEditor
            title={s.draftTitle(version.version)}
            save={s.saveDraft}
            start={version.steps}
            send={(steps, key) =>
              call(
                api.PATCH('/api/v1/sops/{id}/versions/{versionId}', {
                  params: {
                    path: { id: props.sopId, versionId: version.id },
                    header: { 'idempotency-key': key },
                  },
                  body: { steps },
                }),
              )
            }
            onSaved={() => {
              setEditing(false);
              props.onChanged(s.draftSaved);
            }}
            onCancel={() => setEditing(false)}
          />
        ) : (
          version.steps.length > 0 && (
            <More label={s.steps(version.steps.length)} open={draft}>
              <ol class="sop-steps">
                {version.steps.map((step) => (
                  <li key={step.id}>
                    <p>{step.instruction}</p>
                    {step.safetyWarning && (
                      <p class="sop-safety">
                        <strong>{strings.steps.safety}:</strong> {step.safetyWarning}
                      </p>
                    )}
                    {step.measurements.map((m) => (
                      <p class="muted small" key={m.metric}>
                        {s.reading(m.metric, m.unit, m.min, m.max)}
                      </p>
                    ))}
                  </li>
                ))}
              </ol>
            </More>
          )
        )}
      </div>
    </li>
  );
}
