import {
  recordLookup,
  type RecordLookup,
  type RecordRefsOf,
  type RecordSources,
} from '../kernel/record-lookup.js';
import type { Db } from '../db/database.js';
import type { Page, PageRequest, SortKey } from '../db/pages.js';
import type {
  NamedKind,
  SpreadsheetLab,
  SpreadsheetSource,
} from '../kernel/routes/csv-spreadsheet.js';
import type { Routes } from '../kernel/routes/index.js';
import { getWorkspace, listPeople } from './identity/index.js';
import {
  CUSTOM_FIELD_ENTITIES,
  customFieldDefinitions,
  listAllRooms,
  stageList,
} from './lab/index.js';
import { getPlants } from './plants/index.js';
import { getExplants } from './explants/index.js';
import { sops } from './sops/index.js';
import { contaminationRecords } from './contaminations/index.js';
import { registerContaminationRoutes } from './contaminations/contaminations.routes.js';
import { registerDemandRoutes } from './demand/demand.routes.js';
import { registerCommentRoutes } from './comments/comments.routes.js';
import { registerCommerceRoutes } from './commerce/commerce.routes.js';
import { registerEquipmentRoutes } from './equipment/equipment.routes.js';
import type { AssetFiles } from './assets/index.js';
import { registerAssetRoutes } from './assets/assets.routes.js';
import { registerDeviceEventRoutes } from './device-events/device-events.routes.js';
import { registerDeviceStatusRoutes } from './devices/device-status.routes.js';
import { registerDeviceRoutes } from './devices/devices.routes.js';
import { registerEventRoutes } from './events/events.routes.js';
import { explantRecords } from './explants/index.js';
import { registerExplantRoutes } from './explants/explants.routes.js';
import { registerImportRoutes } from './import/import.routes.js';
import { registerLabRoutes } from './lab/lab.routes.js';
import { registerInsightRoutes } from './insights/insights.routes.js';
import { registerLineageRoutes } from './lineage/lineage.routes.js';
import { registerLabelScanRoutes } from './label-scans/label-scans.routes.js';
import { registerLabelRoutes } from './labels/labels.routes.js';
import { registerMediaRecipeRoutes } from './media-recipes/media-recipes.routes.js';
import { registerMediaBatchRoutes } from './media-batches/media-batches.routes.js';
import { mediaRecipeRecords } from './media-recipes/index.js';
import { registerManagementRoutes } from './identity/management.routes.js';
import { registerPeopleRoutes } from './identity/people.routes.js';
import { registerWorkspaceRoutes } from './identity/workspaces.routes.js';
import { registerMeRoutes } from './me/me.routes.js';
import { plantRecords } from './plants/index.js';
import { registerPlantRoutes } from './plants/plants.routes.js';
import { registerSopRunRoutes } from './sop-runs/sop-runs.routes.js';
import { sopRunRecords } from './sop-runs/index.js';
import { registerSopRoutes } from './sops/sops.routes.js';
import { sopRecords } from './sops/index.js';
import { registerPricingRoutes } from './pricing/pricing.routes.js';
import { registerSessionRoutes, signOutRemovedMember } from './sessions/index.js';
import { registerReadingRoutes } from './readings/readings.routes.js';
import { registerRoomRoutes } from './rooms/rooms.routes.js';
import { registerSearchRoutes } from './search/search.routes.js';
import { registerStageRoutes } from './stages/stages.routes.js';
import { registerStockRoutes } from './stock/stock.routes.js';
import { explantTransferRecords, plantTransferRecords } from './transfers/index.js';
import { registerTransferRoutes } from './transfers/transfers.routes.js';
import { taskRecords } from './tasks/index.js';
import { registerTaskRoutes } from './tasks/tasks.routes.js';
import { registerWebhookRoutes, type TargetPolicy } from './webhooks/index.js';
import { checkReadings, registerAlertRoutes } from './alerts/index.js';
import { registerNotificationRoutes } from './notifications/notifications.routes.js';

/*
 * The one place that wires the modules: it builds what they share and hands each
 * `register…Routes` only the dependencies it uses. It is also the one place outside
 * a module that imports the module's routes file; everything else goes through the
 * module's face (`<name>/index.ts`).
 */

export { registerSystemRoutes } from './system/system.routes.js';

/** Each record kind's source: its own module's gateway. */
export function recordSources() {
  return {
    plant: plantRecords,
    explant: explantRecords,
    contamination: contaminationRecords,
    media_recipe: mediaRecipeRecords,
    task: taskRecords,
    sop: sopRecords,
    plant_transfer: plantTransferRecords,
    explant_transfer: explantTransferRecords,
    sop_run: sopRunRecords,
  } satisfies RecordSources;
}

/** The record lookup the modules are handed: what each kind's source hands out. */
export type Records = RecordLookup<RecordRefsOf<ReturnType<typeof recordSources>>>;

/** "The record of kind K with id X in workspace W", from each kind's own module. */
export function createRecordLookup(): Records {
  return recordLookup(recordSources());
}

