import type { Db, Trx } from '../../db/database.js';
import type { StageTable } from '../../db/schema.js';
import { mediaBatchLabel } from '../media-batches/index.js';

/*
 * What the insights are computed from: the explants handled in a period, with every
 * handling, stage, family edge and contamination of theirs (before and after the
 * period too: a handling's previous and next ones may lie outside it). Read only.
 */

/** A period: handlings at or after `since` and before `before`. */
export interface Period {
  readonly since: string;
  readonly before: string;
}

/** Which explants: all of the workspace, or those of some plants. */
export interface ExplantScope {
  readonly plantIds: readonly string[] | null;
}

export interface ExplantFact {
  id: string;
  plant_id: string | null;
  created_by: string | null;
  created_at: string;
  initial_count: number | null;
  current_count: number | null;
  status: string;
  updated_at: string;
  /** The batch it was last put on (its making's, until a transfer names another). */
  media_batch_id: string | null;
}

export interface TransferFact {
  id: string;
  entity_id: string;
  transfer_date: string;
  transfer_cycle: number;
  from_location: string | null;
  vessel_count: number | null;
  plantlet_count: number | null;
  created_by: string | null;
  media_batch_id: string | null;
}

export interface EdgeFact {
  parent_id: string;
  child_id: string;
  kind: string;
  transfer_id: string | null;
  /** The child's vessels when it was made. */
  initial_count: number | null;
  /** The batch the child went onto. */
  media_batch_id: string | null;
}

export type StageFact = Pick<
  StageTable,
  'id' | 'entity_id' | 'stage' | 'status' | 'entered_on' | 'completed_at' | 'room_id'
>;

export interface ContaminationFact {
  id: string;
  entity_id: string;
  observed_at: string;
  resolution_outcome: string | null;
}

export interface Facts {
  /** `made_media_batch_id`: the batch its making put it on (its created event says). */
  explants: (ExplantFact & { made_media_batch_id?: string | null })[];
  transfers: TransferFact[];
  edges: EdgeFact[];
  stages: StageFact[];
  contaminations: ContaminationFact[];
}

/** A scope's plants as an `in` list: one that matches nothing when there are none. */
const plantList = (plantIds: readonly string[]) => (plantIds.length === 0 ? [''] : [...plantIds]);

/**
 * The ids of the explants (not deleted) handled in the period: created in it, or
 * with a completed transfer dated in it.
 */
function handledIn(db: Db, workspaceId: string, period: Period, scope: ExplantScope) {
  let created = db
    .selectFrom('explants')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .where('created_at', '>=', period.since)
    .where('created_at', '<', period.before);
  let transferred = db
    .selectFrom('transfers as t')
    .innerJoin('explants as x', 'x.id', 't.entity_id')
    .select('t.entity_id as id')
    .where('t.workspace_id', '=', workspaceId)
    .where('t.entity_type', '=', 'explant')
    .where('t.status', '=', 'completed')
    .where('t.transfer_date', '>=', period.since)
    .where('t.transfer_date', '<', period.before)
    .where('x.workspace_id', '=', workspaceId)
    .where('x.deleted_at', 'is', null);
  if (scope.plantIds !== null) {
    const plants = plantList(scope.plantIds);
    created = created.where('plant_id', 'in', plants);
    transferred = transferred.where('x.plant_id', 'in', plants);
  }
  return created.union(transferred);
}

/** Every fact the insights of a period need, for the explants handled in it. */
export function loadFacts(
  db: Db,
  workspaceId: string,
  period: Period,
  scope: ExplantScope,
): Promise<Facts> {
  return factsOf(db, workspaceId, () => handledIn(db, workspaceId, period, scope), period.since);
}

/** Some explants, by id or by a query of ids. */
type ExplantIds = () => ReturnType<typeof handledIn> | string[];

/** The completed transfers of explants, as facts. */
const TRANSFER_FACT_COLUMNS = [
  'id',
  'entity_id',
  'transfer_date',
  'transfer_cycle',
  'from_location',
  'vessel_count',
  'plantlet_count',
  'created_by',
  'media_batch_id',
] as const;

