import type { Static } from 'typebox';
import type { Db } from '../../db/database.js';
import type { Page, PageRequest } from '../../db/pages.js';
import type { Principal } from '../../kernel/principal.js';
import { drainLab } from './drain.js';
import { GROUPINGS, type GroupName, type Names } from './groups.js';
import { contaminationOf, DAY_MS, isoWeek, type Handling } from './handlings.js';
import { explantLabels } from './insights.repository.js';
import {
  DEFAULT_WINDOW_DAYS,
  NONE_GROUP,
  type Exposure,
  type ExposuresQuery,
} from './insights.schemas.js';
import { labNames } from './insights.service.js';
import { handlingOfRow, weekStart } from './kept.js';
import { keptPage, type GroupFilter } from './kept.repository.js';
import { periodOf } from './period.js';
import { ownOf } from './tallies.js';

type ExposureRow = Static<typeof Exposure>;

/** A group as a row's field: null for "none recorded". */
const namedOrNull = (group: GroupName) =>
  group.id === null ? null : { id: group.id, label: group.label };

function exposureOf(
  h: Handling,
  names: Names,
  labels: ReadonlyMap<string, string | null>,
  windowDays: number,
): ExposureRow {
  const contamination = contaminationOf(h, windowDays);
  return {
    explant_id: h.explantId,
    explant_label: labels.get(h.explantId) ?? '',
    plant_id: h.plantId,
    kind: h.kind,
    handled_at: h.at,
    operator: GROUPINGS.operator!(h, names),
    location: h.location === '' ? null : h.location,
    media_batch: namedOrNull(GROUPINGS.media_batch!(h, names)),
    recipe: namedOrNull(GROUPINGS.recipe!(h, names)),
    room: namedOrNull(GROUPINGS.room!(h, names)),
    stage: h.stage,
    week: isoWeek(h.at),
    contaminated: contamination !== undefined,
    contamination_id: contamination?.id ?? null,
  };
}

/**
 * GET /insights/exposures: the exposures of one contamination group (the drill-down
 * behind a bar), newest first, with the same period, window and own-handlings rule,
 * read from the kept handlings.
 */
export async function listExposures(
  db: Db,
  principal: Principal,
  query: Static<typeof ExposuresQuery>,
  page: PageRequest,
  now: string,
): Promise<Page<ExposureRow>> {
  const period = periodOf(query, now);
  const windowDays = query.window_days ?? DEFAULT_WINDOW_DAYS;
  await drainLab(db, principal.workspaceId);
  const names = await labNames(db, principal.workspaceId);
  const { items, nextKey } = await keptPage(
    db,
    principal.workspaceId,
    {
      period,
      operatorId: ownOf(principal),
      group: groupFilterOf(query.by, query.group, names),
      windowDays,
      contaminated: query.contaminated ?? null,
    },
    page,
  );
  const handlings = items.map(handlingOfRow);
  const labels = await explantLabels(db, principal.workspaceId, [
    ...new Set(handlings.map((h) => h.explantId)),
  ]);
  return { items: handlings.map((h) => exposureOf(h, names, labels, windowDays)), nextKey };
}

/**
 * The kept handlings' column and values a group of a grouping is (what `GROUPINGS`
 * names them by): `null` in the values for none recorded; no values at all for none.
 */
function groupFilterOf(by: string, wanted: string, names: Names): GroupFilter {
  const none = wanted === NONE_GROUP;
  switch (by) {
    case 'operator':
      return { column: 'operator_id', values: [none ? null : wanted] };
    case 'media_batch':
      return { column: 'media_batch_id', values: [none ? null : wanted] };
    case 'room':
      return { column: 'room_id', values: [none ? null : wanted] };
    case 'stage':
      return { column: 'stage', values: [none ? null : wanted] };
    case 'location':
      // A location is its own label: "none" is also a location of that name.
      return { column: 'location', values: none ? [null, '', wanted] : [wanted] };
    case 'recipe': {
      const batches = [...names.mediaBatches].filter(([, b]) => b.recipeId === wanted);
      if (!none) return { column: 'media_batch_id', values: batches.map(([id]) => id) };
      return { column: 'media_batch_id', values: [null], orNotIn: [...names.mediaBatches.keys()] };
    }
    default: {
      const start = weekStart(wanted);
      if (start === null) return { column: 'media_batch_id', values: [] };
      return {
        between: [new Date(start).toISOString(), new Date(start + 7 * DAY_MS).toISOString()],
      };
    }
  }
}
