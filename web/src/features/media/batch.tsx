import type { VNode } from 'preact';
import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, call } from '../../api/client';
import { useSignedIn } from '../../api/session';
import { BenchForm } from '../../forms/bench-form';
import { bindFields, SelectField } from '../../forms/fields';
import { useApiForm, useFormValues } from '../../forms/form';
import { useAnswer } from '../../ui/answer';
import { recordHref } from '../../ui/links';
import { PagedRows } from '../../ui/list';
import { usePagedList } from '../../ui/paged';
import { personName, usePeopleNames } from '../../ui/people';
import { Chip, GridFact, ScreenHeader, TimeAgo } from '../../ui/parts';
import { useRecordScreen } from '../../ui/record-screen';
import { useTitle } from '../../ui/title';
import { useLotsOf } from '../stock/lots';
import { quantityText, type StockLot } from '../stock/model';
import {
  BATCH_STATUSES,
  batchName,
  dayPart,
  itemFor,
  type BatchStatus,
  type MediaBatch,
} from './model';
import { useRecipes } from './recipes';
import { BATCH_TONES } from './tones';
import { strings } from './strings';

const s = strings.page;
type Culture = { id: string; label: string | null; current_count: number | null } & {
  media_batch_id: string | null;
};

export default function MediaBatchPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const screen = useRecordScreen<MediaBatch>(
    () => call(api.GET('/api/v1/media-batches/{id}', { params: { path: { id } } })),
    id,
    { href: '/media', back: s.back, loading: s.loading },
  );
  const recipes = useRecipes();
  const name =
    screen.record === null || recipes === null
      ? null
      : batchName(recipes.get(screen.record.recipe_id)?.title, screen.record);
  useTitle(name ?? s.title);
  if (screen.record === null) return screen.fallback;
  return (
    <Page
      batch={screen.record}
      name={name ?? s.title}
      back={screen.back}
      onChange={screen.setRecord}
    />
  );
}

function Page(props: {
  batch: MediaBatch;
  name: string;
  back: VNode;
  onChange: (batch: MediaBatch) => void;
}) {
  const { batch } = props;
  const { can } = useSignedIn();
  const people = usePeopleNames();
  const status = batch.status as BatchStatus;
  return (
    <>
      {props.back}
      <ScreenHeader title={props.name}>
        <div class="header-actions">
          <Chip tone={BATCH_TONES[status] ?? 'info'}>{strings.status[status] ?? status}</Chip>
          <a class="button button-primary" href={`/labels/print?media_batch_ids=${batch.id}`}>
            {s.print}
          </a>
        </div>
      </ScreenHeader>
      <section class="panel" aria-labelledby="batch-facts">
        <h2 id="batch-facts">{s.facts}</h2>
        <dl class="facts facts-grid">
          <GridFact term={s.volume}>{batch.volume_ml} mL</GridFact>
          <GridFact term={s.ph}>{batch.ph_measured ?? s.none}</GridFact>
          <GridFact term={s.preparedAt}>
            <TimeAgo at={batch.prepared_at} />
          </GridFact>
          <GridFact term={s.preparedBy}>
            {personName(people, batch.prepared_by, s.someone) ?? ''}
          </GridFact>
          <GridFact term={s.expires}>{dayPart(batch.expires_at) ?? s.none}</GridFact>
          <GridFact term={s.autoclave}>
            {batch.autoclave_event_id === null ? s.none : s.autoclaveRecorded}
          </GridFact>
          {batch.notes && <GridFact term={s.notes}>{batch.notes}</GridFact>}
        </dl>
      </section>
      <Components batch={batch} />
      <Cultures batch={batch} />
      {can('write:media_batches') && <StatusForm batch={batch} onChange={props.onChange} />}
    </>
  );
}