const transferFacts = (db: Db | Trx, workspaceId: string) =>
  db
    .selectFrom('transfers')
    .select(TRANSFER_FACT_COLUMNS)
    .where('workspace_id', '=', workspaceId)
    .where('entity_type', '=', 'explant')
    .where('status', '=', 'completed');

/** Family edges, with the child's vessels when it was made. */
const edgeFacts = (db: Db | Trx, workspaceId: string) =>
  db
    .selectFrom('explant_parents as e')
    .innerJoin('explants as c', 'c.id', 'e.child_id')
    .select([
      'e.parent_id',
      'e.child_id',
      'e.kind',
      'e.transfer_id',
      'c.initial_count',
      'e.media_batch_id',
    ])
    .where('e.workspace_id', '=', workspaceId)
    .where('c.workspace_id', '=', workspaceId);

/** The stages of some explants. */
const stageFacts = (db: Db | Trx, workspaceId: string, ids: ReturnType<ExplantIds>) =>
  db
    .selectFrom('stages')
    .select(['id', 'entity_id', 'stage', 'status', 'entered_on', 'completed_at', 'room_id'])
    .where('workspace_id', '=', workspaceId)
    .where('entity_type', '=', 'explant')
    .where('entity_id', 'in', ids)
    .execute();

/** The contaminations (not deleted) of some explants; with `since`, those observed after it. */
const contaminationFacts = (
  db: Db | Trx,
  workspaceId: string,
  ids: ReturnType<ExplantIds>,
  since: string | null,
) =>
  db
    .selectFrom('contaminations')
    .select(['id', 'entity_id', 'observed_at', 'resolution_outcome'])
    .where('workspace_id', '=', workspaceId)
    .where('entity_type', '=', 'explant')
    .where('deleted_at', 'is', null)
    .$if(since !== null, (q) => q.where('observed_at', '>', since!))
    .where('entity_id', 'in', ids)
    .execute();

/**
 * Every fact the handlings of some explants (not deleted) are made from; with
 * `contaminationsSince`, only the contaminations observed after it.
 */
export async function factsOf(
  db: Db,
  workspaceId: string,
  ids: ExplantIds,
  contaminationsSince: string | null,
): Promise<Facts> {
  const [explants, transfers, edges, stages, contaminations] = await Promise.all([
    db
      .selectFrom('explants')
      .select([
        'id',
        'plant_id',
        'created_by',
        'created_at',
        'initial_count',
        'current_count',
        'status',
        'updated_at',
        'media_batch_id',
      ])
      .where('workspace_id', '=', workspaceId)
      .where('deleted_at', 'is', null)
      .where('id', 'in', ids())
      .execute(),
    transferFacts(db, workspaceId).where('entity_id', 'in', ids()).execute(),
    edgeFacts(db, workspaceId)
      .where((eb) => eb.or([eb('e.parent_id', 'in', ids()), eb('e.child_id', 'in', ids())]))
      .execute(),
    stageFacts(db, workspaceId, ids()),
    contaminationFacts(db, workspaceId, ids(), contaminationsSince),
  ]);
  const made = await madeMediaBatches(db, workspaceId, ids());
  return {
    explants: explants.map((x) => ({
      ...x,
      made_media_batch_id: made.has(x.id) ? made.get(x.id)! : x.media_batch_id,
    })),
    transfers,
    edges,
    stages,
    contaminations,
  };
}

/** Ids per `in` list of the drain's reads: under both databases' limits on bound values. */
const IDS_PER_READ = 1000;

/**
 * The facts a few transfers added to explants' histories need (`appendedHandlings`):
 * those transfers (completed ones) with their family edges, and the explants' stages
 * and contaminations observed after `since`.
 */
