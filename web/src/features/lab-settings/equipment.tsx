import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../../api/client';
import { BenchForm } from '../../forms/bench-form';
import { bindFields, FormError, SelectField, TextAreaField, TextField } from '../../forms/fields';
import { hasError, useApiForm, useFormValues } from '../../forms/form';
import { Confirm, PagedRows } from '../../ui/list';
import { usePagedList } from '../../ui/paged';
import { Chip, More } from '../../ui/parts';
import { SettingsHeader, Saved, useCanChange } from './parts';
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
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const list = usePagedList<Equipment>((cursor) =>
    call(
      api.GET('/api/v1/equipment', {
        params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } },
      }),
    ),
  );
  return (
    <>
      <SettingsHeader title={s.title} lead={s.lead} canChange={canChange}>
        {!adding && (
          <button type="button" class="button button-primary" onClick={() => setAdding(true)}>
            {s.add}
          </button>
        )}
      </SettingsHeader>
      {adding && (
        <EquipmentForm
          onCancel={() => setAdding(false)}
          onSaved={(piece) => {
            list.upsert(piece, true);
            setAdding(false);
            setNotice(s.added(piece.name));
          }}
        />
      )}
      <Saved message={notice} />
      <PagedRows
        list={list}
        loading={s.loading}
        empty={s.empty}
        more={s.more}
        row={(piece) => (
          <EquipmentRow
            key={piece.id}
            piece={piece}
            canChange={canChange}
            onChange={(changed) => list.upsert(changed)}
          />
        )}
      />
    </>
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
  const [confirming, setConfirming] = useState(false);
  const status = useApiForm({
    fields: [],
    send: (key) =>
      call(
        api.PATCH('/api/v1/equipment/{id}', {
          params: { path: { id: piece.id }, header: { 'idempotency-key': key } },
          body: { status: retired ? 'active' : 'archived' },
        }),
      ),
    onSuccess: (changed) => {
      setConfirming(false);
      props.onChange(changed);
    },
  });
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
      {props.canChange && !editing && !confirming && (
        <div class="row-actions">
          <button
            type="button"
            class="button"
            aria-label={`${s.edit} ${piece.name}`}
            onClick={() => setEditing(true)}
          >
            {s.edit}
          </button>
          {retired ? (
            <button
              type="button"
              class="button"
              aria-label={`${s.restore} ${piece.name}`}
              disabled={status.busy}
              onClick={() => void status.submit()}
            >
              {s.restore}
            </button>
          ) : (
            <button
              type="button"
              class="button button-quiet"
              aria-label={`${s.retire} ${piece.name}`}
              onClick={() => setConfirming(true)}
            >
              {s.retire}
            </button>
          )}
        </div>
      )}
      <FormError message={status.formError} />
      {confirming && (
        <Confirm
          label={`${s.retire} ${piece.name}`}
          question={s.retireQuestion(piece.name)}
          yes={s.retireYes}
          no={strings.cancel}
          busy={status.busy}
          tone="primary"
          focus
          onYes={() => void status.submit()}
          onNo={() => setConfirming(false)}
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