/** Its status changed in one step: used up, expired, discarded (or ready again). */
function StatusForm(props: { batch: MediaBatch; onChange: (batch: MediaBatch) => void }) {
  const [saved, setSaved] = useState<string | null>(null);
  const values = useFormValues({ status: props.batch.status });
  const form = useApiForm({
    fields: values.names,
    send: (key) =>
      call(
        api.PATCH('/api/v1/media-batches/{id}', {
          params: { path: { id: props.batch.id }, header: { 'idempotency-key': key } },
          body: { status: values.now.status as BatchStatus },
        }),
      ),
    onSuccess: (batch) => {
      setSaved(s.statusSaved(strings.status[batch.status as BatchStatus] ?? batch.status));
      props.onChange(batch);
    },
  });
  const field = bindFields(form, values);
  return (
    <section class="panel" aria-labelledby="batch-status">
      <BenchForm heading={false} title={s.statusTitle} save={s.saveStatus} form={form}>
        <h2 id="batch-status">{s.statusTitle}</h2>
        {saved && (
          <p role="status" class="notice notice-info">
            {saved}
          </p>
        )}
        <SelectField
          {...field.select('status')}
          label={s.statusField}
          options={BATCH_STATUSES.map((value) => [value, strings.status[value]] as const)}
        />
      </BenchForm>
    </section>
  );
}

/**
 * Its components with the lot each was taken from. A lot is read through its item
 * (the stock item of the component's name), one read per item.
 */
function Components(props: { batch: MediaBatch }) {
  const { components } = props.batch;
  const taken = components.some((c) => c.lot_id !== null);
  const items = useAnswer(
    () =>
      taken
        ? call(api.GET('/api/v1/stock-items', { params: { query: { limit: 100 } } }))
        : Promise.resolve({ ok: true as const, data: [], nextCursor: null }),
    [props.batch.id],
  );
  const itemOf = (name: string) => (items?.ok ? itemFor(name, items.data) : undefined);
  const lotsByItem = useLotsOf(
    components.flatMap((c) => (c.lot_id === null ? [] : (itemOf(c.name)?.id ?? []))),
  );
  const lotOf = (id: string): StockLot | undefined =>
    [...(lotsByItem?.values() ?? [])].flat().find((lot) => lot.id === id);
  return (
    <section class="panel" aria-labelledby="batch-components">
      <h2 id="batch-components">{s.components}</h2>
      {components.length === 0 ? (
        <p>{s.noComponents}</p>
      ) : (
        <ul class="rows">
          {components.map((c, i) => {
            const lot = c.lot_id === null ? undefined : lotOf(c.lot_id);
            return (
              <li class="row" key={i}>
                <div class="row-main">
                  <p class="row-title">{c.name}</p>
                  <p class="small">
                    {quantityText(c.amount, c.unit)} ·{' '}
                    {c.lot_id === null
                      ? s.noLot
                      : `${s.lot} ${lot ? lot.lot_number : c.lot_id.slice(0, 8)}`}
                    {lot?.supplier ? ` (${lot.supplier})` : ''}
                  </p>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** The cultures put on the batch, newest first, page by page. */
function Cultures(props: { batch: MediaBatch }) {
  const list = usePagedList<Culture>(
    (cursor) =>
      call(
        api.GET('/api/v1/media-batches/{id}/explants', {
          params: {
            path: { id: props.batch.id },
            query: { limit: 25, ...(cursor ? { cursor } : {}) },
          },
        }),
      ),
    [props.batch.id],
  );
  return (
    <section class="panel" aria-labelledby="batch-cultures">
      <h2 id="batch-cultures">{s.cultures}</h2>
      <PagedRows
        list={list}
        empty={s.noCultures}
        more={s.moreCultures}
        row={(culture) => (
          <li class="row" key={culture.id}>
            <div class="row-main">
              <p class="row-title">
                <a href={recordHref.explant(culture.id)}>{culture.label ?? culture.id}</a>
              </p>
              <p class="muted small">
                {s.vessels(culture.current_count)}
                {culture.media_batch_id !== props.batch.id ? ` · ${s.movedOn}` : ''}
              </p>
            </div>
          </li>
        )}
      />
    </section>
  );
}
