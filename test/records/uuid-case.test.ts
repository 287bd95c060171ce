import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inTransaction } from '../../src/db/transaction.js';
import { newId } from '../../src/kernel/ids.js';
import { importLabData } from '../../src/modules/import/import.service.js';
import { createRecordLookup } from '../../src/modules/index.js';
import { DEFAULT_STAGE_LISTS } from '../../src/modules/records/stage-lists.js';
import { fixture } from '../files/fixtures.js';
import { operationsOf, type OpenApiDocument, type Schema } from '../fuzz/operations.js';
import { body, type TestApp } from '../support/harness.js';
import {
  addRoom,
  client,
  dataOf,
  expectSameAnswer,
  GENEROUS_LIMITS,
  newExplant,
  newPlant,
  randomId,
} from '../support/helpers.js';
import { signIn, type SessionClient } from '../support/sessions.js';
import { LOOPBACK_ALLOWED, startReceiver, streamOnce, type Receiver } from '../webhooks/support.js';
import { subcultureSop } from './sop-helpers.js';
import { describeOnDatabases, labSuite } from '../support/suite.js';

const TINY_PNG = fixture('tiny.png').toString('base64');
const ANY_UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The UUIDs in a text that are not written in lower case. */
const notLowercase = (text: string) =>
  (text.match(ANY_UUID) ?? []).filter((id) => /[A-F]/.test(id));

/** Whether a schema (inlined) has a `format: uuid` string anywhere inside. */
function namesUuid(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(namesUuid);
  if (typeof schema !== 'object' || schema === null) return false;
  if ((schema as Schema).format === 'uuid') return true;
  return Object.values(schema).some(namesUuid);
}

/** One request of a case; `up` uppercases an id as a client might send it. */
interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
  status: number;
  /** Sent as the owner signed in to the console: the operation refuses API keys. */
  session?: true;
}

/** Ids of the seeded workspace, and of what the cases make along the way. */
type Ids = Record<string, string>;

const up = (id: string) => id.toUpperCase();
/** A fixed period for the insights: by default they end at the time they are asked. */
const WINDOW = 'since=2024-01-01T00:00:00Z&until=2028-01-01T00:00:00Z';
const explantStage = DEFAULT_STAGE_LISTS.explant[DEFAULT_STAGE_LISTS.explant.length - 1]!.key;

/**
 * A request with ids in upper case for every operation that takes an id (in its
 * path, its query or its body, at any depth), writes first so that the reads
 * after them find something. A test below checks that every such operation of
 * the document is here.
 */
