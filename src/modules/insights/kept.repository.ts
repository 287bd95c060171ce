import { sql } from 'kysely';
import { isPostgres, type Db, type Trx } from '../../db/database.js';
import { fetchPage, type Page, type PageRequest } from '../../db/pages.js';
import type { InsightDailyTable, InsightHandlingTable } from '../../db/schema.js';
import type { Dimension, Tally } from './kept.js';

/*
 * The SQL of the kept insights: the explants marked for the drain, the kept handlings,
 * and the figures added up per day. Workspace id always an argument.
 */

/** Rows per insert: under both databases' limits on bound values. */
const ROWS_PER_INSERT = 1000;

/**
 * An explant's marks as the drain takes them: the transfers added to its history, or
 * null when anything else changed (its whole history is made anew).
 */
export type Marks = ReadonlyMap<string, readonly string[] | null>;

/**
 * Takes (unmarks) up to `limit` explants marked for the drain, every mark of each. The
 * caller holds the lab's drain lock (`lockLabDrain`), so no other drain takes them
 * meanwhile.
 */
export async function takeDirty(trx: Trx, workspaceId: string, limit: number): Promise<Marks> {
  const rows = await trx
    .deleteFrom('insight_dirty')
    .where('workspace_id', '=', workspaceId)
    .where('explant_id', 'in', (eb) =>
      eb
        .selectFrom('insight_dirty')
        .select('explant_id')
        .distinct()
        .where('workspace_id', '=', workspaceId)
        .orderBy('explant_id')
        .limit(limit),
    )
    .returning(['explant_id', 'transfer_id'])
    .execute();
  const marks = new Map<string, string[] | null>();
  for (const { explant_id: id, transfer_id: transfer } of rows) {
    const transfers = marks.get(id);
    if (transfer === null) marks.set(id, null);
    else if (transfers === undefined) marks.set(id, [transfer]);
    else transfers?.push(transfer);
  }
  return marks;
}

/**
 * PostgreSQL: one drain of a lab at a time (until this transaction ends), so that two
 * never make the same explant anew at once (both would add its figures). Writes never
 * take this lock. SQLite: its one writer at a time already does that.
 */
export async function lockLabDrain(trx: Trx, workspaceId: string): Promise<void> {
  if (!isPostgres(trx)) return;
  await sql`select pg_advisory_xact_lock(hashtext(${`vitro-insights-drain:${workspaceId}`}))`.execute(
    trx,
  );
}

