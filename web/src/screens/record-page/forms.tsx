import { useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import type { operations } from '../../api/schema';
import {
  countOf,
  DateField,
  FormError,
  NumberField,
  SelectField,
  TextAreaField,
  TextField,
} from '../../forms/fields';
import { useApiForm, type ApiForm } from '../../forms/form';
import { More } from '../../ui/parts';
import { words } from '../record-words';
import { useRecordPage } from './context';
import { strings } from './strings';

type ContaminationBody =
  operations['createContamination']['requestBody']['content']['application/json'];
type ContaminationType = ContaminationBody['type'];
type Severity = NonNullable<ContaminationBody['severity']>;
type Source = NonNullable<ContaminationBody['suspected_source']>;

const TYPES: readonly ContaminationType[] = [
  'mold',
  'bacteria',
  'fungal',
  'yeast',
  'algae',
  'endophytic',
  'viral',
  'hyperhydricity',
  'phenolic',
  'physiological',
  'contaminated_media',
  'damage',
  'insect',
  'other',
];
const SEVERITIES: readonly Severity[] = ['very low', 'low', 'medium', 'high', 'critical'];
const SOURCES: readonly Source[] = [
  'airborne',
  'cross',
  'media',
  'observed',
  'tool',
  'transferred',
  'unknown',
];

/** Whether the API's refusal names one of these fields (kept behind "More"). */
const hasError = (form: ApiForm<unknown>, fields: readonly string[]) =>
  fields.some((field) => form.errorFor(field) !== null);

const text = (value: string) => (value.trim() === '' ? undefined : value.trim());

function FormButtons(props: { save: string; busy: boolean; onCancel: () => void }) {
  return (
    <div class="actions">
      <button type="submit" class="button button-primary" disabled={props.busy}>
        {props.save}
      </button>
      <button type="button" class="button button-quiet" onClick={props.onCancel}>
        {strings.actions.cancel}
      </button>
    </div>
  );
}

/** Moves the record into another stage of the lab's list (POST /stages). */
export function StageForm(props: { onCancel: () => void }) {
  const page = useRecordPage();
  const index = page.stages.findIndex((s) => s.key === page.currentStage);
  // The next stage of the list is the usual move; the current one is still offered.
  const [stage, setStage] = useState(
    page.stages[index + 1]?.key ?? page.stages[0]?.key ?? page.currentStage ?? '',
  );
  const [room, setRoom] = useState(page.currentRoom ?? '');
  const [enteredOn, setEnteredOn] = useState('');
  const [notes, setNotes] = useState('');
  const form = useApiForm({
    fields: ['stage', 'room_id', 'entered_on', 'notes'],
    send: (key) =>
      call(
        api.POST('/api/v1/stages', {
          params: { header: { 'idempotency-key': key } },
          body: {
            ...page.ref,
            stage,
            ...(room ? { room_id: room } : {}),
            ...(enteredOn ? { entered_on: enteredOn } : {}),
            ...(text(notes) ? { notes: text(notes) } : {}),
          },
        }),
      ),
    onSuccess: (moved) => page.changed(strings.done.stage(page.stageName(moved.stage))),
  });
  return (
    <form
      class="form"
      noValidate
      aria-label={strings.stage.title}
      onSubmit={(event) => void form.submit(event)}
    >
      <h2>{strings.stage.title}</h2>
      <FormError message={form.formError} />
      <SelectField
        name="stage"
        label={strings.stage.stage}
        error={form.errorFor('stage')}
        options={page.stages.map((s) => [s.key, s.name] as const)}
        value={stage}
        onChange={setStage}
      />
      <SelectField
        name="room_id"
        label={strings.stage.room}
        error={form.errorFor('room_id')}
        options={[['', strings.stage.noRoom], ...page.rooms.map((r) => [r.id, r.name] as const)]}
        value={room}
        onChange={setRoom}
      />
      <More open={hasError(form, ['entered_on', 'notes'])}>
        <DateField
          name="entered_on"
          label={strings.stage.enteredOn}
          hint={strings.stage.enteredOnHint}
          error={form.errorFor('entered_on')}
          value={enteredOn}
          onInput={setEnteredOn}
        />
        <TextAreaField
          name="notes"
          label={strings.stage.notes}
          error={form.errorFor('notes')}
          value={notes}
          onInput={(event) => setNotes(event.currentTarget.value)}
        />
      </More>
      <FormButtons save={strings.stage.save} busy={form.busy} onCancel={props.onCancel} />
    </form>
  );
}

/** Records a transfer onto fresh medium (POST /transfers); an explant's with its new counts. */
export function TransferForm(props: { onCancel: () => void }) {
  const page = useRecordPage();
  const counts = page.kind === 'explant';
  const [vessels, setVessels] = useState('');
  const [plantlets, setPlantlets] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState(page.roomName(page.currentRoom) ?? '');
  const [date, setDate] = useState('');
  const [cycle, setCycle] = useState('');
  const [notes, setNotes] = useState('');
  const form = useApiForm({
    fields: [
      'vessel_count',
      'plantlet_count',
      'from_location',
      'to_location',
      'transfer_date',
      'transfer_cycle',
      'notes',
    ],
    send: (key) =>
      call(
        api.POST('/api/v1/transfers', {
          params: { header: { 'idempotency-key': key } },
          body: {
            ...page.ref,
            ...(counts && countOf(vessels) !== undefined ? { vessel_count: countOf(vessels) } : {}),
            ...(counts && countOf(plantlets) !== undefined
              ? { plantlet_count: countOf(plantlets) }
              : {}),
            ...(text(from) ? { from_location: text(from) } : {}),
            ...(text(to) ? { to_location: text(to) } : {}),
            ...(date ? { transfer_date: date } : {}),
            ...(countOf(cycle) !== undefined ? { transfer_cycle: countOf(cycle) } : {}),
            ...(text(notes) ? { notes: text(notes) } : {}),
          },
        }),
      ),
    onSuccess: (transfer) => page.changed(strings.done.transfer(transfer.transfer_cycle)),
  });
  return (
    <form
      class="form"
      noValidate
      aria-label={strings.transfer.title}
      onSubmit={(event) => void form.submit(event)}
    >
      <h2>{strings.transfer.title}</h2>
      <FormError message={form.formError} />
      {counts && (
        <div class="field-pair">
          <NumberField
            name="vessel_count"
            label={strings.transfer.vessels}
            hint={strings.transfer.vesselsHint}
            error={form.errorFor('vessel_count')}
            value={vessels}
            onInput={setVessels}
          />
          <NumberField
            name="plantlet_count"
            label={strings.transfer.plantlets}
            error={form.errorFor('plantlet_count')}
            value={plantlets}
            onInput={setPlantlets}
          />
        </div>
      )}
      <TextField
        name="to_location"
        label={strings.transfer.to}
        hint={strings.transfer.toHint}
        error={form.errorFor('to_location')}
        value={to}
        autocomplete="off"
        onInput={(event) => setTo(event.currentTarget.value)}
      />
      <More open={hasError(form, ['from_location', 'transfer_date', 'transfer_cycle', 'notes'])}>
        <TextField
          name="from_location"
          label={strings.transfer.from}
          hint={strings.transfer.fromHint}
          error={form.errorFor('from_location')}
          value={from}
          autocomplete="off"
          onInput={(event) => setFrom(event.currentTarget.value)}
        />
        <DateField
          name="transfer_date"
          label={strings.transfer.date}
          hint={strings.transfer.dateHint}
          error={form.errorFor('transfer_date')}
          value={date}
          onInput={setDate}
        />
        <NumberField
          name="transfer_cycle"
          label={strings.transfer.cycle}
          hint={strings.transfer.cycleHint}
          error={form.errorFor('transfer_cycle')}
          value={cycle}
          onInput={setCycle}
        />
        <TextAreaField
          name="notes"
          label={strings.transfer.notes}
          error={form.errorFor('notes')}
          value={notes}
          onInput={(event) => setNotes(event.currentTarget.value)}
        />
      </More>
      <FormButtons save={strings.transfer.save} busy={form.busy} onCancel={props.onCancel} />
    </form>
  );
}

/** Reports a contamination seen on the record (POST /contaminations). */
export function ContaminationForm(props: { onCancel: () => void }) {
  const page = useRecordPage();
  const [type, setType] = useState<ContaminationType>('mold');
  const [typeOther, setTypeOther] = useState('');
  const [issue, setIssue] = useState('');
  const [severity, setSeverity] = useState<Severity>('low');
  const [vessels, setVessels] = useState('');
  const [source, setSource] = useState<Source | ''>('');
  const [markings, setMarkings] = useState('');
  const [notes, setNotes] = useState('');
  const form = useApiForm({
    fields: [
      'type',
      'type_other',
      'issue',
      'severity',
      'vessels_affected',
      'suspected_source',
      'affected_vessel_markings',
      'notes',
    ],
    send: (key) =>
      call(
        api.POST('/api/v1/contaminations', {
          params: { header: { 'idempotency-key': key } },
          body: {
            ...page.ref,
            type,
            ...(type === 'other' && text(typeOther) ? { type_other: text(typeOther) } : {}),
            issue: issue.trim(),
            severity,
            ...(countOf(vessels) !== undefined ? { vessels_affected: countOf(vessels) } : {}),
            ...(source ? { suspected_source: source } : {}),
            ...(text(markings) ? { affected_vessel_markings: text(markings) } : {}),
            ...(text(notes) ? { notes: text(notes) } : {}),
          },
        }),
      ),
    onSuccess: () => page.changed(strings.done.contamination),
  });
  return (
    <form
      class="form"
      noValidate
      aria-label={strings.contamination.title}
      onSubmit={(event) => void form.submit(event)}
    >
      <h2>{strings.contamination.title}</h2>
      <FormError message={form.formError} />
      <TextField
        name="issue"
        label={strings.contamination.issue}
        hint={strings.contamination.issueHint}
        error={form.errorFor('issue')}
        value={issue}
        autocomplete="off"
        onInput={(event) => setIssue(event.currentTarget.value)}
      />
      <div class="field-pair">
        <SelectField
          name="type"
          label={strings.contamination.type}
          error={form.errorFor('type')}
          options={TYPES.map((t) => [t, words(t)] as const)}
          value={type}
          onChange={(value) => setType(value as ContaminationType)}
        />
        <SelectField
          name="severity"
          label={strings.contamination.severity}
          error={form.errorFor('severity')}
          options={SEVERITIES.map((s) => [s, s] as const)}
          value={severity}
          onChange={(value) => setSeverity(value as Severity)}
        />
      </div>
      {type === 'other' && (
        <TextField
          name="type_other"
          label={strings.contamination.typeOther}
          hint={strings.contamination.typeOtherHint}
          error={form.errorFor('type_other')}
          value={typeOther}
          autocomplete="off"
          onInput={(event) => setTypeOther(event.currentTarget.value)}
        />
      )}
      <NumberField
        name="vessels_affected"
        label={strings.contamination.vessels}
        error={form.errorFor('vessels_affected')}
        value={vessels}
        onInput={setVessels}
      />
      <More open={hasError(form, ['suspected_source', 'affected_vessel_markings', 'notes'])}>
        <SelectField
          name="suspected_source"
          label={strings.contamination.source}
          error={form.errorFor('suspected_source')}
          options={[
            ['', strings.contamination.unknownSource],
            ...SOURCES.map((s) => [s, s] as const),
          ]}
          value={source}
          onChange={(value) => setSource(value as Source | '')}
        />
        <TextField
          name="affected_vessel_markings"
          label={strings.contamination.markings}
          hint={strings.contamination.markingsHint}
          error={form.errorFor('affected_vessel_markings')}
          value={markings}
          autocomplete="off"
          onInput={(event) => setMarkings(event.currentTarget.value)}
        />
        <TextAreaField
          name="notes"
          label={strings.contamination.notes}
          error={form.errorFor('notes')}
          value={notes}
          onInput={(event) => setNotes(event.currentTarget.value)}
        />
      </More>
      <FormButtons save={strings.contamination.save} busy={form.busy} onCancel={props.onCancel} />
    </form>
  );
}
