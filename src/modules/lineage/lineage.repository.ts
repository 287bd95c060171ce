import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { isPostgres, type Db, type Trx } from '../../db/database.js';
import { bulkInsert } from '../../db/bulk-insert.js';
import { preparedQuery } from '../../db/prepared.js';
import type { DB, ExplantParentTable } from '../../db/schema.js';
import { EXPLANT_COLUMNS } from '../explants/index.js';
import { highestCycleQuery } from '../transfers/index.js';

export type EdgeRow = ExplantParentTable;

const edgeInsert = bulkInsert('explant_parents', {
  workspace_id: 'text',
  parent_id: 'text',
  child_id: 'text',
  kind: 'text',
  transfer_id: 'text',
  occurred_at: 'text',
  recorded_by: 'text',
  room_id: 'text',
  media_batch_id: 'text',
  created_at: 'text',
});

/** An edge's columns, in order. */
const EDGE_COLUMNS = edgeInsert.columns;

/** A split's or merge's edges (one statement built once: see bulkInsert). */
export async function insertEdges(trx: Trx, rows: readonly EdgeRow[]): Promise<void> {
  await edgeInsert.run(trx, rows);
}

/** The parent's columns, named: a prepared query selects no `*` (db/prepared.ts). */
const PARENT_COLUMNS = EXPLANT_COLUMNS.map((column) => `x.${column}` as const);

/**
 * A split's parent, locked for the split (PostgreSQL; SQLite has one writer), read in one
 * statement with the lab's subculture interval. Undefined when no such explant is visible.
 * What a concurrent split or transfer of the parent changes besides its row is read after
 * the lock, in `splitCounts`: PostgreSQL re-reads a row it waited to lock, but answers
 * the rest of the statement as of when the statement began.
 */
const splitParent = preparedQuery((db, p: { workspaceId: string; parentId: string }) => {
  const query = db
    .selectFrom('explants as x')
    .innerJoin('workspaces as w', 'w.id', 'x.workspace_id')
    .select(PARENT_COLUMNS)
    .select('w.subculture_interval_days as split_interval_days')
    .where('x.workspace_id', '=', p.workspaceId)
    .where('x.id', '=', p.parentId)
    .where('x.deleted_at', 'is', null);
  return isPostgres(db) ? query.forNoKeyUpdate('x') : query;
});

export async function lockSplitParent(
  trx: Trx,
  workspaceId: string,
  parentId: string,
): Promise<{ parent: DB['explants']; intervalDays: number } | undefined> {
  const row = await splitParent.first(trx, { workspaceId, parentId });
  if (row === undefined) return undefined;
  const { split_interval_days: intervalDays, ...parent } = row;
  return { parent, intervalDays };
}

/** The locked parent's highest transfer cycle and how many children it has, in one statement. */
const splitCountsQuery = preparedQuery((db, p: { workspaceId: string; parentId: string }) =>
  db.selectNoFrom([
    highestCycleQuery(db, {
      workspaceId: p.workspaceId,
      entityType: 'explant',
      entityId: p.parentId,
    }).as('highest_cycle'),
    db
      .selectFrom('explant_parents as e')
      .select((c) => c.fn.countAll<string | number>().as('n'))
      .where('e.workspace_id', '=', p.workspaceId)
      .where('e.parent_id', '=', p.parentId)
      .as('children'),
  ]),
);

/**
 * What a split numbers by, read once its parent is locked: the parent's highest transfer
 * cycle (0 when none), which its transfer follows, and its children, after whom its
 * daughters' labels are numbered.
 */
export async function splitCounts(
  trx: Trx,
  workspaceId: string,
  parentId: string,
): Promise<{ highestCycle: number; children: number }> {
  const row = await splitCountsQuery.first(trx, { workspaceId, parentId });
  return {
    highestCycle: Number(row?.highest_cycle ?? 0),
    children: Number(row?.children ?? 0),
  };
}

/** Where a walk starts: one explant (generation 0), or a plant's first explants (generation 1). */
export type WalkStart = { readonly explantId: string } | { readonly plantId: string };

