import { useEffect, useMemo, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call } from '../../api/client';
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
import { useAnswer, useLoaded } from '../../ui/answer';
import { useLotsOf } from '../stock/lots';
import { More, Notice, ScreenHeader } from '../../ui/parts';
import { useTitle } from '../../ui/title';
import { lotState, quantityText, type StockItem, type StockLot } from '../stock/model';
import { dayPart, itemFor, scaleComponents, type Recipe, type ScaledComponent } from './model';
import { useRecipes } from './recipes';
import { strings } from './strings';

const s = strings.create;
const DAY_MS = 86_400_000;
/** A new batch keeps four weeks unless the person says otherwise. */
const KEEPS_DAYS = 28;
const NOTES_MAX = 2000;

/** A component as the form holds it: the scaled amount, editable, and the lot chosen. */
interface Held extends ScaledComponent {
  /** The lot chosen; undefined: the form's pick (the first usable lot to expire). */
  readonly lot?: string;
  /** The recipe gives it no unit: the person types one. */
  readonly askUnit: boolean;
}

/** The recipe's components for the volume; a lot already chosen for a name stays. */
const heldOf = (recipe: Recipe, volume: number, before: readonly Held[]): Held[] =>
  scaleComponents(recipe.components, volume).map((c) => ({
    ...c,
    askUnit: c.unit === '',
    lot: before.find((b) => b.name === c.name)?.lot,
  }));

/** New batch (POST /media-batches): a recipe, a volume, the lots; then the batch's page. */
export default function NewMediaBatch() {
  useTitle(s.title);
  const recipes = useRecipes();
  const items = useAnswer(() =>
    call(api.GET('/api/v1/stock-items', { params: { query: { limit: 100 } } })),
  );
  if (recipes === null || items === null) return <p aria-busy="true">{s.loading}</p>;
  const usable = [...recipes.values()].filter(
    (recipe) => recipe.status !== 'archived' && recipe.status !== 'deprecated',
  );
  return (
    <>
      <p class="small">
        <a href="/media">← {strings.page.back}</a>
      </p>
      <ScreenHeader title={s.title} lead={s.lead} />
      {usable.length === 0 ? (
        <Notice>{s.noRecipes}</Notice>
      ) : (
        <BatchForm recipes={usable} items={items.ok ? items.data : []} />
      )}
    </>
  );
}

/** A lot nothing may be taken from: expired or empty. */
const unusable = (lot: StockLot, item: StockItem | undefined, now: number) => {
  const state = lotState(lot, item, now);
  return state === 'expired' || state === 'empty';
};

/** Lots as the picker offers them: usable ones first, the first to expire first; then the rest. */
function usableFirst(
  lots: readonly StockLot[],
  item: StockItem | undefined,
  now: number,
): StockLot[] {
  const rank = (lot: StockLot) => (unusable(lot, item, now) ? 1 : 0);
  return [...lots].sort(
    (a, b) => rank(a) - rank(b) || (a.expires_on ?? '9999').localeCompare(b.expires_on ?? '9999'),
  );
}

/** The lot a component is taken from unless the person picks another: the first usable to expire. */
function firstToUse(lots: readonly StockLot[], item: StockItem, now: number): string {
  const first = usableFirst(lots, item, now)[0];
  return first === undefined || unusable(first, item, now) ? '' : first.id;
}

