import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../../api/client';
import { useSignedIn } from '../../api/session';
import { BenchForm } from '../../forms/bench-form';
import { bindFields, NumberField, SelectField, TextField } from '../../forms/fields';
import { countOf, useApiForm, useFormValues } from '../../forms/form';
import { useAnswer } from '../../ui/answer';
import { Fact, Notice } from '../../ui/parts';
import { SettingsHeader, Saved, useCanChange } from './parts';
import { strings } from './strings';

type LabSettings = Schemas['LabSettings'];

const SECTIONS = [
  ['/settings/rooms', strings.sections.rooms],
  ['/settings/stages', strings.sections.stages],
  ['/settings/sops', strings.sections.sops],
  ['/settings/equipment', strings.sections.equipment],
  ['/settings/custom-fields', strings.sections.customFields],
  ['/settings/media-recipes', strings.sections.media],
] as const;

/** The lab settings: where each part of the lab's setup is changed, and the lab's general settings. */
export default function LabSettingsScreen() {
  const canChange = useCanChange();
  return (
    <>
      <SettingsHeader
        title={strings.title}
        lead={strings.lead}
        canChange={canChange}
        back={{ href: '/', label: strings.today }}
      />
      <nav aria-label={strings.title}>
        <ul class="rows">
          {SECTIONS.map(([href, [title, lead]]) => (
            <li class="row" key={href}>
              <div class="row-main">
                <p class="row-title">
                  <a href={href}>{title}</a>
                </p>
                <p class="muted">{lead}</p>
              </div>
            </li>
          ))}
        </ul>
      </nav>
      <General />
    </>
  );
}

function General() {
  const answer = useAnswer(() => call(api.GET('/api/v1/lab-settings')));
  const { atLeast } = useSignedIn();
  const s = strings.general;
  return (
    <section aria-labelledby="general-title" class="panel">
      <h2 id="general-title">{s.title}</h2>
      {answer === null ? (
        <p>{strings.stages.loading}</p>
      ) : !answer.ok ? (
        <Notice tone="bad">{answer.failure.error}</Notice>
      ) : atLeast('admin') ? (
        <GeneralForm settings={answer.data} />
      ) : (
        <>
          <dl class="facts">
            <Fact term={s.interval}>{answer.data.subculture_interval_days}</Fact>
            <Fact term={s.requireAll}>{answer.data.sop_runs_require_all_steps ? s.yes : s.no}</Fact>
            <Fact term={s.timeZone}>{answer.data.time_zone}</Fact>
          </dl>
          <p class="muted">{s.adminsOnly}</p>
        </>
      )}
    </section>
  );
}

function GeneralForm(props: { settings: LabSettings }) {
  const s = strings.general;
  const [saved, setSaved] = useState<string | null>(null);
  const values = useFormValues({
    subculture_interval_days: String(props.settings.subculture_interval_days),
    sop_runs_require_all_steps: props.settings.sop_runs_require_all_steps ? 'true' : 'false',
    time_zone: props.settings.time_zone,
  });
  const v = values.now;
  const form = useApiForm({
    fields: values.names,
    send: (key) =>
      call(
        api.PATCH('/api/v1/lab-settings', {
          params: { header: { 'idempotency-key': key } },
          body: {
            subculture_interval_days: countOf(v.subculture_interval_days) ?? Number.NaN,
            sop_runs_require_all_steps: v.sop_runs_require_all_steps === 'true',
            time_zone: v.time_zone.trim(),
          },
        }),
      ),
    onSuccess: () => setSaved(s.saved),
  });
  const field = bindFields(form, values);
  return (
    <BenchForm title={s.title} heading={false} lead={s.lead} save={s.save} form={form}>
      <NumberField
        {...field.value('subculture_interval_days')}
        label={s.interval}
        hint={s.intervalHint}
      />
      <SelectField
        {...field.select('sop_runs_require_all_steps')}
        label={s.requireAll}
        hint={s.requireAllHint}
        options={[
          ['false', s.no],
          ['true', s.yes],
        ]}
      />
      <TextField
        {...field.text('time_zone')}
        label={s.timeZone}
        hint={s.timeZoneHint}
        autocomplete="off"
      />
      <Saved message={saved} />
    </BenchForm>
  );
}