export interface Walk {
  readonly workspaceId: string;
  readonly start: WalkStart;
  readonly direction: 'ancestors' | 'descendants';
  readonly depth: number;
}

/**
 * The walk's table: each explant reached, at each generation it is reached at, with the
 * edge it was reached by (none for where the walk starts).
 */
type WalkDb = DB & {
  walk: { id: string; generation: number; parent_id: string | null; child_id: string | null };
};

/**
 * The recursive walk over the family (`WITH RECURSIVE walk(id, generation, parent_id,
 * child_id)`), one step a generation along explant_parents, up to `depth` generations:
 * `UNION` keeps one row per explant, generation and edge, so a family that meets again
 * (a merge) is walked once per generation, and the bound ends it whatever the rows hold.
 */
function withWalk(db: Db, walk: Walk): Kysely<WalkDb> {
  const { workspaceId, start, depth } = walk;
  const up = walk.direction === 'ancestors';
  const none = sql<string | null>`cast(null as text)`;
  return db.withRecursive('walk(id, generation, parent_id, child_id)', (qb) => {
    const anchor =
      'explantId' in start
        ? qb
            .selectFrom('explants')
            .select([
              'id',
              sql<number>`0`.as('generation'),
              none.as('parent_id'),
              none.as('child_id'),
            ])
            .where('workspace_id', '=', workspaceId)
            .where('id', '=', start.explantId)
            .where('deleted_at', 'is', null)
        : qb
            .selectFrom('explants')
            .select([
              'id',
              sql<number>`1`.as('generation'),
              none.as('parent_id'),
              none.as('child_id'),
            ])
            .where('workspace_id', '=', workspaceId)
            .where('plant_id', '=', start.plantId)
            .where('parent_explant_ids', '=', '[]')
            .where('deleted_at', 'is', null);
    // Each step reads the edges of the rows walked (CROSS JOIN keeps that order on
    // SQLite: with bound parameters its planner otherwise scanned the lab's every edge
    // for each row walked, seconds for a family of thousands).
    return anchor.union(
      qb
        .selectFrom('walk as w')
        .crossJoin('explant_parents as e')
        .whereRef(up ? 'e.child_id' : 'e.parent_id', '=', 'w.id')
        .select([
          up ? 'e.parent_id as id' : 'e.child_id as id',
          sql<number>`w.generation + 1`.as('generation'),
          'e.parent_id',
          'e.child_id',
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

export interface Family {
  /** The explants reached, each at the nearest generation it is reached at; nearest first, then oldest. */
  nodes: NodeRow[];
  /** The edges walked (between the explants reached), oldest first. */
  edges: EdgeRow[];
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The explant's columns in a family's row, after the walk's explant, its generation and `x.id`. */
const EXPLANT_PART = [
  'label',
  'current_stage',
  'current_stage_name',
  'status',
  'plant_id',
  'current_count',
  'plantlet_count',
  'created_at',
  'archived_at',
] as const;

/** A family's row, in select order: the walk's part, the explant's, then the edge's. */
const NODE_COLUMNS = ['id', 'generation', 'explant_id', ...EXPLANT_PART] as const;

/** Where each of the node's columns is in a family's row. */
const NODE_AT = Object.fromEntries(NODE_COLUMNS.map((column, i) => [column, i])) as Record<
  (typeof NODE_COLUMNS)[number],
  number
>;

/** Where each of an edge's columns is in a family's row: after the node's. */
const EDGE_AT = Object.fromEntries(
  EDGE_COLUMNS.map((column, i) => [column, NODE_COLUMNS.length + i]),
) as Record<(typeof EDGE_COLUMNS)[number], number>;

type FamilyParams = { workspaceId: string; startId: string; depth: number };

/**
 * The query of a walk's explants and edges, of each shape a walk takes (which way, from
 * an explant or a plant): each row of the walk with its explant (none when deleted) and
 * its edge (none where it starts), compiled once and read as tuples. A family of
 * thousands is thousands of rows of 22 columns; on SQLite, making an object of each took
 * two thirds of the query's time.
 */
function familyQuery(direction: Walk['direction'], from: 'explant' | 'plant') {
  return preparedQuery((db, p: FamilyParams) =>
    withWalk(db, {
      workspaceId: p.workspaceId,
      start: from === 'explant' ? { explantId: p.startId } : { plantId: p.startId },
      direction,
      depth: p.depth,
    })
      .selectFrom('walk as w')
      .leftJoin('explants as x', (join) =>
        join
          .onRef('x.id', '=', 'w.id')
          .on('x.workspace_id', '=', p.workspaceId)
          .on('x.deleted_at', 'is', null),
      )
      .leftJoin('explant_parents as e', (join) =>
        join
          .onRef('e.child_id', '=', 'w.child_id')
          .onRef('e.parent_id', '=', 'w.parent_id')
          .on('e.workspace_id', '=', p.workspaceId),
      )
      .select([
        'w.id',
        'w.generation',
        'x.id as explant_id',
        ...EXPLANT_PART.map((column) => `x.${column}` as const),
        ...EDGE_COLUMNS.map((column) => `e.${column} as edge_${column}` as const),
      ]),
  );
}

const familyQueries = {
  'descendants explant': familyQuery('descendants', 'explant'),
  'descendants plant': familyQuery('descendants', 'plant'),
  'ancestors explant': familyQuery('ancestors', 'explant'),
  'ancestors plant': familyQuery('ancestors', 'plant'),
} as const;

/** The explants a walk reaches and the edges it walks, in one query (`familyQuery`). */
export async function walkFamily(db: Db, walk: Walk): Promise<Family> {
  const { start } = walk;
  const [from, startId] =
    'explantId' in start
      ? (['explant', start.explantId] as const)
      : (['plant', start.plantId] as const);
  const tuples = await familyQueries[`${walk.direction} ${from}`].tuples(db, {
    workspaceId: walk.workspaceId,
    startId,
    depth: walk.depth,
  });
  const nodes = new Map<string, NodeRow>();
  const edges = new Map<string, EdgeRow>();
  for (const t of tuples) {
    const id = t[NODE_AT.id] as string;
    const generation = Number(t[NODE_AT.generation]);
    if (t[NODE_AT.explant_id] !== null && (nodes.get(id)?.generation ?? Infinity) > generation) {
      nodes.set(id, {
        id,
        label: t[NODE_AT.label] as string,
        current_stage: t[NODE_AT.current_stage] as string | null,
        current_stage_name: t[NODE_AT.current_stage_name] as string | null,
        status: t[NODE_AT.status] as string,
        generation,
        plant_id: t[NODE_AT.plant_id] as string | null,
        current_count: t[NODE_AT.current_count] as number | null,
        plantlet_count: t[NODE_AT.plantlet_count] as number | null,
        created_at: t[NODE_AT.created_at] as string,
        archived_at: t[NODE_AT.archived_at] as string | null,
      });
    }
    const parentId = t[EDGE_AT.parent_id] as string | null;
    const childId = t[EDGE_AT.child_id] as string | null;
    if (parentId !== null && childId !== null) {
      edges.set(`${parentId} ${childId}`, {
        workspace_id: t[EDGE_AT.workspace_id] as string,
        parent_id: parentId,
        child_id: childId,
        kind: t[EDGE_AT.kind] as string,
        transfer_id: t[EDGE_AT.transfer_id] as string | null,
        occurred_at: t[EDGE_AT.occurred_at] as string,
        recorded_by: t[EDGE_AT.recorded_by] as string | null,
        room_id: t[EDGE_AT.room_id] as string | null,
        media_batch_id: t[EDGE_AT.media_batch_id] as string | null,
        created_at: t[EDGE_AT.created_at] as string,
      });
    }
  }
  return {
    nodes: [...nodes.values()].sort(
      (a, b) =>
        a.generation - b.generation || byText(a.created_at, b.created_at) || byText(a.id, b.id),
    ),
    edges: [...edges.values()].sort(
      (a, b) =>
        byText(a.occurred_at, b.occurred_at) ||
        byText(a.child_id, b.child_id) ||
        byText(a.parent_id, b.parent_id),
    ),
  };
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