function BatchForm(props: { recipes: readonly Recipe[]; items: readonly StockItem[] }) {
  const { route, query } = useLocation();
  const now = useMemo(() => Date.now(), []);
  const first = props.recipes.find((r) => r.id === query.recipe) ?? props.recipes[0]!;
  const values = useFormValues({
    recipe_id: first.id,
    volume_ml: '1000',
    ph_measured: '',
    expires_at: dayPart(new Date(now + KEEPS_DAYS * DAY_MS).toISOString())!,
    prepared_at: '',
    autoclave_event_id: '',
    notes: '',
  });
  const v = values.now;
  const recipe = props.recipes.find((r) => r.id === v.recipe_id) ?? first;
  const volume = countOf(v.volume_ml) ?? 0;
  const [held, setHeld] = useState<readonly Held[]>(() => heldOf(recipe, volume, []));
  // A new recipe or volume scales the amounts again.
  useEffect(() => {
    setHeld((before) => heldOf(recipe, volume, before));
  }, [recipe.id, recipe.version, volume]);
  const itemOf = (c: Held) => itemFor(c.name, props.items);
  const lots = useLotsOf(held.flatMap((c) => itemOf(c)?.id ?? []));
  const lotOf = (c: Held) => {
    const item = itemOf(c);
    if (c.lot !== undefined) return c.lot;
    return item === undefined || lots === null
      ? ''
      : firstToUse(lots.get(item.id) ?? [], item, now);
  };
  const edit = (i: number, change: Partial<Held>) =>
    setHeld((now) => now.map((c, j) => (j === i ? { ...c, ...change } : c)));

  const form = useApiForm({
    fields: [...values.names, 'components'],
    send: (key) =>
      call(
        api.POST('/api/v1/media-batches', {
          params: { header: { 'idempotency-key': key } },
          body: {
            recipe_id: recipe.id,
            recipe_version: recipe.version,
            volume_ml: countOf(v.volume_ml) as number,
            components: held.map((c) => ({
              name: c.name,
              amount: countOf(c.amount) as number,
              unit: c.unit.trim(),
              ...given({ lot_id: lotOf(c) || undefined }),
            })),
            ...given({
              ph_measured: countOf(v.ph_measured),
              expires_at: v.expires_at || undefined,
              prepared_at: v.prepared_at || undefined,
              autoclave_event_id: v.autoclave_event_id || undefined,
              notes: textOf(v.notes),
            }),
          },
        }),
      ),
    onSuccess: (batch) => route(`/media/${batch.id}`),
  });
  const field = bindFields(form, values);
  const componentsError = form.errorFor('components');
  return (
    <BenchForm noValidate panel heading={false} title={s.title} save={s.save} form={form}>
      <SelectField
        {...field.select('recipe_id')}
        label={s.recipe}
        hint={s.version(recipe.version)}
        options={props.recipes.map((r) => [r.id, r.title] as const)}
      />
      <div class="field-pair">
        <NumberField {...field.value('volume_ml')} label={s.volume} hint={s.volumeHint} />
        <NumberField {...field.value('ph_measured')} label={s.ph} />
      </div>
      <fieldset class="form-group batch-components" aria-describedby="components-hint">
        <legend>{s.components}</legend>
        <p class="field-hint" id="components-hint">
          {s.componentsHint}
        </p>
        {held.map((c, i) => {
          const item = itemOf(c);
          const itemLots = item === undefined ? [] : (lots?.get(item.id) ?? []);
          const ordered = usableFirst(itemLots, item, now);
          return (
            <fieldset class="batch-component" key={c.name}>
              <legend>{c.name}</legend>
              <div class="field-pair field-pair-wide">
                <NumberField
                  name={`components-${i}-amount`}
                  label={c.askUnit ? s.amount : s.amountIn(c.unit)}
                  hint={c.written ? s.written(c.written) : undefined}
                  error={null}
                  value={c.amount}
                  onInput={(amount) => edit(i, { amount })}
                />
                <SelectField
                  name={`components-${i}-lot`}
                  label={s.lot}
                  hint={item === undefined ? s.noItem : undefined}
                  error={null}
                  value={lotOf(c)}
                  onChange={(lot) => edit(i, { lot })}
                  options={[
                    ['', s.noLot],
                    ...ordered.map(
                      (lot) =>
                        [
                          lot.id,
                          s.lotOption(
                            lot.lot_number,
                            quantityText(lot.quantity, lot.unit),
                            lot.expires_on,
                            lotState(lot, item, now),
                          ),
                        ] as const,
                    ),
                  ]}
                />
              </div>
              {c.askUnit && (
                <TextField
                  name={`components-${i}-unit`}
                  label={s.unit}
                  error={null}
                  value={c.unit}
                  onInput={(event) => edit(i, { unit: event.currentTarget.value })}
                  autocomplete="off"
                  maxLength={20}
                />
              )}
            </fieldset>
          );
        })}
        {componentsError && (
          <p class="field-error" role="alert">
            {componentsError}
          </p>
        )}
      </fieldset>
      <DateField {...field.value('expires_at')} label={s.expires} hint={s.expiresHint} />
      <More label={s.more} open={hasError(form, ['autoclave_event_id', 'prepared_at', 'notes'])}>
        <AutoclaveField
          value={v.autoclave_event_id}
          onChange={values.set('autoclave_event_id')}
          error={form.errorFor('autoclave_event_id')}
        />
        <DateField {...field.value('prepared_at')} label={s.preparedAt} hint={s.preparedAtHint} />
        <TextAreaField {...field.text('notes')} label={s.notes} maxLength={NOTES_MAX} />
      </More>
    </BenchForm>
  );
}

/** The autoclave run: a recent use of one of the lab's autoclaves (none when the lab keeps none). */
function AutoclaveField(props: {
  value: string;
  onChange: (value: string) => void;
  error: string | null;
}) {
  const runs = useLoaded(async () => {
    const autoclaves = await call(
      api.GET('/api/v1/equipment', {
        params: { query: { category: 'autoclave_pressure_cooker', limit: 10 } },
      }),
    );
    if (!autoclaves.ok) return [];
    const options: (readonly [string, string])[] = [];
    for (const autoclave of autoclaves.data) {
      const events = await call(
        api.GET('/api/v1/equipment/{id}/events', {
          params: { path: { id: autoclave.id }, query: { kind: 'used', limit: 5 } },
        }),
      );
      if (!events.ok) continue;
      for (const event of events.data) {
        const when = (event.occurred_at ?? event.recorded_at).slice(0, 16).replace('T', ' ');
        options.push([event.id, s.autoclaveOption(autoclave.name, when)]);
      }
    }
    return options;
  });
  return (
    <SelectField
      name="autoclave_event_id"
      label={s.autoclave}
      error={props.error}
      value={props.value}
      onChange={props.onChange}
      options={[['', s.noAutoclave], ...(runs ?? [])]}
    />
  );
}
