import type { VNode } from 'preact';
import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, call } from '../../api/client';
import { BenchForm } from '../../forms/bench-form';
import { bindFields, SelectField, TextAreaField } from '../../forms/fields';
import { given, textOf, useApiForm, useFormValues } from '../../forms/form';
import { useSignedIn } from '../../api/session';
import { useAnswer } from '../../ui/answer';
import { personName, usePeopleNames } from '../../ui/people';
import { Chip, GridFact, ScreenHeader, TimeAgo } from '../../ui/parts';
import { useRecordScreen } from '../../ui/record-screen';
import { useTitle } from '../../ui/title';
import {
  contaminationTone,
  isOpen,
  OUTCOMES,
  outcomeWords,
  typeWords,
  type Contamination as Log,
  type Outcome,
} from './model';
import { recordHref } from '../../ui/links';
import { words } from '../../ui/words';
import { strings } from './strings';

export default function Contamination() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const screen = useRecordScreen<Log>(
    () => call(api.GET('/api/v1/contaminations/{id}', { params: { path: { id } } })),
    id,
    {
      href: '/contaminations',
      back: strings.page.back,
      loading: strings.page.loading,
      small: true,
    },
  );
  useTitle(screen.record?.issue ?? strings.page.title);
  if (screen.record === null) return screen.fallback;
  return <Page record={screen.record} back={screen.back} onChange={screen.setRecord} />;
}

function Page(props: { record: Log; back: VNode; onChange: (record: Log) => void }) {
  const { record: c } = props;
  const { atLeast } = useSignedIn();
  const people = usePeopleNames();
  const [done, setDone] = useState(false);
  const nameOf = (id: string | null) =>
    id === null ? '–' : personName(people, id, strings.page.someone);
  const room = useAnswer(
    () =>
      c.room_id === null
        ? Promise.resolve({ ok: true as const, data: null, nextCursor: null })
        : call(api.GET('/api/v1/rooms/{id}', { params: { path: { id: c.room_id } } })),
    [c.room_id],
  );
  const count = (n: number | null) => (n === null ? strings.page.notCounted : String(n));
  return (
    <>
      {props.back}
      <ScreenHeader title={c.issue}>
        <div class="header-chips">
          <Chip tone={contaminationTone(c.status)}>{words(c.status)}</Chip>
          <Chip tone={c.severity === 'high' || c.severity === 'critical' ? 'bad' : 'info'}>
            {words(c.severity)}
          </Chip>
        </div>
      </ScreenHeader>
      <Records plantIds={c.plant_ids} explantIds={c.explant_ids} />
      {c.resolved_at !== null && (
        <section class="panel" aria-labelledby="resolution">
          <h2 id="resolution">{strings.page.resolution}</h2>
          {done && (
            <p role="status" class="notice notice-info">
              {strings.page.resolved}
            </p>
          )}
          <dl class="facts facts-grid">
            <GridFact term={strings.page.outcome}>
              {c.resolution_outcome ? outcomeWords(c.resolution_outcome) : '–'}
            </GridFact>
            <GridFact term={strings.page.resolvedAt}>
              <TimeAgo at={c.resolved_at} />
            </GridFact>
            <GridFact term={strings.page.resolvedBy}>{nameOf(c.resolved_by)}</GridFact>
            {c.resolution_notes && (
              <GridFact term={strings.page.resolutionNotes}>{c.resolution_notes}</GridFact>
            )}
          </dl>
        </section>
      )}
      {isOpen(c) && atLeast('member') && (
        <Resolve
          record={c}
          onResolved={(resolved) => {
            setDone(true);
            props.onChange(resolved);
          }}
        />
      )}
      <section class="panel" aria-labelledby="facts">
        <h2 id="facts">{strings.page.facts}</h2>
        <dl class="facts facts-grid">
          <GridFact term={strings.page.type}>{typeWords(c)}</GridFact>
          <GridFact term={strings.page.severity}>{words(c.severity)}</GridFact>
          <GridFact term={strings.page.status}>{words(c.status)}</GridFact>
          <GridFact term={strings.page.observed}>
            <TimeAgo at={c.observed_at ?? c.created_at} />
          </GridFact>
          <GridFact term={strings.page.loggedBy}>{nameOf(c.logged_by)}</GridFact>
          {c.stage && <GridFact term={strings.page.stage}>{c.stage}</GridFact>}
          {c.room_id !== null && (
            <GridFact term={strings.page.room}>
              <a href={recordHref.room(c.room_id)}>
                {room?.ok && room.data ? room.data.name : c.room_id}
              </a>
            </GridFact>
          )}
          <GridFact term={strings.page.vessels}>{count(c.vessels_affected)}</GridFact>
          <GridFact term={strings.page.plants}>{count(c.plants_affected)}</GridFact>
          {c.affected_vessel_markings && (
            <GridFact term={strings.page.markings}>{c.affected_vessel_markings}</GridFact>
          )}
          {c.suspected_source && (
            <GridFact term={strings.page.source}>{words(c.suspected_source)}</GridFact>
          )}
          {c.description && <GridFact term={strings.page.description}>{c.description}</GridFact>}
          {c.notes && <GridFact term={strings.page.notes}>{c.notes}</GridFact>}
        </dl>
      </section>
    </>
  );
}