const CASES: Record<string, (ids: Ids) => Call[]> = {
  createPlant: (ids) => [
    {
      method: 'POST',
      url: '/api/v1/plants',
      body: { species: 'Monstera', room_id: up(ids.room!) },
      status: 201,
    },
  ],
  createExplant: (ids) => [
    {
      method: 'POST',
      url: '/api/v1/explants',
      body: { label: 'U-1', plant_id: up(ids.plant!) },
      status: 201,
    },
  ],
  updatePlant: (ids) => [
    { method: 'PATCH', url: `/api/v1/plants/${up(ids.plant!)}`, body: { notes: 'n' }, status: 200 },
  ],
  updateExplant: (ids) => [
    {
      method: 'PATCH',
      url: `/api/v1/explants/${up(ids.explant!)}`,
      body: { notes: 'n' },
      status: 200,
    },
  ],
  // Archived and back, so the cases after these find the records in the lists.
  archivePlant: (ids) => [
    { method: 'POST', url: `/api/v1/plants/${up(ids.plant!)}/archive`, body: {}, status: 200 },
  ],
  unarchivePlant: (ids) => [
    { method: 'POST', url: `/api/v1/plants/${up(ids.plant!)}/unarchive`, body: {}, status: 200 },
  ],
  archiveExplant: (ids) => [
    { method: 'POST', url: `/api/v1/explants/${up(ids.explant!)}/archive`, body: {}, status: 200 },
  ],
  unarchiveExplant: (ids) => [
    {
      method: 'POST',
      url: `/api/v1/explants/${up(ids.explant!)}/unarchive`,
      body: {},
      status: 200,
    },
  ],
  createStage: (ids) => [
    {
      method: 'POST',
      url: '/api/v1/stages',
      body: { explant_id: up(ids.explant!), stage: explantStage, room_id: up(ids.room!) },
      status: 201,
    },
  ],
  createTransfer: (ids) => [
    {
      method: 'POST',
      url: '/api/v1/transfers',
      body: { explant_id: up(ids.explant!), vessel_count: 2 },
      status: 201,
    },
    { method: 'POST', url: '/api/v1/transfers', body: { plant_id: up(ids.plant!) }, status: 201 },
  ],
  splitExplant: (ids) => [
    {
      method: 'POST',
      url: `/api/v1/explants/${up(ids.explant!)}/split`,
      body: { daughters: [{ vessel_count: 1, room_id: up(ids.room!) }] },
      status: 201,
    },
  ],
  mergeExplants: (ids) => [
    {
      method: 'POST',
      url: '/api/v1/explants/merge',
      body: { explant_ids: [up(ids.spareExplant!)], into_explant_id: up(ids.explant!) },
      status: 201,
    },
  ],
  getExplantLineage: (ids) => [
    { method: 'GET', url: `/api/v1/explants/${up(ids.explant!)}/lineage`, status: 200 },
  ],
  getPlantLineage: (ids) => [
    { method: 'GET', url: `/api/v1/plants/${up(ids.plant!)}/lineage`, status: 200 },
  ],
  recallExplant: (ids) => [
    {
      method: 'POST',
      url: `/api/v1/explants/${up(ids.explant!)}/recall`,
      body: { reason: 'Test', dry_run: true },
      status: 200,
    },
  ],
  recallPlant: (ids) => [
    {
      method: 'POST',
      url: `/api/v1/plants/${up(ids.plant!)}/recall`,
      body: { reason: 'Test', dry_run: true },
      status: 200,
    },
  ],
  createContamination: (ids) => [
    {
      method: 'POST',
      url: '/api/v1/contaminations',
      body: { plant_id: up(ids.plant!), type: 'mold', issue: 'Spots' },
      status: 201,
    },
    {
      method: 'POST',
      url: '/api/v1/contaminations',
      body: { explant_id: up(ids.explant!), type: 'bacteria', issue: 'Cloudy' },
      status: 201,
    },
  ],
  resolveContamination: (ids) => [
    {
      method: 'POST',
      url: `/api/v1/contaminations/${up(ids.contamination!)}/resolve`,
      body: { outcome: 'discarded' },
      status: 200,
    },
  ],
  updateMediaRecipe: (ids) => [
    {
      method: 'PATCH',
      url: `/api/v1/media-recipes/${up(ids.recipe!)}`,
      body: { notes: 'n' },
      status: 200,
    },
  ],
  createLabelScan: (ids) => [
    {
      method: 'POST',
      url: '/api/v1/label-scans',
      body: { barcode: 'UC-P-1', plant_id: up(ids.plant!) },
      status: 201,
    },
    {
      method: 'POST',
      url: '/api/v1/label-scans',
      body: { barcode: 'UC-E-1', explant_id: up(ids.explant!) },
      status: 201,
    },
  ],
  createTask: (ids) => [
    {
      method: 'POST',
      url: '/api/v1/tasks',
      body: {
        title: 'Check',
        assigned_to: up(ids.viewer!),
        entity_type: 'plant',
        entity_id: up(ids.plant!),
      },
      status: 201,
    },
  ],
  updateTask: (ids) => [
    {
      method: 'PATCH',
      url: `/api/v1/tasks/${up(ids.task!)}`,
      body: { assigned_to: up(ids.viewer!), entity_type: 'explant', entity_id: up(ids.explant!) },
      status: 200,
    },
  ],
  createSopRun: (ids) => [
    {
      method: 'POST',
      url: '/api/v1/sop-runs',
      body: { sop_id: up(ids.sop!), plant_id: up(ids.plant!) },
      status: 201,
    },
  ],
  createSopStepEvent: (ids) => [
    {
      method: 'POST',
      url: `/api/v1/sop-runs/${up(ids.run!)}/steps/step-1/events`,
      body: { event_type: 'note' },
      status: 201,
    },
  ],
  createSopStepMeasurement: (ids) => [
    {
      method: 'POST',
      url: `/api/v1/sop-runs/${up(ids.run!)}/steps/step-1/measurements`,
      body: { metric: 'ph', value: 5.8, unit: 'pH' },
      status: 201,
    },
  ],
  createEquipmentEvent: (ids) => [
    {
      method: 'POST',
      url: `/api/v1/equipment/${up(ids.equipment!)}/events`,
      body: { kind: 'used', subject_type: 'sop_log', subject_id: up(ids.run!) },
      status: 201,
    },
  ],
  completeSopRun: (ids) => [
    {
      method: 'POST',
      url: `/api/v1/sop-runs/${up(ids.run!)}/complete`,
      body: { outcome: 'failed' },
      status: 200,
    },
  ],
  createAsset: (ids) => [
    {
      method: 'POST',
      url: '/api/v1/assets',
      body: { target: 'plant', target_id: up(ids.plant!), image_base64: TINY_PNG },
      status: 201,
    },
  ],
  createComment: (ids) => [
    {
      method: 'POST',
      url: '/api/v1/comments',
      body: {
        entity_type: 'plant',
        entity_id: up(ids.plant!),
        body: 'Agreed',
        parent_id: up(ids.comment!),
        mentioned_user_ids: [up(ids.viewer!), up(ids.owner!)],
        references: [{ entity_type: 'explant', entity_id: up(ids.explant!), label: 'E' }],
      },
      status: 201,
    },
  ],
  createDevice: (ids) => [
    {
      method: 'POST',
      url: '/api/v1/devices',
      body: { name: 'Sensor U', room_id: up(ids.room!) },
      status: 201,
    },
  ],
  sendHeartbeat: (ids) => [
    {
      method: 'POST',
      url: `/api/v1/devices/${up(ids.device!)}/heartbeat`,
      body: {},
      status: 200,
    },
  ],
  createDeviceToken: (ids) => [
    { method: 'POST', url: `/api/v1/devices/${up(ids.device!)}/tokens`, body: {}, status: 201 },
  ],
  revokeDeviceToken: (ids) => [
    {
      method: 'DELETE',
      url: `/api/v1/devices/${up(ids.device!)}/tokens/${up(ids.token!)}`,
      status: 200,
    },
  ],
  createDeviceEvent: (ids) => [
    {
      method: 'POST',
      url: '/api/v1/device-events',
      body: { device_id: up(ids.device!), event_type: 'alert' },
      status: 201,
    },
  ],
  createSensorReadings: (ids) => [
    {
      method: 'POST',
      url: '/api/v1/sensor-readings',
      body: {
        device_id: up(ids.device!),
        room_id: up(ids.room!),
        type: 'temperature',
        value: 21,
        unit: 'C',
      },
      status: 201,
    },
    {
      method: 'POST',
      url: '/api/v1/sensor-readings',
      body: {
        readings: [
          {
            device_id: up(ids.device!),
            room_id: up(ids.room!),
            type: 'humidity',
            value: 60,
            unit: '%',
          },
          { device_id: up(ids.device!), type: 'temperature', value: 22, unit: 'C' },
        ],
      },
      status: 201,
    },
  ],
  // Paused and active again: a spare device, so the readings of the others are still taken.
  changeDeviceStatus: (ids) => [
    {
      method: 'PATCH',
      url: `/api/v1/devices/${up(ids.spareDevice!)}`,
      body: { status: 'paused' },
      status: 200,
      session: true,
    },
    {
      method: 'PATCH',
      url: `/api/v1/devices/${up(ids.spareDevice!)}`,
      body: { status: 'active' },
      status: 200,
      session: true,
    },
  ],
  createAlertRule: (ids) => [
    {
      method: 'POST',
      url: '/api/v1/alert-rules',
      body: {
        name: 'Room too warm',
        sensor_type: 'temperature',
        room_id: up(ids.room!),
        condition: 'above',
        threshold: 30,
      },
      status: 201,
    },
    {
      method: 'POST',
      url: '/api/v1/alert-rules',
      body: {
        name: 'Sensor silent',
        sensor_type: 'humidity',
        device_id: up(ids.device!),
        condition: 'no_readings',
        duration_minutes: 60,
      },
      status: 201,
    },
  ],
  updateAlertRule: (ids) => [
    {
      method: 'PATCH',
      url: `/api/v1/alert-rules/${up(ids.alertRule!)}`,
      body: { name: 'Too warm' },
      status: 200,
    },
  ],
  deleteAlertRule: (ids) => [
    { method: 'DELETE', url: `/api/v1/alert-rules/${up(ids.madeRule!)}`, status: 200 },
  ],
  updateWebhookEndpoint: (ids) => [
    {
      method: 'PATCH',
      url: `/api/v1/webhook-endpoints/${up(ids.endpoint!)}`,
      body: { description: 'LIMS' },
      status: 200,
    },
  ],
  rotateWebhookEndpointSecret: (ids) => [
    {
      method: 'POST',
      url: `/api/v1/webhook-endpoints/${up(ids.endpoint!)}/rotate-secret`,
      body: {},
      status: 200,
    },
  ],
  redeliverWebhookDelivery: (ids) => [
    {
      method: 'POST',
      url: `/api/v1/webhook-endpoints/${up(ids.endpoint!)}/deliveries/${up(ids.delivery!)}/redeliver`,
      body: {},
      status: 200,
    },
  ],
  // Disabled, enabled and deleted: a spare endpoint, so the one with a delivery stays.
  disableWebhookEndpoint: (ids) => [
    {
      method: 'POST',
      url: `/api/v1/webhook-endpoints/${up(ids.spareEndpoint!)}/disable`,
      body: { reason: 'LIMS down' },
      status: 200,
    },
  ],
  enableWebhookEndpoint: (ids) => [
    {
      method: 'POST',
      url: `/api/v1/webhook-endpoints/${up(ids.spareEndpoint!)}/enable`,
      body: {},
      status: 200,
    },
  ],
  deleteWebhookEndpoint: (ids) => [
    { method: 'DELETE', url: `/api/v1/webhook-endpoints/${up(ids.spareEndpoint!)}`, status: 200 },
  ],
  createApiKey: (ids) => [
    {
      method: 'POST',
      url: '/api/v1/api-keys',
      body: { member_id: up(ids.viewer!), name: 'Script' },
      status: 201,
      session: true,
    },
  ],
  revokeApiKey: (ids) => [
    { method: 'DELETE', url: `/api/v1/api-keys/${up(ids.apiKey!)}`, status: 200, session: true },
  ],
  // Role changed, a link minted, then removed: a member of its own, so the viewer stays.
  changeMember: (ids) => [
    {
      method: 'PATCH',
      url: `/api/v1/members/${up(ids.colleague!)}`,
      body: { role: 'manager' },
      status: 200,
      session: true,
    },
  ],
  createSignInLink: (ids) => [
    {
      method: 'POST',
      url: `/api/v1/members/${up(ids.colleague!)}/sign-in-links`,
      status: 201,
      session: true,
    },
  ],
  revokeSignInLinks: (ids) => [
    {
      method: 'DELETE',
      url: `/api/v1/members/${up(ids.colleague!)}/sign-in-links`,
      status: 200,
      session: true,
    },
  ],
  removeMember: (ids) => [
    {
      method: 'DELETE',
      url: `/api/v1/members/${up(ids.colleague!)}`,
      status: 200,
      session: true,
    },
  ],
  getPlant: (ids) => [{ method: 'GET', url: `/api/v1/plants/${up(ids.plant!)}`, status: 200 }],
  getExplant: (ids) => [
    { method: 'GET', url: `/api/v1/explants/${up(ids.explant!)}`, status: 200 },
  ],
  listStages: (ids) => [
    { method: 'GET', url: `/api/v1/stages?plant_id=${up(ids.plant!)}`, status: 200 },
    { method: 'GET', url: `/api/v1/stages?explant_id=${up(ids.explant!)}`, status: 200 },
  ],
  listTransfers: (ids) => [
    { method: 'GET', url: `/api/v1/transfers?plant_id=${up(ids.plant!)}`, status: 200 },
    { method: 'GET', url: `/api/v1/transfers?explant_id=${up(ids.explant!)}`, status: 200 },
  ],
  listContaminations: (ids) => [
    { method: 'GET', url: `/api/v1/contaminations?plant_id=${up(ids.plant!)}`, status: 200 },
    { method: 'GET', url: `/api/v1/contaminations?explant_id=${up(ids.explant!)}`, status: 200 },
  ],
  getContamination: (ids) => [
    { method: 'GET', url: `/api/v1/contaminations/${up(ids.contamination!)}`, status: 200 },
  ],
  getMediaRecipe: (ids) => [
    { method: 'GET', url: `/api/v1/media-recipes/${up(ids.recipe!)}`, status: 200 },
  ],
  listTasks: (ids) => [
    { method: 'GET', url: `/api/v1/tasks?assigned_to=${up(ids.viewer!)}`, status: 200 },
  ],
  getTask: (ids) => [{ method: 'GET', url: `/api/v1/tasks/${up(ids.task!)}`, status: 200 }],
  getSop: (ids) => [{ method: 'GET', url: `/api/v1/sops/${up(ids.sop!)}`, status: 200 }],
  getSopRun: (ids) => [{ method: 'GET', url: `/api/v1/sop-runs/${up(ids.run!)}`, status: 200 }],
  listSopRunEvents: (ids) => [
    { method: 'GET', url: `/api/v1/sop-runs/${up(ids.run!)}/events`, status: 200 },
  ],
  getEquipment: (ids) => [
    { method: 'GET', url: `/api/v1/equipment/${up(ids.equipment!)}`, status: 200 },
  ],
  listEquipmentEvents: (ids) => [
    { method: 'GET', url: `/api/v1/equipment/${up(ids.equipment!)}/events`, status: 200 },
  ],
  listCultureLinePrices: (ids) => [
    { method: 'GET', url: `/api/v1/pricing/culture-lines?plant_id=${up(ids.plant!)}`, status: 200 },
  ],
  listPriceEvents: (ids) => [
    { method: 'GET', url: `/api/v1/pricing/events?plant_id=${up(ids.plant!)}`, status: 200 },
  ],
  listOrderLines: (ids) => [
    {
      method: 'GET',
      url: `/api/v1/commerce/order-lines?product_link_id=${up(ids.productLink!)}`,
      status: 200,
    },
  ],
  getSellThrough: (ids) => [
    { method: 'GET', url: `/api/v1/commerce/sell-through?plant_id=${up(ids.plant!)}`, status: 200 },
  ],
  listAssets: (ids) => [
    { method: 'GET', url: `/api/v1/assets?target=plant&target_id=${up(ids.plant!)}`, status: 200 },
  ],
  getAsset: (ids) => [{ method: 'GET', url: `/api/v1/assets/${up(ids.asset!)}`, status: 200 }],
  listComments: (ids) => [
    {
      method: 'GET',
      url: `/api/v1/comments?entity_type=plant&entity_id=${up(ids.plant!)}`,
      status: 200,
    },
  ],
  listDeviceTokens: (ids) => [
    { method: 'GET', url: `/api/v1/devices/${up(ids.device!)}/tokens`, status: 200 },
  ],
  listSensorReadings: (ids) => [
    { method: 'GET', url: `/api/v1/sensor-readings?device_id=${up(ids.device!)}`, status: 200 },
    { method: 'GET', url: `/api/v1/sensor-readings?room_id=${up(ids.room!)}`, status: 200 },
  ],
  listPlants: (ids) => [
    { method: 'GET', url: `/api/v1/plants?room_id=${up(ids.room!)}`, status: 200 },
  ],
  listExplants: (ids) => [
    { method: 'GET', url: `/api/v1/explants?plant_id=${up(ids.plant!)}`, status: 200 },
    { method: 'GET', url: `/api/v1/explants?room_id=${up(ids.room!)}`, status: 200 },
  ],
  getRoom: (ids) => [{ method: 'GET', url: `/api/v1/rooms/${up(ids.room!)}`, status: 200 }],
  getStageInsights: (ids) => [
    {
      method: 'GET',
      url: `/api/v1/insights/stages?plant_id=${up(ids.plant!)}&${WINDOW}`,
      status: 200,
    },
  ],
  // Found, though a plant with no counted transfers a day apart has no rate to forecast with.
  getForecast: (ids) => [
    { method: 'GET', url: `/api/v1/insights/forecast?plant_id=${up(ids.plant!)}`, status: 422 },
  ],
  updateRoom: (ids) => [
    {
      method: 'PATCH',
      url: `/api/v1/rooms/${up(ids.room!)}`,
      body: { name: 'Growth room (renamed)' },
      status: 200,
    },
  ],
  updateEquipment: (ids) => [
    {
      method: 'PATCH',
      url: `/api/v1/equipment/${up(ids.equipment!)}`,
      body: { location: 'Media prep' },
      status: 200,
    },
  ],
  updateSop: (ids) => [
    {
      method: 'PATCH',
      url: `/api/v1/sops/${up(ids.sop!)}`,
      body: { description: 'Renamed in upper case' },
      status: 200,
    },
  ],
  createSopVersion: (ids) => [
    {
      method: 'POST',
      url: `/api/v1/sops/${up(ids.sop!)}/versions`,
      body: { steps: [{ id: 'step-1', instruction: 'Flame the tools' }] },
      status: 201,
    },
  ],
  listSopVersions: (ids) => [
    { method: 'GET', url: `/api/v1/sops/${up(ids.sop!)}/versions`, status: 200 },
  ],
  updateSopVersion: (ids) => [
    {
      method: 'PATCH',
      url: `/api/v1/sops/${up(ids.sop!)}/versions/${up(ids.sopVersion!)}`,
      body: { description: 'A draft edited' },
      status: 200,
    },
  ],
  makeSopVersionEffective: (ids) => [
    {
      method: 'POST',
      url: `/api/v1/sops/${up(ids.sop!)}/versions/${up(ids.sopVersion!)}/make-effective`,
      status: 200,
    },
  ],
  listActivity: (ids) => [
    { method: 'GET', url: `/api/v1/activity?entity_id=${up(ids.plant!)}`, status: 200 },
    {
      method: 'GET',
      url: `/api/v1/activity?entity=explant&entity_id=${up(ids.explant!)}`,
      status: 200,
    },
  ],
  listSopRuns: (ids) => [
    { method: 'GET', url: `/api/v1/sop-runs?sop_id=${up(ids.sop!)}`, status: 200 },
    { method: 'GET', url: `/api/v1/sop-runs?plant_id=${up(ids.plant!)}`, status: 200 },
  ],
  summarizeSensorReadings: (ids) => [
    {
      method: 'GET',
      url: `/api/v1/sensor-readings/summary?device_id=${up(ids.device!)}&bucket=1h&${aroundNow()}`,
      status: 200,
    },
    {
      method: 'GET',
      url: `/api/v1/sensor-readings/summary?room_id=${up(ids.room!)}&bucket=1h&${aroundNow()}`,
      status: 200,
    },
  ],
  getDevice: (ids) => [
    { method: 'GET', url: `/api/v1/devices/${up(ids.device!)}`, status: 200, session: true },
  ],
  getAlertRule: (ids) => [
    { method: 'GET', url: `/api/v1/alert-rules/${up(ids.alertRule!)}`, status: 200 },
  ],
  listAlerts: (ids) => [
    { method: 'GET', url: `/api/v1/alerts?rule_id=${up(ids.alertRule!)}`, status: 200 },
  ],
  getAlert: (ids) => [{ method: 'GET', url: `/api/v1/alerts/${up(ids.alert!)}`, status: 200 }],
  markNotificationsRead: (ids) => [
    {
      method: 'POST',
      url: '/api/v1/notifications/read',
      body: { ids: [up(ids.notification!)] },
      status: 200,
    },
  ],
  updateNotificationSettings: (ids) => [
    {
      method: 'PATCH',
      url: '/api/v1/notification-settings',
      body: { follow_all_rooms: false, followed_room_ids: [up(ids.room!)] },
      status: 200,
    },
  ],
  getWebhookEndpoint: (ids) => [
    { method: 'GET', url: `/api/v1/webhook-endpoints/${up(ids.endpoint!)}`, status: 200 },
  ],
  listWebhookDeliveries: (ids) => [
    {
      method: 'GET',
      url: `/api/v1/webhook-endpoints/${up(ids.endpoint!)}/deliveries`,
      status: 200,
    },
  ],
  getWebhookDelivery: (ids) => [
    {
      method: 'GET',
      url: `/api/v1/webhook-endpoints/${up(ids.endpoint!)}/deliveries/${up(ids.delivery!)}`,
      status: 200,
    },
  ],
  createMediaBatch: (ids) => [
    {
      method: 'POST',
      url: '/api/v1/media-batches',
      body: {
        recipe_id: up(ids.recipe!),
        volume_ml: 500,
        prepared_by: up(ids.owner!),
        components: [{ name: 'Agar', lot_id: up(ids.stockLot!), amount: 4, unit: 'g' }],
      },
      status: 201,
    },
  ],
  listMediaBatches: (ids) => [
    { method: 'GET', url: `/api/v1/media-batches?recipe_id=${up(ids.recipe!)}`, status: 200 },
    { method: 'GET', url: `/api/v1/media-batches?prepared_by=${up(ids.owner!)}`, status: 200 },
  ],
  getMediaBatch: (ids) => [
    { method: 'GET', url: `/api/v1/media-batches/${up(ids.mediaBatch!)}`, status: 200 },
  ],
  updateMediaBatch: (ids) => [
    {
      method: 'PATCH',
      url: `/api/v1/media-batches/${up(ids.mediaBatch!)}`,
      body: { prepared_by: up(ids.owner!) },
      status: 200,
    },
  ],
  listMediaBatchExplants: (ids) => [
    { method: 'GET', url: `/api/v1/media-batches/${up(ids.mediaBatch!)}/explants`, status: 200 },
  ],
  getStockItem: (ids) => [
    { method: 'GET', url: `/api/v1/stock-items/${up(ids.stockItem!)}`, status: 200 },
  ],
  updateStockItem: (ids) => [
    {
      method: 'PATCH',
      url: `/api/v1/stock-items/${up(ids.stockItem!)}`,
      body: { notes: 'Shelf 2' },
      status: 200,
    },
  ],
  listStockLots: (ids) => [
    { method: 'GET', url: `/api/v1/stock-items/${up(ids.stockItem!)}/lots`, status: 200 },
  ],
  createStockLot: (ids) => [
    {
      method: 'POST',
      url: `/api/v1/stock-items/${up(ids.stockItem!)}/lots`,
      body: { lot_number: 'A-2', quantity: 100 },
      status: 201,
    },
  ],
  getStockLot: (ids) => [
    {
      method: 'GET',
      url: `/api/v1/stock-items/${up(ids.stockItem!)}/lots/${up(ids.stockLot!)}`,
      status: 200,
    },
  ],
  updateStockLot: (ids) => [
    {
      method: 'PATCH',
      url: `/api/v1/stock-items/${up(ids.stockItem!)}/lots/${up(ids.stockLot!)}`,
      body: { supplier: 'Duchefa' },
      status: 200,
    },
  ],
};

