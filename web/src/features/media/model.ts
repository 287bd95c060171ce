// Only the API's types: the tests load this file outside the console's bundler.
import type { components } from '../../api/schema.js';

type Schemas = components['schemas'];

export type MediaBatch = Schemas['MediaBatch'];
export type Recipe = Schemas['MediaRecipe'];
export type BatchStatus = 'ready' | 'used_up' | 'expired' | 'discarded';

export const BATCH_STATUSES: readonly BatchStatus[] = ['ready', 'used_up', 'expired', 'discarded'];

/** Whether a culture may go onto the batch now: ready and not past its expiry. */
export const isUsable = (batch: MediaBatch, now: number) =>
  batch.status === 'ready' && (batch.expires_at === null || Date.parse(batch.expires_at) > now);

/** A component of a new batch: its amount for the batch's volume, in a unit of mass or volume. */
export interface ScaledComponent {
  readonly name: string;
  readonly amount: string;
  readonly unit: string;
  /** The recipe's own quantity and unit, as written. */
  readonly written: string;
}

/** `4.4`, `4,4` → 4.4; anything else (`to taste`, `1-2`) is no number. */
function numberOf(qty: string): number | null {
  const text = qty.trim().replace(',', '.');
  return /^\d+(\.\d+)?$/.test(text) ? Number(text) : null;
}

/** A number kept to four significant digits: 0.002, 2.2, 30, 1234. */
const tidy = (value: number) => String(Number(value.toPrecision(4)));

/**
 * A recipe's components for `volumeMl` of medium: an amount per litre (`g/L`, `mg/L`)
 * or per millilitre (`µL/mL`) is scaled to the volume, in the unit before the slash;
 * one given as a plain amount (`g`) is kept as written; one that is no number is left
 * for the person to fill in.
 */
export function scaleComponents(
  components: readonly Recipe['components'][number][],
  volumeMl: number,
): ScaledComponent[] {
  return components.map((component) => {
    const unit = component.unit?.trim() ?? '';
    const qty = numberOf(component.qty);
    const written = [component.qty, unit].filter(Boolean).join(' ');
    const per = /^(.+)\/\s*(m?l)$/i.exec(unit);
    if (per === null) {
      return { name: component.name, amount: qty === null ? '' : tidy(qty), unit, written };
    }
    const litres = per[2]!.toLowerCase() === 'ml' ? volumeMl : volumeMl / 1000;
    return {
      name: component.name,
      amount: qty === null || !(volumeMl > 0) ? '' : tidy(qty * litres),
      unit: per[1]!.trim(),
      written,
    };
  });
}

/** The day part of a time the API gives (`2026-11-28T09:00:00.000Z` → `2026-11-28`). */
export const dayPart = (at: string | null) => (at === null ? null : at.slice(0, 10));

/** A batch's name: its recipe's title and the version it was made to. */
export const batchName = (recipeTitle: string | undefined, batch: MediaBatch) =>
  `${recipeTitle ?? 'Medium'} v${batch.recipe_version}`;

/**
 * The stock item a recipe's component is taken from: the one of the same name (any
 * case), else one whose name holds the component's or is held in it (`Agar` for
 * `Plant agar`).
 */
export function itemFor<T extends { name: string }>(name: string, items: readonly T[]) {
  const key = name.trim().toLowerCase();
  return (
    items.find((item) => item.name.trim().toLowerCase() === key) ??
    items.find((item) => {
      const other = item.name.trim().toLowerCase();
      return other !== '' && (key.includes(other) || other.includes(key));
    })
  );
}
