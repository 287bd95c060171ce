import { useMemo, useState } from 'preact/hooks';
import { api, call } from '../../api/client';
import type { operations } from '../../api/schema';
import { useSignedIn } from '../../api/session';
import { BenchForm } from '../../forms/bench-form';
import {
  bindFields,
  DateField,
  NumberField,
  SelectField,
  TextAreaField,
  TextField,
} from '../../forms/fields';
import { countOf, given, hasError, textOf, useApiForm, useFormValues } from '../../forms/form';
import { LoadMore } from '../../ui/list';
import { usePagedList } from '../../ui/paged';
import { Chip, More, Notice, ScreenHeader, type Tone } from '../../ui/parts';
import { recordHref } from '../../ui/links';
import { useTitle } from '../../ui/title';
import {
  lotState,
  quantityText,
  stateRank,
  type LotState,
  type StockItem,
  type StockLot,
} from './model';
import { useLotsOf } from './lots';
import { LOT_WORDS, strings as s } from './strings';

type Category =
  operations['createStockItem']['requestBody']['content']['application/json']['category'];

const LOT_TONES: Readonly<Record<LotState, Tone>> = {
  expired: 'bad',
  low: 'warn',
  expiring: 'warn',
  empty: 'off',
  ok: 'ok',
};

const PAGE = 25;
const NOTES_MAX = 2000;

interface Judged {
  readonly lot: StockLot;
  readonly state: LotState;
}

/** What needs doing first: expired, low, then expiring. */
const NEEDS: readonly LotState[] = ['expired', 'low', 'expiring'];

/**
 * The lab's stock: items page by page, each with its lots; the lots that are expired,
 * low or expiring are gathered first, and the items holding them come first.
 */
