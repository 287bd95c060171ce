import { useMemo } from 'preact/hooks';
import { api, call } from '../../api/client';
import { SelectField } from '../../forms/fields';
import { useAnswer } from '../../ui/answer';
import { batchName, dayPart, isUsable, type MediaBatch } from './model';
import { useRecipes } from './recipes';
import { strings } from './strings';

const s = strings.picker;

/** How many of the newest ready batches the picker offers. */
const OFFERED = 50;

/**
 * The batches cultures may go onto now, as a select's options (`[id, name]`), newest
 * first: ready and not past their expiry. Read once per form; null while it loads.
 */
export function useBatchOptions(): readonly (readonly [string, string])[] | null {
  const recipes = useRecipes();
  const answer = useAnswer(() =>
    call(
      api.GET('/api/v1/media-batches', { params: { query: { status: 'ready', limit: OFFERED } } }),
    ),
  );
  return useMemo(() => {
    if (answer === null || recipes === null) return null;
    const now = Date.now();
    const batches: readonly MediaBatch[] = answer.ok ? answer.data : [];
    return batches
      .filter((batch) => isUsable(batch, now))
      .map(
        (batch) =>
          [
            batch.id,
            s.option(
              batchName(recipes.get(batch.recipe_id)?.title, batch),
              dayPart(batch.prepared_at)!,
              dayPart(batch.expires_at),
            ),
          ] as const,
      );
  }, [answer, recipes]);
}

/**
 * The medium a form puts cultures on (`media_batch_id`): optional, so "None named"
 * first; only batches a culture may go onto now are offered.
 */
export function MediaBatchField(props: {
  name: string;
  label?: string;
  /** What the empty choice says (default "None named"). */
  none?: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  options: readonly (readonly [string, string])[] | null;
}) {
  const { options, label, none, ...field } = props;
  return (
    <SelectField
      {...field}
      label={label ?? s.label}
      hint={s.hint}
      options={[['', none ?? s.none], ...(options ?? [])]}
    />
  );
}
