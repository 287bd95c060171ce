import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import { toUtc } from '../../kernel/formats.js';
import { newId } from '../../kernel/ids.js';
import type { Page, PageRequest } from '../../db/pages.js';
import type { Principal } from '../../kernel/principal.js';
import {
  demandSignals,
  latestDemandRow,
  listDemandRows,
  type DemandSignalRow,
} from './demand.repository.js';
import type { CreateDemandSignalBody, DemandSignal, DemandSignalQuery } from './demand.schemas.js';

export type DemandSignalRecord = Static<typeof DemandSignal>;

/** The id of the one reading `current=true` answers: the latest signal of the genus. */
export const CURRENT_ID = 'current';

export function presentDemandSignal(row: DemandSignalRow): DemandSignalRecord {
  return {
    id: row.id,
    genus: row.genus,
    source_type: row.source_type,
    demand_score: row.demand_score,
    source: row.source,
    observed_at: row.observed_at,
    created_at: row.created_at,
  };
}

/** A genus is one genus whatever its case: `Monstera` and `monstera` share their signals. */
const genusKeyOf = (genus: string) => genus.toLowerCase();

/**
 * A sent observation time in UTC. A zone can push a time at the edge of the
 * calendar past year 9999 or before year 0, which no longer sorts as text: refused.
 */
function observedAtOf(value: string): string {
  const utc = toUtc(value);
  if (!/^\d{4}-/.test(utc)) {
    throw errors.validation('observed_at: must fall within the years 0000 to 9999 in UTC');
  }
  return utc;
}

/**
 * Records a demand signal (history is kept: nothing is replaced). The latest
 * observation of a genus is its current demand; tasks are not reordered by it.
 */
export async function recordDemandSignal(
  trx: Trx,
  principal: Principal,
  input: Static<typeof CreateDemandSignalBody>,
  now: string,
): Promise<DemandSignalRecord> {
  const row: DemandSignalRow = {
    id: newId(),
    workspace_id: principal.workspaceId,
    genus: input.genus,
    genus_key: genusKeyOf(input.genus),
    source_type: input.source_type ?? null,
    demand_score: input.demand_score,
    source: input.source,
    observed_at: input.observed_at === undefined ? now : observedAtOf(input.observed_at),
    recorded_by: principal.memberId,
    created_at: now,
  };
  await demandSignals.insert(trx, row);
  return presentDemandSignal(row);
}

/**
 * Newest observation first, optionally of one genus. `current` (with a genus)
 * answers only the genus's latest signal, as one reading with id "current", on a
 * single page; none when the genus has no signal.
 */
export async function listDemandSignals(
  db: Db,
  workspaceId: string,
  query: Static<typeof DemandSignalQuery>,
  page: PageRequest,
): Promise<Page<DemandSignalRecord>> {
  const genusKey = query.genus === undefined ? null : genusKeyOf(query.genus);
  if (query.current === true) {
    if (genusKey === null) throw errors.validation('genus: is required with current=true');
    const latest = await latestDemandRow(db, workspaceId, genusKey);
    return {
      items: latest === undefined ? [] : [{ ...presentDemandSignal(latest), id: CURRENT_ID }],
      nextKey: null,
    };
  }
  const { items, nextKey } = await listDemandRows(db, workspaceId, genusKey, page);
  return { items: items.map(presentDemandSignal), nextKey };
}
