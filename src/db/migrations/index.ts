import type { Migration } from 'kysely';
import * as identity from './20261121090000_identity.js';
import * as records from './20261121090100_records.js';
import * as library from './20261121090200_library.js';
import * as transfers from './20261123100000_transfers.js';
import * as recipesAndScans from './20261123110000_recipes_and_scans.js';
import * as sopRuns from './20261123120000_sop_runs.js';
import * as deviceData from './20261123130000_device_data.js';
import * as equipmentCommerce from './20261123140000_equipment_commerce.js';
import * as tasks from './20261123150000_tasks.js';
import * as assets from './20261123160000_assets.js';
import * as comments from './20261123170000_comments.js';
import * as webhooks from './20261126220000_webhooks.js';
import * as recordsConsole from './20261127010000_records_console.js';
import * as searchIndex from './20261127010100_search_index.js';
import * as sessions from './20261127000000_sessions.js';
import * as compactReadings from './20261126210000_compact_readings.js';
import * as readingRollups from './20261126210100_reading_rollups.js';
import * as fiveMinuteRollups from './20261127061000_five_minute_rollups.js';
import * as webhookEndpointRetries from './20261127200000_webhook_endpoint_retries.js';
import * as signInLinkRevocation from './20261128200000_sign_in_link_revocation.js';
import * as sopRunExplants from './20261127030400_sop_run_explants.js';
import * as labSettings from './20261128300000_lab_settings.js';
import * as notifications from './20261128600000_notifications.js';
import * as labSetupWrites from './20261128400000_lab_setup_writes.js';
import * as searchDocuments from './20261128400100_search_documents.js';
import * as labTimeZone from './20261128400200_lab_time_zone.js';
import * as explantLineage from './20261128700000_explant_lineage.js';
import * as mediaBatches from './20261128800000_media_batches.js';
import * as searchPending from './20261129000100_search_pending.js';
import * as insightRollup from './20261129100000_insight_rollup.js';
import * as insightAppended from './20261129200000_insight_appended.js';
import * as sparseExplantIndexes from './20261130000000_sparse_explant_indexes.js';
import * as explantParentsKeyed from './20261130000100_explant_parents_keyed.js';

/**
 * Every migration, by its frozen timestamped name, in the order they landed on main:
 * append a new one at the end, never sort. A fresh database runs them in name order;
 * an older one runs those it lacks after the ones it has (see `migrate.ts`). The
 * upgrade test builds every prefix of this list as an earlier release.
 */
export const migrations: Record<string, Migration> = {
  '20261121090000_identity': identity,
  '20261121090100_records': records,
  '20261121090200_library': library,
  '20261123100000_transfers': transfers,
  '20261123110000_recipes_and_scans': recipesAndScans,
  '20261123150000_tasks': tasks,
  '20261123120000_sop_runs': sopRuns,
  '20261123140000_equipment_commerce': equipmentCommerce,
  '20261123160000_assets': assets,
  '20261123170000_comments': comments,
  '20261123130000_device_data': deviceData,
  '20261126220000_webhooks': webhooks,
  '20261127010000_records_console': recordsConsole,
  '20261127010100_search_index': searchIndex,
  '20261127000000_sessions': sessions,
  '20261126210000_compact_readings': compactReadings,
  '20261126210100_reading_rollups': readingRollups,
  '20261127030400_sop_run_explants': sopRunExplants,
  '20261127061000_five_minute_rollups': fiveMinuteRollups,
  '20261127200000_webhook_endpoint_retries': webhookEndpointRetries,
  '20261128300000_lab_settings': labSettings,
  '20261128200000_sign_in_link_revocation': signInLinkRevocation,
  '20261128600000_notifications': notifications,
  '20261128400000_lab_setup_writes': labSetupWrites,
  '20261128400100_search_documents': searchDocuments,
  '20261128400200_lab_time_zone': labTimeZone,
  '20261128700000_explant_lineage': explantLineage,
  '20261128800000_media_batches': mediaBatches,
  '20261129000100_search_pending': searchPending,
  '20261129100000_insight_rollup': insightRollup,
  '20261129200000_insight_appended': insightAppended,
  '20261130000000_sparse_explant_indexes': sparseExplantIndexes,
  '20261130000100_explant_parents_keyed': explantParentsKeyed,
};
