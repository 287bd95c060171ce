import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../../api/client';
import { BenchForm } from '../../forms/bench-form';
import { bindFields, SelectField, TextAreaField, TextField } from '../../forms/fields';
import { hasError, useApiForm, useFormValues } from '../../forms/form';
import { usePagedList } from '../../ui/paged';
import { Chip, More } from '../../ui/parts';
import { EditAndArchive, SettingsList } from './list-screen';
import { useCanChange } from './parts';
import { strings } from './strings';

type Equipment = Schemas['Equipment'];
const s = strings.equipment;
/** The API's kinds of equipment (its `category`), each with the name people read. */
type Category = keyof typeof s.categories;
const CATEGORIES = Object.entries(s.categories) as [Category, string][];
const DETAILS = ['manufacturer', 'model', 'serial_number', 'location', 'notes'] as const;

/** The lab's equipment library: new pieces, edits, retired and back. */
export default function EquipmentSettings() {
  const canChange = useCanChange();
  const list = usePagedList<Equipment>((cursor) =>
    call(
      api.GET('/api/v1/equipment', {
        params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } },
      }),
    ),
  );
  return (
    <SettingsList
      words={s}
      canChange={canChange}
      list={list}
      newForm={(added, cancel) => (
        <EquipmentForm onCancel={cancel} onSaved={(piece) => added(piece, s.added(piece.name))} />
      )}
      row={(piece) => (
        <EquipmentRow
          key={piece.id}
          piece={piece}
          canChange={canChange}
          onChange={(changed) => list.upsert(changed)}
        />
      )}
    />
  );
}

/** What a blank field sends: null clears it on an edit; a new piece leaves it out. */
const orNull = (value: string) => (value.trim() === '' ? null : value.trim());

function EquipmentForm(props: {
  piece?: Equipment;
  onSaved: (piece: Equipment) => void;
  onCancel: () => void;
}) {
  const { piece } = props;
  const values = useFormValues({
    name: piece?.name ?? '',
    category: piece?.category ?? 'laminar_flow_hood',
    manufacturer: piece?.manufacturer ?? '',
    model: piece?.model ?? '',
    serial_number: piece?.serial_number ?? '',
    location: piece?.location ?? '',
    notes: piece?.notes ?? '',
  });
  const v = values.now;
  const body = () => ({
    name: v.name.trim(),
    category: v.category as Category,
    ...Object.fromEntries(DETAILS.map((name) => [name, orNull(v[name])])),
  });
  const form = useApiForm({
    fields: values.names,
    send: (key) =>
      piece
        ? call(
            api.PATCH('/api/v1/equipment/{id}', {
              params: { path: { id: piece.id }, header: { 'idempotency-key': key } },
              body: body(),
            }),
          )
        : call(
            api.POST('/api/v1/equipment', {
              params: { header: { 'idempotency-key': key } },
              body: body(),
            }),
          ),
    onSuccess: props.onSaved,
  });
  const field = bindFields(form, values);
  return (
    <BenchForm
      panel={piece === undefined}
      heading={piece === undefined}
      title={piece ? s.editTitle(piece.name) : s.addTitle}
      save={piece ? s.saveEdit : s.save}
      form={form}
      onCancel={props.onCancel}
    >
      <TextField
        {...field.text('name')}
        label={s.name}
        required
        autocomplete="off"
        maxLength={200}
      />
      <SelectField {...field.select('category')} label={s.category} options={CATEGORIES} />
      <More open={hasError(form, DETAILS) || undefined}>
        <TextField {...field.text('manufacturer')} label={s.manufacturer} autocomplete="off" />
        <TextField {...field.text('model')} label={s.model} autocomplete="off" />
        <TextField {...field.text('serial_number')} label={s.serial} autocomplete="off" />
        <TextField {...field.text('location')} label={s.location} autocomplete="off" />
        <TextAreaField {...field.text('notes')} label={s.notes} />
      </More>
    </BenchForm>
  );
}

function EquipmentRow(props: {
  piece: Equipment;
  canChange: boolean;
  onChange: (piece: Equipment) => void;
}) {
  const { piece } = props;
  const retired = piece.status === 'archived';
  const [editing, setEditing] = useState(false);
  const kind = s.categories[piece.category as Category] ?? piece.category;
  return (
    <li class="row" data-equipment={piece.id}>
      <div class="row-main">
        <p class="row-title">{piece.name}</p>
        <p class="muted small">
          {[kind, piece.manufacturer, piece.model, piece.location].filter(Boolean).join(' · ')}
        </p>
      </div>
      <div class="row-status">
        <Chip tone={retired ? 'off' : 'ok'}>{retired ? s.retired : s.active}</Chip>
      </div>
      {props.canChange && !editing && (
        <EditAndArchive
          name={piece.name}
          archived={retired}
          words={{
            edit: s.edit,
            archive: s.retire,
            restore: s.restore,
            question: s.retireQuestion(piece.name),
            yes: s.retireYes,
          }}
          onEdit={() => setEditing(true)}
          send={(key) =>
            call(
              api.PATCH('/api/v1/equipment/{id}', {
                params: { path: { id: piece.id }, header: { 'idempotency-key': key } },
                body: { status: retired ? 'active' : 'archived' },
              }),
            )
          }
          onChange={props.onChange}
        />
      )}
      {editing && (
        <div class="row-wide">
          <EquipmentForm
            piece={piece}
            onCancel={() => setEditing(false)}
            onSaved={(changed) => {
              setEditing(false);
              props.onChange(changed);
            }}
          />
        </div>
      )}
    </li>
  );
}