export async function appendedFactsOf(
  trx: Trx,
  workspaceId: string,
  explantIds: readonly string[],
  transferIds: readonly string[],
  since: string,
): Promise<Omit<Facts, 'explants'>> {
  const transfers: TransferFact[] = [];
  for (let i = 0; i < transferIds.length; i += IDS_PER_READ) {
    // By id alone: SQLite (no statistics) would rather walk the lab's transfers by its
    // (workspace, kind) index than look a few up by id. The lab, kind and status are
    // checked on the rows read.
    const rows = await trx
      .selectFrom('transfers')
      .select([...TRANSFER_FACT_COLUMNS, 'workspace_id', 'entity_type', 'status'])
      .where('id', 'in', transferIds.slice(i, i + IDS_PER_READ))
      .execute();
    for (const { workspace_id, entity_type, status, ...fact } of rows) {
      if (workspace_id === workspaceId && entity_type === 'explant' && status === 'completed') {
        transfers.push(fact);
      }
    }
  }
  const added = new Set(transferIds);
  const [edges, stages, contaminations] = await Promise.all([
    // A transfer's edges go from its explant (the parent split or pooled) to the children.
    edgeFacts(trx, workspaceId)
      .where('e.parent_id', 'in', [...explantIds])
      .execute(),
    stageFacts(trx, workspaceId, [...explantIds]),
    contaminationFacts(trx, workspaceId, [...explantIds], since),
  ]);
  return {
    transfers,
    edges: edges.filter((e) => e.transfer_id !== null && added.has(e.transfer_id)),
    stages,
    contaminations,
  };
}

/**
 * The batch each explant was made on, for those a later transfer put on a batch (the
 * explant's own column then names the transfer's): from their `created` events.
 */
async function madeMediaBatches(
  db: Db,
  workspaceId: string,
  ids: ReturnType<ExplantIds>,
): Promise<Map<string, string | null>> {
  const rows = await db
    .selectFrom('events')
    .select(['entity_id', 'payload'])
    .where('workspace_id', '=', workspaceId)
    .where('entity_type', '=', 'explant')
    .where('event_type', '=', 'created')
    .where('entity_id', 'in', (eb) =>
      eb
        .selectFrom('transfers')
        .select('entity_id')
        .where('workspace_id', '=', workspaceId)
        .where('entity_type', '=', 'explant')
        .where('media_batch_id', 'is not', null)
        .where('entity_id', 'in', ids),
    )
    .execute();
  return new Map(
    rows.map((row) => {
      const payload = JSON.parse(row.payload) as { media_batch_id?: string } | null;
      return [row.entity_id, payload?.media_batch_id ?? null];
    }),
  );
}

/** Names of the workspace's members, rooms, plants, media batches and their recipes, by id. */
export async function namesOf(
  db: Db,
  workspaceId: string,
): Promise<{
  members: Map<string, string>;
  rooms: Map<string, string>;
  plants: Map<string, { name: string; species: string }>;
  mediaBatches: Map<string, { label: string; recipeId: string }>;
  recipes: Map<string, string>;
}> {
  const [members, rooms, plants, batches] = await Promise.all([
    db
      .selectFrom('members')
      .select(['id', 'name'])
      .where('workspace_id', '=', workspaceId)
      .execute(),
    db.selectFrom('rooms').select(['id', 'name']).where('workspace_id', '=', workspaceId).execute(),
    db
      .selectFrom('plants')
      .select(['id', 'common_name', 'species'])
      .where('workspace_id', '=', workspaceId)
      .where('deleted_at', 'is', null)
      .execute(),
    // A batch's recipe may be another lab's public one: named through the batch.
    db
      .selectFrom('media_batches as b')
      .innerJoin('media_recipes as r', 'r.id', 'b.recipe_id')
      .select(['b.id', 'b.recipe_id', 'b.prepared_at', 'r.title'])
      .where('b.workspace_id', '=', workspaceId)
      .execute(),
  ]);
  return {
    members: new Map(members.map((m) => [m.id, m.name])),
    rooms: new Map(rooms.map((r) => [r.id, r.name])),
    plants: new Map(
      plants.map((p) => [
        p.id,
        {
          name: p.common_name !== null && p.common_name !== '' ? p.common_name : p.species,
          species: p.species,
        },
      ]),
    ),
    mediaBatches: new Map(
      batches.map((b) => [
        b.id,
        { label: mediaBatchLabel(b.title, b.prepared_at), recipeId: b.recipe_id },
      ]),
    ),
    recipes: new Map(batches.map((b) => [b.recipe_id, b.title])),
  };
}

/** The labels of some explants of the workspace, by id. */
export async function explantLabels(
  db: Db,
  workspaceId: string,
  ids: readonly string[],
): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('explants')
    .select(['id', 'label'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((row) => [row.id, row.label]));
}

