import { api, call } from '../../../api/client';
import type { operations } from '../../../api/schema';
import { BenchForm } from '../../../forms/bench-form';
import {
  bindFields,
  DateField,
  NumberField,
  SelectField,
  TextAreaField,
  TextField,
} from '../../../forms/fields';
import { countOf, given, hasError, textOf, useApiForm, useFormValues } from '../../../forms/form';
import { More } from '../../../ui/parts';
import { MediaBatchField, useBatchOptions } from '../../media/picker';
import { words } from '../../../ui/words';
import { useRecordPage } from './context';
import { strings } from '../strings';

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

/** The API's limits of the fields below, shown up front (the browser keeps to them). */
const NOTES_MAX = 5000;
const LOCATION_MAX = 200;
const ISSUE_MAX = 300;
const TYPE_OTHER_MAX = 200;
const MARKINGS_MAX = 500;

/** Moves the record into another stage of the lab's list (POST /stages). */
export function StageForm(props: { onCancel: () => void }) {
  const page = useRecordPage();
  const s = strings.stage;
  const index = page.stages.findIndex((stage) => stage.key === page.currentStage);
  const values = useFormValues({
    // The next stage of the list is the usual move; the current one is still offered.
    stage: page.stages[index + 1]?.key ?? page.stages[0]?.key ?? page.currentStage ?? '',
    room_id: page.currentRoom ?? '',
    entered_on: '',
    notes: '',
  });
  const v = values.now;
  const form = useApiForm({
    fields: values.names,
    send: (key) =>
      call(
        api.POST('/api/v1/stages', {
          params: { header: { 'idempotency-key': key } },
          body: {
            ...page.ref,
            stage: v.stage,
            ...given({
              room_id: v.room_id || undefined,
              entered_on: v.entered_on || undefined,
              notes: textOf(v.notes),
            }),
          },
        }),
      ),
    onSuccess: (moved) => page.saved(strings.done.stage(page.stageName(moved.stage))),
    onQueued: page.kept,
  });
  const field = bindFields(form, values);
  const title = page.currentStage === null ? s.firstTitle : s.title;
  return (
    <BenchForm noValidate title={title} save={s.save} form={form} onCancel={props.onCancel}>
      <SelectField
        {...field.select('stage')}
        label={s.stage}
        options={page.stages.map((stage) => [stage.key, stage.name] as const)}
      />
      <SelectField
        {...field.select('room_id')}
        label={s.room}
        options={[['', s.noRoom], ...page.rooms.map((r) => [r.id, r.name] as const)]}
      />
      <More open={hasError(form, ['entered_on', 'notes'])}>
        <DateField {...field.value('entered_on')} label={s.enteredOn} hint={s.enteredOnHint} />
        <TextAreaField {...field.text('notes')} label={s.notes} maxLength={NOTES_MAX} />
      </More>
    </BenchForm>
  );
}

/** Records a transfer onto fresh medium (POST /transfers); an explant's with its new counts. */
export function TransferForm(props: { onCancel: () => void }) {
  const page = useRecordPage();
  const s = strings.transfer;
  const counts = page.kind === 'explant';
  const values = useFormValues({
    vessel_count: '',
    plantlet_count: '',
    from_location: '',
    to_location: page.roomName(page.currentRoom) ?? '',
    media_batch_id: '',
    transfer_date: '',
    transfer_cycle: '',
    notes: '',
  });
  const v = values.now;
  const form = useApiForm({
    fields: values.names,
    send: (key) =>
      call(
        api.POST('/api/v1/transfers', {
          params: { header: { 'idempotency-key': key } },
          body: {
            ...page.ref,
            ...given({
              vessel_count: counts ? countOf(v.vessel_count) : undefined,
              plantlet_count: counts ? countOf(v.plantlet_count) : undefined,
              from_location: textOf(v.from_location),
              to_location: textOf(v.to_location),
              media_batch_id: v.media_batch_id || undefined,
              transfer_date: v.transfer_date || undefined,
              transfer_cycle: countOf(v.transfer_cycle),
              notes: textOf(v.notes),
            }),
          },
        }),
      ),
    onSuccess: (transfer) => page.saved(strings.done.transfer(transfer.transfer_cycle)),
    onQueued: page.kept,
  });
  const field = bindFields(form, values);
  const batches = useBatchOptions();
  // An explant's transfer without counts, or down to no vessel at all, is asked about first.
  const ask = () => {
    if (!counts) return null;
    if (countOf(v.vessel_count) === undefined && countOf(v.plantlet_count) === undefined) {
      return { question: s.empty, yes: s.emptyYes, no: s.back };
    }
    return countOf(v.vessel_count) === 0 ? { question: s.zero, yes: s.zeroYes, no: s.back } : null;
  };
  return (
    <BenchForm
      noValidate
      title={s.title}
      save={s.save}
      form={form}
      ask={ask}
      onCancel={props.onCancel}
    >
      {counts && (
        <div class="field-pair">
          <NumberField {...field.value('vessel_count')} label={s.vessels} hint={s.vesselsHint} />
          <NumberField
            {...field.value('plantlet_count')}
            label={s.plantlets}
            hint={s.plantletsHint}
          />
        </div>
      )}
      <MediaBatchField {...field.select('media_batch_id')} options={batches} />
      <TextField
        {...field.text('to_location')}
        label={s.to}
        hint={s.toHint}
        autocomplete="off"
        maxLength={LOCATION_MAX}
      />
      <More open={hasError(form, ['from_location', 'transfer_date', 'transfer_cycle', 'notes'])}>
        <TextField
          {...field.text('from_location')}
          label={s.from}
          hint={s.fromHint}
          autocomplete="off"
          maxLength={LOCATION_MAX}
        />
        <DateField {...field.value('transfer_date')} label={s.date} hint={s.dateHint} />
        <NumberField {...field.value('transfer_cycle')} label={s.cycle} hint={s.cycleHint} />
        <TextAreaField {...field.text('notes')} label={s.notes} maxLength={NOTES_MAX} />
      </More>
    </BenchForm>
  );
}

