import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { isPostgres, type Db, type Trx } from '../../db/database.js';
import type { DB, ExplantParentTable } from '../../db/schema.js';

export type EdgeRow = ExplantParentTable;

const EDGE_COLUMNS = [
  'workspace_id',
  'parent_id',
  'child_id',
  'kind',
  'transfer_id',
  'occurred_at',
  'recorded_by',
  'room_id',
  'media_batch_id',
  'created_at',
] as const;

export async function insertEdges(trx: Trx, rows: readonly EdgeRow[]): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('explant_parents')
    .values([...rows])
    .execute();
}

/** How many children an explant has (a split numbers its daughters' labels after them). */
export async function countChildren(
  db: Db,
  workspaceId: string,
  parentId: string,
): Promise<number> {
  const row = await db
    .selectFrom('explant_parents')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('parent_id', '=', parentId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Where a walk starts: one explant (generation 0), or a plant's first explants (generation 1). */
export type WalkStart = { readonly explantId: string } | { readonly plantId: string };

export interface Walk {
  readonly workspaceId: string;
  readonly start: WalkStart;
  readonly direction: 'ancestors' | 'descendants';
  readonly depth: number;
}

/** The walk's table: each explant reached, at each generation it is reached at. */
type WalkDb = DB & { walk: { id: string; generation: number } };

/**
 * The recursive walk over the family (`WITH RECURSIVE walk(id, generation)`), one step
 * a generation along explant_parents, up to `depth` generations: `UNION` keeps one row
 * per explant and generation, so a family that meets again (a merge) is walked once per
 * generation, and the bound ends it whatever the rows hold.
 */
function withWalk(db: Db, walk: Walk): Kysely<WalkDb> {
  const { workspaceId, start, depth } = walk;
  const up = walk.direction === 'ancestors';
  return db.withRecursive('walk(id, generation)', (qb) => {
    const anchor =
      'explantId' in start
        ? qb
            .selectFrom('explants')
            .select(['id', sql<number>`0`.as('generation')])
            .where('workspace_id', '=', workspaceId)
            .where('id', '=', start.explantId)
            .where('deleted_at', 'is', null)
        : qb
            .selectFrom('explants')
            .select(['id', sql<number>`1`.as('generation')])
            .where('workspace_id', '=', workspaceId)
            .where('plant_id', '=', start.plantId)
            .where('parent_explant_ids', '=', '[]')
            .where('deleted_at', 'is', null);
    return anchor.union(
      qb
        .selectFrom('explant_parents as e')
        .innerJoin('walk as w', 'w.id', up ? 'e.child_id' : 'e.parent_id')
        .select([
          up ? 'e.parent_id as id' : 'e.child_id as id',
          sql<number>`w.generation + 1`.as('generation'),
        ])
        .where('e.workspace_id', '=', workspaceId)
        .where('w.generation', '<', depth),
    );
  }) as unknown as Kysely<WalkDb>;
}

export interface NodeRow {
  id: string;
  label: string;
  current_stage: string | null;
  current_stage_name: string | null;
  status: string;
  generation: number;
  plant_id: string | null;
  current_count: number | null;
  plantlet_count: number | null;
  created_at: string;
  archived_at: string | null;
}

/** The explants a walk reaches, nearest generation first, then oldest first. */
export async function walkNodes(db: Db, walk: Walk): Promise<NodeRow[]> {
  const rows = await withWalk(db, walk)
    // Each explant once, at the nearest generation it is reached at.
    .selectFrom((eb) =>
      eb
        .selectFrom('walk')
        .select(['id', (inner) => inner.fn.min<number>('generation').as('generation')])
        .groupBy('id')
        .as('g'),
    )
    .innerJoin('explants as x', 'x.id', 'g.id')
    .select([
      'x.id',
      'x.label',
      'x.current_stage',
      'x.current_stage_name',
      'x.status',
      'g.generation',
      'x.plant_id',
      'x.current_count',
      'x.plantlet_count',
      'x.created_at',
      'x.archived_at',
    ])
    .where('x.workspace_id', '=', walk.workspaceId)
    .where('x.deleted_at', 'is', null)
    .orderBy('g.generation')
    .orderBy('x.created_at')
    .orderBy('x.id')
    .execute();
  return rows.map((row) => ({ ...row, generation: Number(row.generation) }));
}

/**
 * The edges between the explants a walk reaches: from each one short of the last
 * generation to the next (its children, or its parents for ancestors).
 */
export async function walkEdges(db: Db, walk: Walk): Promise<EdgeRow[]> {
  const up = walk.direction === 'ancestors';
  const inner = walk.depth - 1;
  return withWalk(db, walk)
    .selectFrom('explant_parents as e')
    .select(EDGE_COLUMNS.map((column) => `e.${column}` as const))
    .where('e.workspace_id', '=', walk.workspaceId)
    .where(up ? 'e.child_id' : 'e.parent_id', 'in', (eb) =>
      eb.selectFrom('walk').select('id').where('generation', '<=', inner),
    )
    .where(up ? 'e.parent_id' : 'e.child_id', 'in', (eb) => eb.selectFrom('walk').select('id'))
    .orderBy('e.occurred_at')
    .orderBy('e.child_id')
    .orderBy('e.parent_id')
    .execute();
}

/** Whether `ancestorId` is among the ancestors of `explantId` (or is it). */
export async function descendsFrom(
  db: Db,
  workspaceId: string,
  explantId: string,
  ancestorIds: readonly string[],
  depth: number,
): Promise<string | null> {
  const row = await withWalk(db, {
    workspaceId,
    start: { explantId },
    direction: 'ancestors',
    depth,
  })
    .selectFrom('walk')
    .select('id')
    .where('id', 'in', [...ancestorIds])
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

export interface RecallRow {
  id: string;
  status: string;
  /** Where the culture is now: those who follow the room are told of the recall. */
  current_room_id: string | null;
}

/**
 * The explants a recall changes: those the walk reaches (of one generation, when
 * asked), not archived, not already in `status` and not in one of `ended`; locked
 * (PostgreSQL) until the recall commits, in id order.
 */
export async function recallCandidates(
  trx: Db,
  walk: Walk,
  filter: { status: string; ended: readonly string[]; generation: number | null },
  lock: boolean,
): Promise<RecallRow[]> {
  const reached = (eb: ExpressionBuilder<WalkDb, 'explants'>) => {
    const ids = eb.selectFrom('walk').select('id').groupBy('id');
    return filter.generation === null
      ? ids
      : ids.having((h) => h.fn.min('generation'), '=', filter.generation);
  };
  const query = withWalk(trx, walk)
    .selectFrom('explants')
    .select(['id', 'status', 'current_room_id'])
    .where('workspace_id', '=', walk.workspaceId)
    .where('id', 'in', reached)
    .where('deleted_at', 'is', null)
    .where('archived_at', 'is', null)
    .where('status', 'not in', [filter.status, ...filter.ended])
    .orderBy('id');
  return (lock && isPostgres(trx) ? query.forNoKeyUpdate() : query).execute();
}

/** Sets the status of some explants (a recall), a chunk of ids at a time. */
export async function setStatuses(
  trx: Trx,
  workspaceId: string,
  ids: readonly string[],
  status: string,
  now: string,
): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    await trx
      .updateTable('explants')
      .set({ status, updated_at: now })
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
  }
}

/** What a recall's notice calls the plant or explant recalled: its label, or its name. */
export async function recalledLabel(
  db: Db,
  workspaceId: string,
  target: { entity: 'plant' | 'explant'; id: string },
): Promise<string> {
  if (target.entity === 'explant') {
    const row = await db
      .selectFrom('explants')
      .select('label')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', target.id)
      .executeTakeFirst();
    return row?.label ?? target.id;
  }
  const row = await db
    .selectFrom('plants')
    .select(['common_name', 'species'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', target.id)
    .executeTakeFirst();
  if (row === undefined) return target.id;
  return row.common_name !== null && row.common_name !== '' ? row.common_name : row.species;
}
