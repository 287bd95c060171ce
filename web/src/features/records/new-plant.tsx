import { api, call, type Schemas } from '../../api/client';
import { BenchForm } from '../../forms/bench-form';
import { bindFields, SelectField, TextAreaField, TextField } from '../../forms/fields';
import { given, hasError, textOf, useApiForm, useFormValues } from '../../forms/form';
import { More, Notice } from '../../ui/parts';
import { CustomInputs, customFieldsOf, emptyCustomValues } from './custom-inputs';
import { useLabLists, type LabLists } from './lab-lists';
import { strings } from './strings';

type Plant = Schemas['Plant'];

/** The plant stage a new plant starts in unless told otherwise (the API's default). */
const USUAL_FIRST_STAGE = 'mother_block';

/** New plant: the form, once the lab's stages, rooms and own fields are read. */
export function NewPlant(props: { onCreated: (plant: Plant) => void; onCancel: () => void }) {
  const loaded = useLabLists('plant');
  if (loaded === null) return <p class="panel muted">{strings.newPlant.loading}</p>;
  if ('failure' in loaded) return <Notice tone="bad">{loaded.failure.error}</Notice>;
  return <NewPlantForm lists={loaded.lists} {...props} />;
}

/** POST /plants: only the species is needed; the first stage and room open its history. */
function NewPlantForm(props: {
  lists: LabLists;
  onCreated: (plant: Plant) => void;
  onCancel: () => void;
}) {
  const { stages, rooms, fields } = props.lists;
  const s = strings.newPlant;
  const values = useFormValues({
    species: '',
    common_name: '',
    initial_stage:
      (stages.find((stage) => stage.key === USUAL_FIRST_STAGE) ?? stages[0])?.key ?? '',
    room_id: '',
    cultivar: '',
    external_id: '',
    notes: '',
  });
  const custom = useFormValues(emptyCustomValues(fields));
  const v = values.now;
  const form = useApiForm({
    fields: [...values.names, ...custom.names],
    send: (key) =>
      call(
        api.POST('/api/v1/plants', {
          params: { header: { 'idempotency-key': key } },
          body: {
            species: v.species.trim(),
            ...given({
              common_name: textOf(v.common_name),
              initial_stage: v.initial_stage || undefined,
              room_id: v.room_id || undefined,
              cultivar: textOf(v.cultivar),
              external_id: textOf(v.external_id),
              notes: textOf(v.notes),
              custom_fields: customFieldsOf(fields, custom.now),
            }),
          },
        }),
      ),
    onSuccess: props.onCreated,
  });
  const field = bindFields(form, values);
  const hidden = ['cultivar', 'external_id', 'notes', ...custom.names];
  return (
    <BenchForm
      panel
      noValidate
      title={s.title}
      lead={s.lead}
      save={s.save}
      form={form}
      onCancel={props.onCancel}
    >
      <TextField
        {...field.text('species')}
        label={s.species}
        hint={s.speciesHint}
        required
        autocomplete="off"
        maxLength={200}
      />
      <TextField
        {...field.text('common_name')}
        label={s.commonName}
        hint={s.commonNameHint}
        autocomplete="off"
        maxLength={200}
      />
      <div class="field-pair field-pair-wide">
        <SelectField
          {...field.select('initial_stage')}
          label={s.stage}
          options={stages.map((stage) => [stage.key, stage.name] as const)}
        />
        <SelectField
          {...field.select('room_id')}
          label={s.room}
          options={[['', s.noRoom], ...rooms.map((room) => [room.id, room.name] as const)]}
        />
      </div>
      <More label={s.more} open={hasError(form, hidden)}>
        <TextField
          {...field.text('cultivar')}
          label={s.cultivar}
          autocomplete="off"
          maxLength={200}
        />
        <TextField
          {...field.text('external_id')}
          label={s.externalId}
          hint={s.externalIdHint}
          autocomplete="off"
          maxLength={100}
        />
        <CustomInputs fields={fields} form={form} values={custom} />
        <TextAreaField {...field.text('notes')} label={s.notes} maxLength={5000} />
      </More>
    </BenchForm>
  );
}
