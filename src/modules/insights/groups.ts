import type { Handling } from './handlings.js';
import { isoWeek } from './handlings.js';

/** What a group is named by in an answer. */
export interface GroupName {
  id: string | null;
  label: string;
}

/** The label of a group whose handlings name nothing (or what is not recorded at all). */
export const NONE_RECORDED = 'none recorded';

/** The names a grouping needs: members, rooms, plants, stage display names. */
export interface Names {
  members: ReadonlyMap<string, string>;
  rooms: ReadonlyMap<string, string>;
  plants: ReadonlyMap<string, { name: string; species: string }>;
  mediaBatches: ReadonlyMap<string, { label: string; recipeId: string }>;
  recipes: ReadonlyMap<string, string>;
  stages: ReadonlyMap<string, string>;
}

const none: GroupName = { id: null, label: NONE_RECORDED };

const named = (id: string | null, names: ReadonlyMap<string, string>): GroupName =>
  id === null ? none : { id, label: names.get(id) ?? id };

/** A handling's medium batch and that batch's recipe, named; none when it names no batch. */
const batchOf = (h: Handling, names: Names) =>
  h.mediaBatchId === null ? undefined : names.mediaBatches.get(h.mediaBatchId);

/**
 * The group a handling falls in, by each grouping. A media batch is labelled by its
 * recipe's title and the day it was prepared; a recipe, through the batch, by its title.
 */
export const GROUPINGS: Record<string, (handling: Handling, names: Names) => GroupName> = {
  operator: (h, names) => named(h.by, names.members),
  location: (h) =>
    h.location === null || h.location === '' ? none : { id: null, label: h.location },
  media_batch: (h, names) =>
    h.mediaBatchId === null
      ? none
      : { id: h.mediaBatchId, label: batchOf(h, names)?.label ?? h.mediaBatchId },
  recipe: (h, names) => {
    const batch = batchOf(h, names);
    return batch === undefined ? none : named(batch.recipeId, names.recipes);
  },
  room: (h, names) => named(h.roomId, names.rooms),
  stage: (h, names) => named(h.stage, names.stages),
  week: (h) => ({ id: null, label: isoWeek(h.at) }),
  plant: (h, names) =>
    h.plantId === null
      ? none
      : { id: h.plantId, label: names.plants.get(h.plantId)?.name ?? h.plantId },
  species: (h, names) => {
    const species = h.plantId === null ? undefined : names.plants.get(h.plantId)?.species;
    return species === undefined ? none : { id: null, label: species };
  },
};

/** Items by group, the groups in label order ("none recorded" last). */
export function groupedBy<T>(
  items: readonly T[],
  groupOf: (item: T) => GroupName,
): { group: GroupName; items: T[] }[] {
  const groups = new Map<string, { group: GroupName; items: T[] }>();
  for (const item of items) {
    const group = groupOf(item);
    const key = `${group.id ?? ''}\u0000${group.label}`;
    const entry = groups.get(key);
    if (entry === undefined) groups.set(key, { group, items: [item] });
    else entry.items.push(item);
  }
  const rank = (g: GroupName) =>
    g === none || (g.id === null && g.label === NONE_RECORDED) ? 1 : 0;
  return [...groups.values()].sort(
    (a, b) =>
      rank(a.group) - rank(b.group) ||
      a.group.label.localeCompare(b.group.label, 'en') ||
      (a.group.id ?? '').localeCompare(b.group.id ?? ''),
  );
}