/** Whether any explant of the workspace is marked. */
export async function hasDirty(db: Db | Trx, workspaceId: string): Promise<boolean> {
  const row = await db
    .selectFrom('insight_dirty')
    .select('explant_id')
    .where('workspace_id', '=', workspaceId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The workspaces with marked explants. */
export async function dirtyWorkspaces(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('insight_dirty').select('workspace_id').distinct().execute();
  return rows.map((row) => row.workspace_id);
}

/**
 * Removes some explants' kept handlings, returning them; with `lastOnly`, only each
 * one's last (the one with no next yet).
 */
export function takeKept(
  trx: Trx,
  workspaceId: string,
  explantIds: readonly string[],
  lastOnly = false,
): Promise<InsightHandlingTable[]> {
  return trx
    .deleteFrom('insight_handlings')
    .where('workspace_id', '=', workspaceId)
    .where('explant_id', 'in', [...explantIds])
    .$if(lastOnly, (q) => q.where('next_at', 'is', null))
    .returningAll()
    .execute();
}

export async function insertKept(trx: Trx, rows: readonly InsightHandlingTable[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await trx
      .insertInto('insight_handlings')
      .values(rows.slice(i, i + ROWS_PER_INSERT))
      .execute();
  }
}

/** Adds figures (negative ones to take handlings away) to the days' rows, in key order. */
export async function addToDaily(trx: Trx, rows: readonly InsightDailyTable[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await trx
      .insertInto('insight_daily')
      .values(rows.slice(i, i + ROWS_PER_INSERT))
      .onConflict((oc) =>
        oc
          .columns(['workspace_id', 'dimension', 'group_key', 'day', 'contaminated_days'])
          .doUpdateSet((eb) => ({
            exposures: eb('insight_daily.exposures', '+', eb.ref('excluded.exposures')),
            rated: eb('insight_daily.rated', '+', eb.ref('excluded.rated')),
            ln_rate_sum: eb('insight_daily.ln_rate_sum', '+', eb.ref('excluded.ln_rate_sum')),
            cycle_days_sum: eb(
              'insight_daily.cycle_days_sum',
              '+',
              eb.ref('excluded.cycle_days_sum'),
            ),
            rated_4w: eb('insight_daily.rated_4w', '+', eb.ref('excluded.rated_4w')),
            ln_rate_4w_sum: eb(
              'insight_daily.ln_rate_4w_sum',
              '+',
              eb.ref('excluded.ln_rate_4w_sum'),
            ),
            ln_rate_4w_squares: eb(
              'insight_daily.ln_rate_4w_squares',
              '+',
              eb.ref('excluded.ln_rate_4w_squares'),
            ),
            yielded: eb('insight_daily.yielded', '+', eb.ref('excluded.yielded')),
            plantlets_per_vessel_sum: eb(
              'insight_daily.plantlets_per_vessel_sum',
              '+',
              eb.ref('excluded.plantlets_per_vessel_sum'),
            ),
          })),
      )
      .execute();
  }
}

/** The figures of whole days `fromDay` … before `toDay`, per group and days to contamination. */
export async function dailyTallies(
  db: Db,
  workspaceId: string,
  dimension: Dimension,
  fromDay: string,
  toDay: string,
): Promise<Tally[]> {
  const rows = await db
    .selectFrom('insight_daily')
    .select((eb) => [
      'group_key',
      'contaminated_days',
      eb.fn.sum<number | string>('exposures').as('exposures'),
      eb.fn.sum<number | string>('rated').as('rated'),
      eb.fn.sum<number | string>('ln_rate_sum').as('ln_rate_sum'),
      eb.fn.sum<number | string>('cycle_days_sum').as('cycle_days_sum'),
      eb.fn.sum<number | string>('rated_4w').as('rated_4w'),
      eb.fn.sum<number | string>('ln_rate_4w_sum').as('ln_rate_4w_sum'),
      eb.fn.sum<number | string>('ln_rate_4w_squares').as('ln_rate_4w_squares'),
      eb.fn.sum<number | string>('yielded').as('yielded'),
      eb.fn.sum<number | string>('plantlets_per_vessel_sum').as('plantlets_per_vessel_sum'),
    ])
    .where('workspace_id', '=', workspaceId)
    .where('dimension', '=', dimension)
    .where('day', '>=', fromDay)
    .where('day', '<', toDay)
    .groupBy(['group_key', 'contaminated_days'])
    .execute();
  return rows.map((row) => ({
    group_key: row.group_key,
    contaminated_days: Number(row.contaminated_days),
    exposures: Number(row.exposures),
    rated: Number(row.rated),
    ln_rate_sum: Number(row.ln_rate_sum),
    cycle_days_sum: Number(row.cycle_days_sum),
    rated_4w: Number(row.rated_4w),
    ln_rate_4w_sum: Number(row.ln_rate_4w_sum),
    ln_rate_4w_squares: Number(row.ln_rate_4w_squares),
    yielded: Number(row.yielded),
    plantlets_per_vessel_sum: Number(row.plantlets_per_vessel_sum),
  }));
}

/** The kept handlings at or after `since` and before `before`; with `operatorId`, theirs only. */
export function keptIn(
  db: Db,
  workspaceId: string,
  since: string,
  before: string,
  operatorId: string | null,
): Promise<InsightHandlingTable[]> {
  return db
    .selectFrom('insight_handlings')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .$if(operatorId !== null, (q) => q.where('operator_id', '=', operatorId))
    .where('handled_at', '>=', since)
    .where('handled_at', '<', before)
    .execute();
}

/**
 * A group's kept handlings: those whose `column` is one of `values` (null: none) or,
 * with `orNotIn`, none of those; or those handled `between` two instants.
 */
export type GroupFilter =
  | {
      column: 'operator_id' | 'media_batch_id' | 'room_id' | 'stage' | 'location';
      values: readonly (string | null)[];
      orNotIn?: readonly string[];
    }
  | { between: readonly [string, string] };

/** Newest first: by the handling's time, then its key. */
const NEWEST_FIRST = { columns: ['handled_at', 'key'], direction: 'desc' } as const;

/** A page of a group's kept handlings in a period, newest first. */
export function keptPage(
  db: Db,
  workspaceId: string,
  filter: {
    period: { since: string; before: string };
    operatorId: string | null;
    group: GroupFilter;
    windowDays: number;
    contaminated: boolean | null;
  },
  page: PageRequest,
): Promise<Page<InsightHandlingTable>> {
  const { period, operatorId, group, windowDays, contaminated } = filter;
  const query = db
    .selectFrom('insight_handlings')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('handled_at', '>=', period.since)
    .where('handled_at', '<', period.before)
    .$if(operatorId !== null, (q) => q.where('operator_id', '=', operatorId))
    .$if('between' in group, (q) => {
      const [from, to] = (group as { between: readonly [string, string] }).between;
      return q.where('handled_at', '>=', from).where('handled_at', '<', to);
    })
    .$if('column' in group, (q) =>
      q.where((eb) => {
        const { column, values, orNotIn } = group as Extract<GroupFilter, { column: string }>;
        const named = values.filter((v): v is string => v !== null);
        return eb.or([
          ...(named.length > 0 ? [eb(column, 'in', named)] : []),
          ...(values.includes(null) ? [eb(column, 'is', null)] : []),
          ...(orNotIn === undefined
            ? []
            : [
                orNotIn.length > 0
                  ? eb(column, 'not in', [...orNotIn])
                  : eb(column, 'is not', null),
              ]),
        ]);
      }),
    )
    .$if(contaminated === true, (q) =>
      q.where('contaminated_days', 'is not', null).where('contaminated_days', '<=', windowDays),
    )
    .$if(contaminated === false, (q) =>
      q.where((eb) =>
        eb.or([eb('contaminated_days', 'is', null), eb('contaminated_days', '>', windowDays)]),
      ),
    );
  return fetchPage(query, NEWEST_FIRST, page);
}
