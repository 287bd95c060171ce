import type { Static } from 'typebox';
import type { Db } from '../../db/database.js';
import { pageOf, type Page, type PageRequest } from '../../db/pages.js';
import type { Principal } from '../../kernel/principal.js';
import { GROUPINGS, NONE_RECORDED, type GroupName, type Names } from './groups.js';
import { contaminationOf, isoWeek, type Handling } from './handlings.js';
import { explantLabels } from './insights.repository.js';
import {
  DEFAULT_WINDOW_DAYS,
  NONE_GROUP,
  type Exposure,
  type ExposuresQuery,
} from './insights.schemas.js';
import { handlingsIn, labNames } from './insights.service.js';
import { periodOf } from './period.js';

type ExposureRow = Static<typeof Exposure>;

/** Newest first: by the handling's time, then its key. */
const ORDERING = { columns: ['at', 'key'], direction: 'desc' } as const;

/** Whether a handling's group is the one asked for: by id, by label (no id), or "none". */
function isGroup(group: GroupName, wanted: string): boolean {
  if (group.id === null && group.label === NONE_RECORDED) return wanted === NONE_GROUP;
  return group.id === null ? group.label === wanted : group.id === wanted;
}

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
 * behind a bar), newest first, with the same period, window and own-handlings rule.
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
  const [handlings, names] = await Promise.all([
    handlingsIn(db, principal, period, { plantIds: null }),
    labNames(db, principal.workspaceId),
  ]);
  const groupOf = GROUPINGS[query.by]!;
  const after = page.after;
  const rows = handlings
    .filter(
      (h) =>
        isGroup(groupOf(h, names), query.group) &&
        (query.contaminated === undefined ||
          (contaminationOf(h, windowDays) !== undefined) === query.contaminated),
    )
    .filter((h) => after === null || h.at < after[0]! || (h.at === after[0] && h.key < after[1]!))
    .sort((a, b) => (a.at !== b.at ? (a.at < b.at ? 1 : -1) : a.key < b.key ? 1 : -1));
  const { items, nextKey } = pageOf(
    rows.slice(after === null ? page.offset : 0).slice(0, page.limit + 1),
    ORDERING,
    page.limit,
  );
  const labels = await explantLabels(db, principal.workspaceId, [
    ...new Set(items.map((h) => h.explantId)),
  ]);
  return { items: items.map((h) => exposureOf(h, names, labels, windowDays)), nextKey };
}