/** The plants of a species (exact, case-insensitive), not deleted. */
export async function plantsOfSpecies(
  db: Db,
  workspaceId: string,
  species: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('plants')
    .select(['id', 'species'])
    .where('workspace_id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .execute();
  const wanted = species.trim().toLowerCase();
  return rows.filter((row) => row.species.trim().toLowerCase() === wanted).map((row) => row.id);
}

/** The explant stages entered in the period (of some plants' explants), joined with their explant. */
function staysIn(db: Db, workspaceId: string, period: Period, scope: ExplantScope) {
  let query = db
    .selectFrom('stages as s')
    .innerJoin('explants as x', 'x.id', 's.entity_id')
    .where('s.workspace_id', '=', workspaceId)
    .where('s.entity_type', '=', 'explant')
    .where('s.entered_on', '>=', period.since)
    .where('s.entered_on', '<', period.before)
    .where('x.workspace_id', '=', workspaceId)
    .where('x.deleted_at', 'is', null);
  if (scope.plantIds !== null) {
    query = query.where('x.plant_id', 'in', plantList(scope.plantIds));
  }
  return query;
}

/**
 * How many stays of the period each stage has, by whether the explant moved on from
 * it (`completed`: 1) and, for those that did not, by the explant's status and (for
 * a discarded one) whether a contamination of it observed in the period was resolved
 * as discarded (`for_contamination`: 1).
 */
export async function stayCounts(
  db: Db,
  workspaceId: string,
  period: Period,
  scope: ExplantScope,
): Promise<
  {
    stage: string;
    completed: number;
    explant_status: string;
    for_contamination: number;
    stays: number;
  }[]
> {
  // The explants with such a contamination, joined once (not looked up per stay).
  const discarded = db
    .selectFrom('contaminations')
    .select('entity_id')
    .distinct()
    .where('workspace_id', '=', workspaceId)
    .where('entity_type', '=', 'explant')
    .where('deleted_at', 'is', null)
    .where('resolution_outcome', '=', 'discarded')
    .where('observed_at', '>=', period.since);
  const rows = await staysIn(db, workspaceId, period, scope)
    .leftJoin(discarded.as('d'), 'd.entity_id', 's.entity_id')
    .select((eb) => [
      's.stage',
      eb
        .case()
        .when('s.completed_at', 'is', null)
        .then(eb.lit(0))
        .else(eb.lit(1))
        .end()
        .as('completed'),
      'x.status as explant_status',
      eb
        .case()
        .when(
          eb.and([
            eb('s.completed_at', 'is', null),
            eb('x.status', '=', 'discarded'),
            eb('d.entity_id', 'is not', null),
          ]),
        )
        .then(eb.lit(1))
        .else(eb.lit(0))
        .end()
        .as('for_contamination'),
      eb.fn.countAll<number | string>().as('stays'),
    ])
    .groupBy(['s.stage', 'completed', 'x.status', 'for_contamination'])
    .execute();
  return rows.map((row) => ({
    stage: row.stage,
    completed: Number(row.completed),
    explant_status: row.explant_status,
    for_contamination: Number(row.for_contamination),
    stays: Number(row.stays),
  }));
}

/** The stays of the period the explant moved on from: when each was entered and left. */
export function completedStays(
  db: Db,
  workspaceId: string,
  period: Period,
  scope: ExplantScope,
): Promise<{ stage: string; entered_on: string; completed_at: string | null }[]> {
  return staysIn(db, workspaceId, period, scope)
    .select(['s.stage', 's.entered_on', 's.completed_at'])
    .where('s.completed_at', 'is not', null)
    .execute();
}

/** The vessels of a plant's living explants now: not ended, not archived, not deleted. */
export async function livingVessels(
  db: Db,
  workspaceId: string,
  plantId: string,
  endedStatuses: readonly string[],
): Promise<number> {
  const row = await db
    .selectFrom('explants')
    .select((eb) => eb.fn.sum<string | number | null>('current_count').as('vessels'))
    .where('workspace_id', '=', workspaceId)
    .where('plant_id', '=', plantId)
    .where('deleted_at', 'is', null)
    .where('archived_at', 'is', null)
    .where('status', 'not in', [...endedStatuses])
    .executeTakeFirst();
  return Number(row?.vessels ?? 0);
}
