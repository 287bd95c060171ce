import type { EntityType } from '../events/index.js';
import type { Routes } from '../../kernel/routes/index.js';
import type { LineageRecords } from './family.js';
import {
  ExplantParams,
  Lineage,
  LineageQuery,
  MergeBody,
  MergeResult,
  PlantLineageQuery,
  PlantParams,
  RecallBody,
  RecallResult,
  SplitBody,
  SplitResult,
} from './lineage.schemas.js';
import { readLineage, recall } from './lineage.service.js';
import { mergeExplants } from './merge.service.js';
import { splitExplant } from './split.service.js';

const FAMILY =
  "Beyond the wire format: an explant's family is kept by splits and merges (each explant " +
  'answers its `parent_explant_ids`).';

const RECALL =
  'Puts every explant descended from it (or of one `generation`) into `status` (default ' +
  '`quarantined`) with a `reason`, in one transaction: each changed explant gets an `updated` ' +
  'event naming the recall, and the record recalled a `recalled` event listing them (both ' +
  'reach webhooks). Archived explants, those already in that status and those that have ended ' +
  '(discarded, retired, lost) are left as they are. `dry_run: true` answers the same count and ' +
  'ids and changes nothing. Managers and up.';

export function registerLineageRoutes(routes: Routes, deps: { records: LineageRecords }): void {
  routes.write({
    method: 'POST',
    url: '/api/v1/explants/:id/split',
    operationId: 'splitExplant',
    tags: ['Explants'],
    summary: 'Split an explant into daughters',
    description:
      `${FAMILY} A subculture that makes one daughter explant per element of \`daughters\`, ` +
      'with the vessels and plantlets that leave the parent for it, in one transaction: the ' +
      'parent gets a transfer as POST /transfers records one, its counts down by what left (422 ' +
      'when more would leave than it has, or it has no vessel count); each daughter is created as ' +
      'POST /explants creates one, labelled after the parent (`<label>.1`, `.2`, …) unless named, ' +
      "in the parent's stage and room unless it names others, and a `split` event on the parent " +
      'names them. Any member, as for a transfer. An archived or ended explant cannot be split.',
    scope: 'write:explants',
    failureCode: 'EXPLANT_CREATE_FAILED',
    params: ExplantParams,
    notFound: 'Explant',
    body: SplitBody,
    data: SplitResult,
    handler: async (req, ctx) => ({
      data: await splitExplant(
        ctx.trx,
        ctx.principal,
        req.params.id,
        req.body,
        deps.records,
        ctx.now,
      ),
    }),
  });

  routes.write({
    method: 'POST',
    url: '/api/v1/explants/merge',
    operationId: 'mergeExplants',
    tags: ['Explants'],
    summary: 'Pool explants into one',
    description:
      `${FAMILY} Pools \`explant_ids\` into a new explant (\`label\`) or into one that exists ` +
      '(`into_explant_id`), which gets all their vessels and plantlets and keeps them as its ' +
      'parents, in one transaction: each pooled explant gets a transfer that leaves it none, the ' +
      'child is created (or gets a transfer with its new counts), and a `merged` event on the ' +
      'child names them. 422 when an id is unknown, named twice, archived or ended, or when the ' +
      'child descends from one of them (the family would loop). Any member.',
    scope: 'write:explants',
    failureCode: 'EXPLANT_CREATE_FAILED',
    body: MergeBody,
    data: MergeResult,
    handler: async (req, ctx) => ({
      data: await mergeExplants(ctx.trx, ctx.principal, req.body, deps.records, ctx.now),
    }),
  });

  routes.read({
    url: '/api/v1/explants/:id/lineage',
    operationId: 'getExplantLineage',
    tags: ['Explants'],
    summary: "An explant's family",
    description:
      `${FAMILY} Its ancestors or its descendants (\`direction\`, default descendants) within ` +
      '`depth` generations (1 to 50, default 50): the explants as `nodes`, each at the nearest ' +
      '`generation` it is reached at (0: the explant itself), and the `edges` between them with ' +
      'the transfer, time, person, room and medium batch of each.',
    scope: 'read:explants',
    failureCode: 'EXPLANT_QUERY_FAILED',
    params: ExplantParams,
    notFound: 'Explant',
    querystring: LineageQuery,
    data: Lineage,
    handler: async (req, ctx) => ({
      data: await readLineage(
        ctx.db,
        ctx.principal.workspaceId,
        { entity: 'explant', id: req.params.id },
        req.query,
        deps.records,
      ),
    }),
  });

  routes.read({
    url: '/api/v1/plants/:id/lineage',
    operationId: 'getPlantLineage',
    tags: ['Plants'],
    summary: 'The explants descended from a plant',
    description:
      `${FAMILY} The explants started from the plant (generation 1: those it was taken for, ` +
      'with no explant parents) and their descendants within `depth` generations, as ' +
      '`nodes` and `edges` as for an explant.',
    scope: 'read:explants',
    failureCode: 'EXPLANT_QUERY_FAILED',
    params: PlantParams,
    notFound: 'Plant',
    querystring: PlantLineageQuery,
    data: Lineage,
    handler: async (req, ctx) => ({
      data: await readLineage(
        ctx.db,
        ctx.principal.workspaceId,
        { entity: 'plant', id: req.params.id },
        { direction: 'descendants', ...req.query },
        deps.records,
      ),
    }),
  });

  for (const entity of ['explant', 'plant'] as const satisfies readonly EntityType[]) {
    const title = entity === 'explant' ? 'Explant' : 'Plant';
    routes.write({
      method: 'POST',
      url: `/api/v1/${entity}s/:id/recall`,
      operationId: entity === 'explant' ? 'recallExplant' : 'recallPlant',
      tags: [`${title}s`],
      summary:
        entity === 'explant'
          ? 'Recall an explant and its descendants'
          : 'Recall the explants descended from a plant',
      description:
        entity === 'explant'
          ? `${RECALL} The explant itself is generation 0.`
          : `${RECALL} The plant's own explants are generation 1; the plant itself does not change.`,
      scope: 'write:explants',
      role: 'manager',
      status: 200,
      failureCode: 'EXPLANT_UPDATE_FAILED',
      params: entity === 'explant' ? ExplantParams : PlantParams,
      notFound: title,
      body: RecallBody,
      data: RecallResult,
      handler: async (req, ctx) => ({
        data: await recall(
          ctx.trx,
          ctx.principal,
          { entity, id: req.params.id },
          req.body,
          deps.records,
          ctx.now,
        ),
      }),
    });
  }
}