/** A fixed range around the readings sent now: by default a summary ends at the time it is asked. */
const aroundNow = () => {
  const day = 86_400_000;
  const now = Date.now();
  return `since=${new Date(now - day).toISOString()}&until=${new Date(now + day).toISOString()}`;
};

/** Where a case's answer gives an id that later cases use. */
const MADE: Record<string, string> = {
  createContamination: 'contamination',
  createAsset: 'asset',
  createAlertRule: 'madeRule',
  createApiKey: 'apiKey',
  createSopVersion: 'sopVersion',
};

/** Cases that find something only once another case has made it, not by reading its id. */
const AFTER: Record<string, string> = {
  listAssets: 'createAsset',
  // A split needs the vessels the transfer counted.
  splitExplant: 'createTransfer',
  // A version in force is no draft to edit.
  makeSopVersionEffective: 'updateSopVersion',
};

/** The case that makes each id of MADE. */
const MAKER = Object.fromEntries(
  Object.entries(MADE).map(([operationId, id]) => [id, operationId]),
);

/** The ids a case reads (it is called with a recording stand-in). */
function idsRead(operationId: string): string[] {
  const read = new Set<string>();
  const recorder = new Proxy<Ids>(
    {},
    {
      get: (_target, key) => {
        if (typeof key === 'string') read.add(key);
        return '00000000-0000-4000-8000-000000000000';
      },
    },
  );
  CASES[operationId]!(recorder);
  return [...read];
}