/** Reports a contamination seen on the record (POST /contaminations). */
export function ContaminationForm(props: { onCancel: () => void }) {
  const page = useRecordPage();
  const s = strings.contamination;
  const values = useFormValues({
    type: 'mold',
    type_other: '',
    issue: '',
    severity: 'low',
    vessels_affected: '',
    suspected_source: '',
    affected_vessel_markings: '',
    notes: '',
  });
  const v = values.now;
  const form = useApiForm({
    fields: values.names,
    send: (key) =>
      call(
        api.POST('/api/v1/contaminations', {
          params: { header: { 'idempotency-key': key } },
          body: {
            ...page.ref,
            type: v.type as ContaminationType,
            ...given({ type_other: v.type === 'other' ? textOf(v.type_other) : undefined }),
            issue: v.issue.trim(),
            severity: v.severity as Severity,
            ...given({
              vessels_affected: countOf(v.vessels_affected),
              suspected_source: (v.suspected_source as Source | '') || undefined,
              affected_vessel_markings: textOf(v.affected_vessel_markings),
              notes: textOf(v.notes),
            }),
          },
        }),
      ),
    onSuccess: () => page.saved(strings.done.contamination),
    onQueued: page.kept,
  });
  const field = bindFields(form, values);
  return (
    <BenchForm noValidate title={s.title} save={s.save} form={form} onCancel={props.onCancel}>
      <TextField
        {...field.text('issue')}
        label={s.issue}
        hint={s.issueHint}
        autocomplete="off"
        maxLength={ISSUE_MAX}
      />
      <div class="field-pair">
        <SelectField
          {...field.select('type')}
          label={s.type}
          options={TYPES.map((t) => [t, words(t)] as const)}
        />
        <SelectField
          {...field.select('severity')}
          label={s.severity}
          options={SEVERITIES.map((severity) => [severity, severity] as const)}
        />
      </div>
      {v.type === 'other' && (
        <TextField
          {...field.text('type_other')}
          label={s.typeOther}
          hint={s.typeOtherHint}
          autocomplete="off"
          maxLength={TYPE_OTHER_MAX}
        />
      )}
      <NumberField
        {...field.value('vessels_affected')}
        label={s.vessels}
        hint={strings.transfer.plantletsHint}
      />
      <More open={hasError(form, ['suspected_source', 'affected_vessel_markings', 'notes'])}>
        <SelectField
          {...field.select('suspected_source')}
          label={s.source}
          options={[['', s.unknownSource], ...SOURCES.map((source) => [source, source] as const)]}
        />
        <TextField
          {...field.text('affected_vessel_markings')}
          label={s.markings}
          hint={s.markingsHint}
          autocomplete="off"
          maxLength={MARKINGS_MAX}
        />
        <TextAreaField {...field.text('notes')} label={s.notes} maxLength={NOTES_MAX} />
      </More>
    </BenchForm>
  );
}