export default function Stock() {
  useTitle(s.title);
  const { can, atLeast } = useSignedIn();
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const items = usePagedList<StockItem>((cursor) =>
    call(
      api.GET('/api/v1/stock-items', {
        params: { query: { limit: PAGE, ...(cursor ? { cursor } : {}) } },
      }),
    ),
  );
  const lots = useLotsOf(
    items.items.map((item) => item.id),
    version,
  );
  const now = useMemo(() => Date.now(), [version]);
  const judged = (item: StockItem): Judged[] =>
    (lots?.get(item.id) ?? [])
      .map((lot) => ({ lot, state: lotState(lot, item, now) }))
      .sort((a, b) => stateRank(a.state) - stateRank(b.state));
  const worst = (item: StockItem) => judged(item)[0]?.state ?? 'ok';
  const ordered = [...items.items].sort((a, b) => stateRank(worst(a)) - stateRank(worst(b)));
  const attention = ordered.flatMap((item) =>
    judged(item)
      .filter((j) => NEEDS.includes(j.state))
      .map((j) => ({ ...j, item })),
  );
  attention.sort((a, b) => stateRank(a.state) - stateRank(b.state));
  const changed = (said: string) => {
    setNotice(said);
    setVersion((n) => n + 1);
  };
  const manager = atLeast('manager') && can('write:stock');
  return (
    <>
      <ScreenHeader title={s.title} lead={s.lead}>
        {manager && !adding && (
          <button type="button" class="button button-primary" onClick={() => setAdding(true)}>
            {s.addItem}
          </button>
        )}
      </ScreenHeader>
      {!manager && <p class="muted small">{s.managersOnly}</p>}
      {adding && (
        <NewItem
          onCancel={() => setAdding(false)}
          onSaved={(item) => {
            setAdding(false);
            items.upsert(item, true);
            changed(s.itemAdded(item.name));
          }}
        />
      )}
      {notice && (
        <p role="status" class="notice notice-info">
          {notice}
        </p>
      )}
      {items.failure && <Notice tone="bad">{items.failure.error}</Notice>}
      <section class="panel" aria-labelledby="stock-attention">
        <h2 id="stock-attention">{s.attention}</h2>
        {lots === null ? (
          <p aria-busy="true">{s.loading}</p>
        ) : attention.length === 0 ? (
          <p>{s.attentionNone}</p>
        ) : (
          <ul class="rows">
            {attention.map(({ item, lot, state }) => (
              <LotRow key={lot.id} item={item} lot={lot} state={state} named />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="stock-items">
        <h2 id="stock-items">{s.items}</h2>
        {items.loading && items.items.length === 0 && <p aria-busy="true">{s.loading}</p>}
        {!items.loading && items.items.length === 0 && <p>{s.empty}</p>}
        {ordered.map((item) => (
          <ItemPanel
            key={item.id}
            item={item}
            lots={lots === null ? null : judged(item)}
            canReceive={can('write:stock')}
            onReceived={(lot) => changed(s.lotAdded(lot.lot_number, item.name))}
          />
        ))}
        <LoadMore list={items} label={s.more} />
      </section>
    </>
  );
}

function LotRow(props: { item: StockItem; lot: StockLot; state: LotState; named?: boolean }) {
  const { item, lot, state } = props;
  // The task the API raised for it, while it is what the lot needs.
  const task = state === 'low' ? lot.low_task_id : state === 'expired' ? lot.expired_task_id : null;
  return (
    <li class="row" data-lot={lot.id}>
      <div class="row-main">
        <p class="row-title">
          {props.named ? `${item.name} · ` : ''}
          {s.lotLine(lot.lot_number, lot.supplier)}
        </p>
        <p class="small">
          {s.holds(
            quantityText(lot.quantity, lot.unit),
            quantityText(lot.initial_quantity, lot.unit),
          )}
          {lot.expires_on ? ` · ${s.expires(lot.expires_on)}` : ''}
          {lot.received_on ? ` · ${s.received(lot.received_on)}` : ''}
        </p>
        {task !== null && (
          <p class="small">
            <a href={recordHref.task(task)}>{s.task}</a>
          </p>
        )}
      </div>
      <div class="row-status">
        <Chip tone={LOT_TONES[state]}>{LOT_WORDS[state]}</Chip>
      </div>
    </li>
  );
}

function ItemPanel(props: {
  item: StockItem;
  lots: readonly Judged[] | null;
  canReceive: boolean;
  onReceived: (lot: StockLot) => void;
}) {
  const { item } = props;
  const [receiving, setReceiving] = useState(false);
  const id = `stock-item-${item.id}`;
  return (
    <section class="panel stock-item" aria-labelledby={id} data-item={item.id}>
      <header class="stock-item-header">
        <div>
          <h3 id={id}>{item.name}</h3>
          <p class="muted small">
            {s.categories.find(([key]) => key === item.category)?.[1] ?? item.category} ·{' '}
            {item.reorder_level === null
              ? s.noReorder
              : s.reorderAt(quantityText(item.reorder_level, item.unit))}
          </p>
        </div>
        {props.canReceive && !receiving && (
          <button
            type="button"
            class="button"
            aria-label={s.receiveButton(item.name)}
            onClick={() => setReceiving(true)}
          >
            {s.receive}
          </button>
        )}
      </header>
      {receiving && (
        <ReceiveLot
          item={item}
          onCancel={() => setReceiving(false)}
          onSaved={(lot) => {
            setReceiving(false);
            props.onReceived(lot);
          }}
        />
      )}
      {props.lots === null ? null : props.lots.length === 0 ? (
        <p class="muted">{s.noLots}</p>
      ) : (
        <ul class="rows" aria-label={s.lotsOf(item.name)}>
          {props.lots.map(({ lot, state }) => (
            <LotRow key={lot.id} item={item} lot={lot} state={state} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** Add item (POST /stock-items): a manager's, as the catalogue is. */
function NewItem(props: { onSaved: (item: StockItem) => void; onCancel: () => void }) {
  const values = useFormValues({
    name: '',
    category: 'chemical',
    unit: 'g',
    reorder_level: '',
    notes: '',
  });
  const v = values.now;
  const form = useApiForm({
    fields: values.names,
    send: (key) =>
      call(
        api.POST('/api/v1/stock-items', {
          params: { header: { 'idempotency-key': key } },
          body: {
            name: v.name.trim(),
            category: v.category as Category,
            unit: v.unit.trim(),
            ...given({ reorder_level: countOf(v.reorder_level), notes: textOf(v.notes) }),
          },
        }),
      ),
    onSuccess: props.onSaved,
  });
  const field = bindFields(form, values);
  return (
    <BenchForm
      noValidate
      panel
      title={s.addItemTitle}
      save={s.saveItem}
      form={form}
      onCancel={props.onCancel}
    >
      <TextField
        {...field.text('name')}
        label={s.itemName}
        required
        autocomplete="off"
        maxLength={200}
      />
      <div class="field-pair">
        <SelectField {...field.select('category')} label={s.category} options={s.categories} />
        <TextField
          {...field.text('unit')}
          label={s.unit}
          hint={s.unitHint}
          autocomplete="off"
          maxLength={20}
        />
      </div>
      <NumberField {...field.value('reorder_level')} label={s.reorderLevel} hint={s.reorderHint} />
      <More open={hasError(form, ['notes'])}>
        <TextAreaField {...field.text('notes')} label={s.notes} maxLength={NOTES_MAX} />
      </More>
    </BenchForm>
  );
}

/** Receive lot (POST /stock-items/{id}/lots): any member, as deliveries come. */
function ReceiveLot(props: {
  item: StockItem;
  onSaved: (lot: StockLot) => void;
  onCancel: () => void;
}) {
  const { item } = props;
  const values = useFormValues({
    lot_number: '',
    quantity: '',
    expires_on: '',
    supplier: '',
    received_on: '',
    notes: '',
  });
  const v = values.now;
  const form = useApiForm({
    fields: values.names,
    send: (key) =>
      call(
        api.POST('/api/v1/stock-items/{id}/lots', {
          params: { path: { id: item.id }, header: { 'idempotency-key': key } },
          body: {
            lot_number: v.lot_number.trim(),
            quantity: countOf(v.quantity) as number,
            ...given({
              expires_on: v.expires_on || undefined,
              supplier: textOf(v.supplier),
              received_on: v.received_on || undefined,
              notes: textOf(v.notes),
            }),
          },
        }),
      ),
    onSuccess: props.onSaved,
  });
  const field = bindFields(form, values);
  return (
    <BenchForm
      noValidate
      title={s.receiveOf(item.name)}
      save={s.saveLot}
      form={form}
      onCancel={props.onCancel}
    >
      <div class="field-pair">
        <TextField
          {...field.text('lot_number')}
          label={s.lotNumber}
          required
          autocomplete="off"
          maxLength={100}
        />
        <NumberField {...field.value('quantity')} label={s.quantity(item.unit)} />
      </div>
      <DateField {...field.value('expires_on')} label={s.expiresOn} />
      <More open={hasError(form, ['supplier', 'received_on', 'notes'])}>
        <TextField
          {...field.text('supplier')}
          label={s.supplier}
          autocomplete="off"
          maxLength={200}
        />
        <DateField {...field.value('received_on')} label={s.receivedOn} hint={s.receivedHint} />
        <TextAreaField {...field.text('notes')} label={s.notes} maxLength={NOTES_MAX} />
      </More>
    </BenchForm>
  );
}