export interface ModuleDeps {
  readonly records: Records;
  /** Where asset bytes are stored and how image_url is fetched. */
  readonly files: AssetFiles;
  /** Where webhook endpoints may point. */
  readonly webhooks: { readonly policy: TargetPolicy };
  /** Whether PUBLIC_URL was set: sign-in links use it, else the address the console was opened at. */
  readonly publicUrlSet: boolean;
  /** How long a console session lasts from sign-in (VITRO_SESSION_LIFETIME). */
  readonly sessionLifetimeMs: number;
  /** Whether notifications are also sent by email (SMTP_URL is set). */
  readonly emailAvailable: boolean;
}

export function registerApiRoutes(routes: Routes, deps: ModuleDeps): void {
  registerMeRoutes(routes);
  registerWorkspaceRoutes(routes);
  registerPeopleRoutes(routes);
  registerPlantRoutes(routes);
  registerExplantRoutes(routes, { records: deps.records });
  registerStageRoutes(routes, { records: deps.records });
  registerEventRoutes(routes, { records: deps.records });
  registerTransferRoutes(routes, { records: deps.records });
  registerLineageRoutes(routes, { records: deps.records });
  registerInsightRoutes(routes, { records: deps.records });
  registerContaminationRoutes(routes, { records: deps.records });
  registerMediaRecipeRoutes(routes);
  registerMediaBatchRoutes(routes, { records: deps.records });
  registerStockRoutes(routes, { records: deps.records });
  registerLabelRoutes(routes);
  registerLabelScanRoutes(routes, { records: deps.records });
  registerTaskRoutes(routes, { records: deps.records });
  registerDemandRoutes(routes);
  registerSopRoutes(routes);
  registerSopRunRoutes(routes, { records: deps.records });
  registerEquipmentRoutes(routes, { records: deps.records });
  registerPricingRoutes(routes, { records: deps.records });
  registerCommerceRoutes(routes, { records: deps.records });
  registerAssetRoutes(routes, { records: deps.records, files: deps.files });
  registerCommentRoutes(routes, { records: deps.records });
  registerDeviceRoutes(routes);
  registerDeviceStatusRoutes(routes);
  registerDeviceEventRoutes(routes);
  registerReadingRoutes(routes, { afterStore: checkReadings });
  registerAlertRoutes(routes);
  registerWebhookRoutes(routes, { policy: deps.webhooks.policy });
  registerRoomRoutes(routes);
  registerLabRoutes(routes);
  registerSearchRoutes(routes);
  registerImportRoutes(routes, { records: deps.records });
  registerSessionRoutes(routes, {
    publicUrlSet: deps.publicUrlSet,
    sessionLifetimeMs: deps.sessionLifetimeMs,
  });
  registerManagementRoutes(routes, { memberRemoved: signOutRemovedMember });
  registerNotificationRoutes(routes, { emailAvailable: deps.emailAvailable });
}

/** Every page of a list, in order (the people and rooms a spreadsheet names: a lab's few). */
async function everyRow<T>(read: (page: PageRequest) => Promise<Page<T>>): Promise<T[]> {
  const rows: T[] = [];
  let after: SortKey | null = null;
  do {
    const page = await read({ limit: 500, offset: 0, after });
    rows.push(...page.items);
    after = page.nextKey;
  } while (after !== null);
  return rows;
}

/**
 * A lab's names and time zone for spreadsheet-friendly CSV exports: people, rooms,
 * stage names and custom fields once per export; plants, explants and SOPs a page at
 * a time, by the ids the page names.
 */
export function createSpreadsheetSource(): SpreadsheetSource {
  return {
    async open(db: Db, workspaceId: string): Promise<SpreadsheetLab> {
      const names = new Map<string, string>();
      const key = (kind: NamedKind, id: string) => `${kind}:${id}`;
      for (const person of await everyRow((page) => listPeople(db, workspaceId, {}, page))) {
        names.set(key('member', person.id), person.name);
      }
      for (const room of await listAllRooms(db, workspaceId)) {
        names.set(key('room', room.id), room.name);
      }
      const stages = new Map<string, string>();
      for (const entity of ['plant', 'explant'] as const) {
        const { active, retired } = await stageList(db, workspaceId, entity);
        for (const stage of [...active, ...retired])
          stages.set(`${entity}:${stage.key}`, stage.name);
      }
      const fields = new Map<string, string[]>();
      for (const entity of CUSTOM_FIELD_ENTITIES) {
        fields.set(
          entity,
          (await customFieldDefinitions(db, workspaceId, entity)).map((field) => field.key),
        );
      }
      const workspace = await getWorkspace(db, workspaceId);
      return {
        timeZone: workspace.time_zone,
        customFields: (entity) => fields.get(entity) ?? [],
        stageName: (entity, stage) => stages.get(`${entity}:${stage}`),
        nameOf: (kind, id) => names.get(key(kind, id)),
        async load(ids) {
          const wanted = (kind: NamedKind) =>
            [...(ids.get(kind) ?? [])].filter((id) => !names.has(key(kind, id)));
          for (const [id, plant] of await getPlants(db, workspaceId, wanted('plant'))) {
            names.set(key('plant', id), plant.name);
          }
          for (const [id, explant] of await getExplants(db, workspaceId, wanted('explant'))) {
            if (explant.label !== null) names.set(key('explant', id), explant.label);
          }
          for (const sop of await sops.findMany(db, workspaceId, wanted('sop'))) {
            names.set(key('sop', sop.id), sop.title);
          }
        },
      };
    },
  };
}