describeOnDatabases('UUIDs in any case', (target) => {
  const { t, lab, owner } = labSuite(
    target,
    { env: { ...GENEROUS_LIMITS, ...LOOPBACK_ALLOWED } },
    { shared: true },
  );
  let signedIn: SessionClient;
  let receiver: Receiver;
  const ids: Ids = {};

  const send = (
    call: Pick<Call, 'method' | 'url' | 'body' | 'session'>,
    headers: Record<string, string> = {},
  ) => {
    const request = {
      method: call.method,
      url: call.url,
      ...(call.body === undefined ? {} : { payload: call.body as object }),
    };
    return call.session
      ? signedIn.request({ ...request, headers })
      : t.request({ ...request, headers: { ...lab.owner.headers, ...headers } });
  };

  beforeAll(async () => {
    signedIn = await signIn(t, lab.owner.memberId);
    const viewer = await lab.actor('viewer');
    const plant = await newPlant(owner);
    const explant = await newExplant(owner, { plant_id: plant.id });
    const spareExplant = await newExplant(owner, { initial_count: 2 });
    const sop = subcultureSop();
    const equipment = newId();
    const productLink = newId();
    const usd = (amount: string) => ({ amount, currency: 'USD' });
    await inTransaction(t.database.db, (trx) =>
      importLabData(
        trx,
        lab.workspaceId,
        {
          sops: [sop.sop],
          equipment: [{ id: equipment, name: 'Balance', category: 'balance_scale' }],
          culture_line_prices: [
            { plant_id: plant.id, list_price: usd('18.50'), pricing_tier: 'A' },
          ],
          price_events: [
            { plant_id: plant.id, list_price: usd('18.50'), changed_at: '2026-11-01T10:00:00Z' },
          ],
          order_lines: [
            {
              plant_id: plant.id,
              product_link_id: productLink,
              quantity: 3,
              unit_price: usd('18.50'),
              occurred_at: '2026-11-02T10:00:00Z',
            },
          ],
        },
        createRecordLookup(),
      ),
    );
    const device = await lab.deviceToken();
    const token = dataOf(await owner.post(`/api/v1/devices/${device.deviceId}/tokens`, {}), 201);
    const comment = dataOf(
      await owner.post('/api/v1/comments', {
        entity_type: 'plant',
        entity_id: plant.id,
        body: 'Browning',
      }),
      201,
    );
    const task = dataOf(await owner.post('/api/v1/tasks', { title: 'Water' }), 201);
    const recipe = dataOf(
      await owner.post('/api/v1/media-recipes', {
        title: 'MS',
        components: [{ name: 'MS basal salts', qty: '4.4', unit: 'g/L' }],
      }),
      201,
    );
    const run = dataOf(await owner.post('/api/v1/sop-runs', { sop_id: sop.ids.sop }), 201);
    const spareDevice = dataOf(await owner.post('/api/v1/devices', { name: 'Spare' }), 201);
    const colleague = await lab.actor('member');
    // A notification of the owner's: the colleague mentions them.
    dataOf(
      await client(t, colleague).post('/api/v1/comments', {
        entity_type: 'plant',
        entity_id: plant.id,
        body: 'Have a look',
        mentioned_user_ids: [lab.owner.memberId],
      }),
      201,
    );
    const [notification] = dataOf(await owner.get('/api/v1/notifications'), 200);
    // An alert rule with an alert: a reading above its threshold opens one at once.
    const alertRule = dataOf(
      await owner.post('/api/v1/alert-rules', {
        name: 'Sensor too warm',
        sensor_type: 'temperature',
        device_id: device.deviceId,
        condition: 'above',
        threshold: 28,
      }),
      201,
    );
    dataOf(
      await owner.post('/api/v1/sensor-readings', {
        device_id: device.deviceId,
        type: 'temperature',
        value: 30,
        unit: 'C',
      }),
      201,
    );
    const [alert] = dataOf(await owner.get(`/api/v1/alerts?rule_id=${alertRule.id}`), 200);
    // A webhook endpoint with a delivery in its log (the plant's event, sent to a
    // receiver), and a spare one.
    receiver = await startReceiver();
    const endpoint = dataOf(
      await owner.post('/api/v1/webhook-endpoints', { url: receiver.url }),
      201,
    );
    await newPlant(owner, { species: 'Philodendron' });
    expect(await streamOnce(t, endpoint.id)).toBeGreaterThan(0);
    const [delivery] = dataOf(
      await owner.get(`/api/v1/webhook-endpoints/${endpoint.id}/deliveries`),
      200,
    );
    const spareEndpoint = dataOf(
      await owner.post('/api/v1/webhook-endpoints', { url: receiver.url, description: 'Spare' }),
      201,
    );
    const stockItem = dataOf(
      await owner.post('/api/v1/stock-items', { name: 'Agar', category: 'agar', unit: 'g' }),
      201,
    );
    const stockLot = dataOf(
      await owner.post(`/api/v1/stock-items/${stockItem.id}/lots`, {
        lot_number: 'A-1',
        quantity: 500,
      }),
      201,
    );
    const mediaBatch = dataOf(
      await owner.post('/api/v1/media-batches', { recipe_id: recipe.id, volume_ml: 1000 }),
      201,
    );
    await newExplant(owner, { label: 'On the batch', media_batch_id: mediaBatch.id });
    Object.assign(ids, {
      stockItem: stockItem.id,
      stockLot: stockLot.id,
      mediaBatch: mediaBatch.id,
      plant: plant.id,
      explant: explant.id,
      spareExplant: spareExplant.id,
      room: await addRoom(t.database, lab.workspaceId),
      viewer: viewer.memberId,
      owner: lab.owner.memberId,
      sop: sop.ids.sop,
      run: run.id,
      equipment,
      productLink,
      device: device.deviceId,
      token: token.id,
      comment: comment.id,
      task: task.id,
      recipe: recipe.id,
      spareDevice: spareDevice.id,
      colleague: colleague.memberId,
      alertRule: alertRule.id,
      alert: alert.id,
      endpoint: endpoint.id,
      delivery: delivery.id,
      spareEndpoint: spareEndpoint.id,
      notification: notification.id,
    });
  });
  afterAll(() => receiver.close());

  it('has a case for every operation that takes an id in its path, query or body', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const takingIds = operationsOf(doc as OpenApiDocument)
      .filter((op) => op.parameters.some((p) => namesUuid(p.schema)) || namesUuid(op.body))
      .map((op) => op.operationId);
    expect(Object.keys(CASES).sort()).toEqual(takingIds.sort());
  });

  const ran = new Set<string>();
  /**
   * Runs a case, after the cases it needs (the ones that make the ids it reads, and AFTER)
   * when they have not run: `-t` runs one case alone.
   */
  const runCase = async (operationId: string): Promise<void> => {
    const before = AFTER[operationId];
    if (before !== undefined && !ran.has(before)) await runCase(before);
    for (const id of idsRead(operationId)) {
      if (ids[id] === undefined && MAKER[id] !== undefined) await runCase(MAKER[id]);
    }
    ran.add(operationId);
    for (const call of CASES[operationId]!(ids)) {
      const res = await send(call);
      expect(res.statusCode, `${call.method} ${call.url}: ${res.body}`).toBe(call.status);
      expect(notLowercase(res.body)).toEqual([]);
      if (call.method === 'GET') {
        // The same answer as for the ids in lower case, and one that found something.
        const lower = await send({ ...call, url: call.url.toLowerCase() });
        expect(body(res)).toEqual(body(lower));
        const data = body(res).data as unknown;
        expect(Array.isArray(data) ? data.length : 1, call.url).toBeGreaterThan(0);
      }
      const made = MADE[operationId];
      if (made !== undefined) ids[made] = body(res).data.id as string;
    }
  };

  it.each(Object.keys(CASES))(
    '%s: ids sent in upper case find the records, and every id answered is lower case',
    (operationId) => runCase(operationId),
  );

  it('echoes and stores body ids in lower case', async () => {
    const explant = dataOf(
      await owner.post('/api/v1/explants', { label: 'U-2', plant_id: up(ids.plant!) }),
      201,
    );
    expect(explant.plant_id).toBe(ids.plant);
    expect(dataOf(await owner.get(`/api/v1/explants/${explant.id}`), 200).plant_id).toBe(ids.plant);
  });

  it('continues a list filtered by an id in either case with the cursor of the other', async () => {
    // Two transfers of the plant at least: one page of one, and another after it.
    dataOf(await owner.post('/api/v1/transfers', { plant_id: ids.plant! }), 201);
    const first = await owner.get(`/api/v1/transfers?plant_id=${up(ids.plant!)}&limit=1`);
    const lower = await owner.get(`/api/v1/transfers?plant_id=${ids.plant!}&limit=1`);
    expect(body(first)).toEqual(body(lower));
    const cursor = body(first).meta.next_cursor as string;
    expect(cursor).toEqual(expect.any(String));
    const next = await owner.get(
      `/api/v1/transfers?plant_id=${ids.plant!}&limit=1&cursor=${encodeURIComponent(cursor)}`,
    );
    expect(next.statusCode).toBe(200);
    expect(dataOf(next, 200)).toHaveLength(1);
    const back = await owner.get(
      `/api/v1/transfers?plant_id=${up(ids.plant!)}&limit=1&cursor=${encodeURIComponent(body(lower).meta.next_cursor as string)}`,
    );
    expect(body(back)).toEqual(body(next));
  });

  it('answers an unknown id in upper case like an unknown one in lower case: 404', async () => {
    const unknown = randomId();
    expectSameAnswer(
      await owner.get(`/api/v1/plants/${up(unknown)}`),
      await owner.get(`/api/v1/plants/${unknown}`),
      404,
      'NOT_FOUND',
    );
    expectSameAnswer(
      await owner.get(`/api/v1/plants/${up(ids.plant!).replace(/[A-F]/, 'G')}`),
      await owner.get(`/api/v1/plants/${unknown}`),
      404,
      'NOT_FOUND',
    );
  });

  it('takes the same request with its ids in either case as one request for the Idempotency-Key', async () => {
    const created = await send(
      { method: 'POST', url: '/api/v1/explants', body: { label: 'U-3', plant_id: up(ids.plant!) } },
      { 'idempotency-key': 'uuid-case-body' },
    );
    expect(created.statusCode).toBe(201);
    expect(created.headers['idempotent-replay']).toBe('false');
    const again = await send(
      { method: 'POST', url: '/api/v1/explants', body: { label: 'U-3', plant_id: ids.plant! } },
      { 'idempotency-key': 'uuid-case-body' },
    );
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replay']).toBe('true');
    expect(again.body).toBe(created.body);

    const patched = await send(
      { method: 'PATCH', url: `/api/v1/plants/${up(ids.plant!)}`, body: { notes: 'same' } },
      { 'idempotency-key': 'uuid-case-path' },
    );
    expect(patched.statusCode).toBe(200);
    const replayed = await send(
      { method: 'PATCH', url: `/api/v1/plants/${ids.plant!}`, body: { notes: 'same' } },
      { 'idempotency-key': 'uuid-case-path' },
    );
    expect(replayed.statusCode).toBe(200);
    expect(replayed.headers['idempotent-replay']).toBe('true');
    // Another record with the same key is another request.
    const other = await newPlant(owner);
    const refused = await send(
      { method: 'PATCH', url: `/api/v1/plants/${up(other.id as string)}`, body: { notes: 'same' } },
      { 'idempotency-key': 'uuid-case-path' },
    );
    expect(refused.statusCode).toBe(422);
  });

  it('reads the ids of an import file in any case, and stores them in lower case', async () => {
    const equipment = newId();
    const room = newId();
    await inTransaction(t.database.db, (trx) =>
      importLabData(
        trx,
        lab.workspaceId,
        {
          rooms: [{ id: up(room), name: 'Imported room' }],
          equipment: [{ id: up(equipment), name: 'Hood', category: 'laminar_flow_hood' }],
          labels: [
            {
              barcode: 'UC-IMPORT-1',
              record_type: 'plant',
              record_id: up(ids.plant!),
              display_name: 'P',
            },
          ],
          culture_line_prices: [
            {
              plant_id: up(ids.plant!),
              list_price: { amount: '20', currency: 'USD' },
              pricing_tier: 'B',
            },
          ],
        },
        createRecordLookup(),
      ),
    );
    expect(dataOf(await owner.get(`/api/v1/equipment/${equipment}`), 200).id).toBe(equipment);
    const device = dataOf(
      await owner.post('/api/v1/devices', { name: 'In room', room_id: room }),
      201,
    );
    expect(device.room_id).toBe(room);
    const resolved = await owner.get('/api/v1/labels/resolve?barcode=UC-IMPORT-1');
    expect(resolved.statusCode).toBe(200);
    expect(notLowercase(resolved.body)).toEqual([]);
    expect(resolved.body).toContain(ids.plant!);
  });

  it('stored no id in upper case anywhere in the workspace', async () => {
    const tables = (await listTables(t)).filter((table) => table.columns.includes('workspace_id'));
    expect(tables.length).toBeGreaterThan(20);
    const found: string[] = [];
    for (const table of tables) {
      const rows = await sql<
        Record<string, unknown>
      >`select * from ${sql.table(table.name)} where workspace_id = ${lab.workspaceId}`.execute(
        t.database.db,
      );
      for (const id of notLowercase(JSON.stringify(rows.rows))) found.push(`${table.name}: ${id}`);
    }
    expect(found).toEqual([]);
  });
});

/** Every table of the database and its columns. */
async function listTables(t: TestApp): Promise<{ name: string; columns: string[] }[]> {
  const introspected = await t.database.db.introspection.getTables();
  return introspected.map((table) => ({
    name: table.name,
    columns: table.columns.map((c) => c.name),
  }));
}
