import type { VNode } from 'preact';
import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, call } from '../../api/client';
import { BenchForm } from '../../forms/bench-form';
import { bindFields, SelectField, TextAreaField } from '../../forms/fields';
import { given, textOf, useApiForm, useFormValues } from '../../forms/form';
import { useSignedIn } from '../../api/session';
import { useAnswer } from '../../ui/answer';
import { usePeopleNames } from '../../ui/people';
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
import { recordHref, words } from '../records/model';

const strings = {
  title: 'Contamination',
  back: 'All contaminations',
  loading: 'Loading the contamination…',
  facts: 'What was seen',
  type: 'Type',
  severity: 'Severity',
  status: 'Status',
  observed: 'Observed',
  loggedBy: 'Recorded by',
  stage: 'Stage when seen',
  room: 'Room',
  vessels: 'Vessels affected',
  plants: 'Plants affected',
  notCounted: 'not counted',
  markings: 'Vessel markings',
  source: 'Suspected source',
  description: 'Description',
  notes: 'Notes',
  records: 'On',
  plant: 'Plant',
  explant: 'Explant',
  resolution: 'Resolution',
  outcome: 'Outcome',
  resolvedAt: 'Resolved',
  resolvedBy: 'Resolved by',
  resolutionNotes: 'Notes',
  resolveTitle: 'Resolve',
  resolveLead: 'How did it end? The plant’s or explant’s history records it, with your name.',
  resolveNotes: 'Notes (optional)',
  resolveNotesHint: 'What was done, e.g. “3 jars autoclaved, rest moved to quarantine shelf”.',
  resolve: 'Resolve contamination',
  resolved: 'Resolved.',
  someone: 'a former member',
} as const;

export default function Contamination() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const screen = useRecordScreen<Log>(
    () => call(api.GET('/api/v1/contaminations/{id}', { params: { path: { id } } })),
    id,
    { href: '/contaminations', back: strings.back, loading: strings.loading, small: true },
  );
  useTitle(screen.record?.issue ?? strings.title);
  if (screen.record === null) return screen.fallback;
  return <Page record={screen.record} back={screen.back} onChange={screen.setRecord} />;
}

function Page(props: { record: Log; back: VNode; onChange: (record: Log) => void }) {
  const { record: c } = props;
  const { atLeast } = useSignedIn();
  const people = usePeopleNames();
  const [done, setDone] = useState(false);
  const nameOf = (id: string | null) => (id === null ? '–' : (people.get(id) ?? strings.someone));
  const room = useAnswer(
    () =>
      c.room_id === null
        ? Promise.resolve({ ok: true as const, data: null, nextCursor: null })
        : call(api.GET('/api/v1/rooms/{id}', { params: { path: { id: c.room_id } } })),
    [c.room_id],
  );
  const count = (n: number | null) => (n === null ? strings.notCounted : String(n));
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
          <h2 id="resolution">{strings.resolution}</h2>
          {done && (
            <p role="status" class="notice notice-info">
              {strings.resolved}
            </p>
          )}
          <dl class="facts facts-grid">
            <GridFact term={strings.outcome}>
              {c.resolution_outcome ? outcomeWords(c.resolution_outcome) : '–'}
            </GridFact>
            <GridFact term={strings.resolvedAt}>
              <TimeAgo at={c.resolved_at} />
            </GridFact>
            <GridFact term={strings.resolvedBy}>{nameOf(c.resolved_by)}</GridFact>
            {c.resolution_notes && (
              <GridFact term={strings.resolutionNotes}>{c.resolution_notes}</GridFact>
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
        <h2 id="facts">{strings.facts}</h2>
        <dl class="facts facts-grid">
          <GridFact term={strings.type}>{typeWords(c)}</GridFact>
          <GridFact term={strings.severity}>{words(c.severity)}</GridFact>
          <GridFact term={strings.status}>{words(c.status)}</GridFact>
          <GridFact term={strings.observed}>
            <TimeAgo at={c.observed_at ?? c.created_at} />
          </GridFact>
          <GridFact term={strings.loggedBy}>{nameOf(c.logged_by)}</GridFact>
          {c.stage && <GridFact term={strings.stage}>{c.stage}</GridFact>}
          {c.room_id !== null && (
            <GridFact term={strings.room}>
              <a href={recordHref.room(c.room_id)}>
                {room?.ok && room.data ? room.data.name : c.room_id}
              </a>
            </GridFact>
          )}
          <GridFact term={strings.vessels}>{count(c.vessels_affected)}</GridFact>
          <GridFact term={strings.plants}>{count(c.plants_affected)}</GridFact>
          {c.affected_vessel_markings && (
            <GridFact term={strings.markings}>{c.affected_vessel_markings}</GridFact>
          )}
          {c.suspected_source && (
            <GridFact term={strings.source}>{words(c.suspected_source)}</GridFact>
          )}
          {c.description && <GridFact term={strings.description}>{c.description}</GridFact>}
          {c.notes && <GridFact term={strings.notes}>{c.notes}</GridFact>}
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
            kind: strings.plant,
            label: p.ok ? `${p.data.name} (${p.data.species})` : id,
          };
        }),
        ...props.explantIds.map((id, i) => {
          const e = explants[i]!;
          return {
            href: recordHref.explant(id),
            kind: strings.explant,
            label: e.ok ? (e.data.label ?? e.data.external_id ?? id) : id,
          };
        }),
      ],
    };
  }, [props.plantIds.join(), props.explantIds.join()]);
  if (names === null || !names.ok || names.data.length === 0) return null;
  return (
    <p class="record-links">
      {strings.records}:{' '}
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
      title={strings.resolveTitle}
      lead={strings.resolveLead}
      save={strings.resolve}
      form={form}
    >
      <SelectField {...field.select('outcome')} label={strings.outcome} options={OUTCOMES} />
      <TextAreaField
        {...field.text('notes')}
        label={strings.resolveNotes}
        hint={strings.resolveNotesHint}
      />
    </BenchForm>
  );
}