/** The plants and explants the log is on, by name, each linking to its record. */
function Records(props: { plantIds: readonly string[]; explantIds: readonly string[] }) {
  const names = useAnswer<{ href: string; kind: string; label: string }[]>(async () => {
    const plants = await Promise.all(
      props.plantIds.map((id) =>
        call(api.GET('/api/v1/plants/{id}', { params: { path: { id } } })),
      ),
    );
    const explants = await Promise.all(
      props.explantIds.map((id) =>
        call(api.GET('/api/v1/explants/{id}', { params: { path: { id } } })),
      ),
    );
    return {
      ok: true,
      nextCursor: null,
      data: [
        ...props.plantIds.map((id, i) => {
          const p = plants[i]!;
          return {
            href: recordHref.plant(id),
            kind: strings.page.plant,
            label: p.ok ? `${p.data.name} (${p.data.species})` : id,
          };
        }),
        ...props.explantIds.map((id, i) => {
          const e = explants[i]!;
          return {
            href: recordHref.explant(id),
            kind: strings.page.explant,
            label: e.ok ? (e.data.label ?? e.data.external_id ?? id) : id,
          };
        }),
      ],
    };
  }, [props.plantIds.join(), props.explantIds.join()]);
  if (names === null || !names.ok || names.data.length === 0) return null;
  return (
    <p class="record-links">
      {strings.page.records}:{' '}
      {names.data.map((record, i) => (
        <span key={record.href}>
          {i > 0 && ', '}
          {record.kind} <a href={record.href}>{record.label}</a>
        </span>
      ))}
    </p>
  );
}

function Resolve(props: { record: Log; onResolved: (record: Log) => void }) {
  const values = useFormValues({ outcome: 'discarded', notes: '' });
  const v = values.now;
  const form = useApiForm({
    fields: values.names,
    send: (key) =>
      call(
        api.POST('/api/v1/contaminations/{id}/resolve', {
          params: { path: { id: props.record.id }, header: { 'idempotency-key': key } },
          body: { outcome: v.outcome as Outcome, ...given({ notes: textOf(v.notes) }) },
        }),
      ),
    onSuccess: props.onResolved,
  });
  const field = bindFields(form, values);
  return (
    <BenchForm
      panel
      title={strings.page.resolveTitle}
      lead={strings.page.resolveLead}
      save={strings.page.resolve}
      form={form}
    >
      <SelectField {...field.select('outcome')} label={strings.page.outcome} options={OUTCOMES} />
      <TextAreaField
        {...field.text('notes')}
        label={strings.page.resolveNotes}
        hint={strings.page.resolveNotesHint}
        maxLength={5000}
      />
    </BenchForm>
  );
}
