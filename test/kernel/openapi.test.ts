import { beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/kernel/access.js';
import { ERROR_CODES } from '../../src/kernel/errors.js';
import { sqliteTarget } from '../support/harness.js';
import { appSuite } from '../support/suite.js';

interface Operation {
  operationId?: string;
  tags?: string[];
  security?: unknown[];
  'x-scope'?: string | null;
  responses: Record<string, { description: string }>;
}

describe('OpenAPI document', () => {
  const { t } = appSuite(sqliteTarget());
  let doc: {
    openapi: string;
    info: { version: string };
    paths: Record<string, Record<string, Operation>>;
    components: { securitySchemes: Record<string, unknown> };
    'x-scopes': string[];
  };
  beforeAll(async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });

  it('is OpenAPI 3.1 with version 1, the security schemes in use and the 46 scopes', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1');
    // The device-token scheme is listed once an operation accepts device tokens.
    const schemes = new Set(
      Object.values(doc.paths).flatMap((methods) =>
        Object.values(methods).flatMap((op) =>
          (op.security ?? []).flatMap((s) => Object.keys(s as object)),
        ),
      ),
    );
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([...schemes].sort());
    expect(schemes.has('bearerAuth')).toBe(true);
    expect(doc['x-scopes']).toEqual([...SCOPES]);
    expect(doc['x-scopes']).toHaveLength(46);
  });

  it('describes every API route with operationId, tags, scope and its error responses', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ path, method, op })),
    );
    const ids = new Set<string>();
    for (const { path, method, op } of operations) {
      expect(path.startsWith('/api/v1/'), path).toBe(true);
      expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z]+$/);
      ids.add(op.operationId!);
      expect(op.tags?.length).toBeGreaterThan(0);
      expect(op).toHaveProperty('x-scope');
      expect(op.security).toBeDefined();
      for (const status of ['401', '402', '429', '500']) {
        expect(op.responses[status], `${method} ${path} ${status}`).toBeDefined();
      }
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) >= 400) {
          const codes = response.description.replace(/^Failure; code: /, '').split(', ');
          for (const code of codes) expect(ERROR_CODES).toContain(code);
        }
      }
    }
    expect(ids.size).toBe(operations.length);
    expect([...ids].sort()).toEqual(
      [
        'getMe',
        'listWorkspaces',
        'listPlants',
        'createPlant',
        'getPlant',
        'updatePlant',
        'listExplants',
        'createExplant',
        'getExplant',
        'updateExplant',
        'listStages',
        'createStage',
        'listChangeEvents',
        'listTransfers',
        'createTransfer',
        'listContaminations',
        'createContamination',
        'getContamination',
        'listMediaRecipes',
        'createMediaRecipe',
        'getMediaRecipe',
        'updateMediaRecipe',
        'resolveLabel',
        'listLabelCodes',
        'createLabelScan',
        'listTasks',
        'createTask',
        'getTask',
        'updateTask',
        'listDemandSignals',
        'createDemandSignal',
        'listSops',
        'getSop',
        'createSopRun',
        'getSopRun',
        'listSopRunEvents',
        'createSopStepEvent',
        'createSopStepMeasurement',
        'completeSopRun',
        'listEquipment',
        'getEquipment',
        'listEquipmentEvents',
        'createEquipmentEvent',
        'listOrderLines',
        'getSellThrough',
        'listAssets',
        'createAsset',
        'getAsset',
        'listCultureLinePrices',
        'listPriceEvents',
        'listComments',
        'createComment',
        'listDevices',
        'createDevice',
        'sendHeartbeat',
        'listDeviceTokens',
        'createDeviceToken',
        'revokeDeviceToken',
        'createDeviceEvent',
        'listSensorReadings',
        'summarizeSensorReadings',
        'createSensorReadings',
        'listWebhookEndpoints',
        'createWebhookEndpoint',
        'getWebhookEndpoint',
        'updateWebhookEndpoint',
        'deleteWebhookEndpoint',
        'disableWebhookEndpoint',
        'enableWebhookEndpoint',
        'rotateWebhookEndpointSecret',
        'listWebhookDeliveries',
        'getWebhookDelivery',
        'redeliverWebhookDelivery',
        'listAlertRules',
        'createAlertRule',
        'getAlertRule',
        'updateAlertRule',
        'deleteAlertRule',
        'listAlerts',
        'getAlert',
        // Beyond the wire format: what the console's records screens need (issue 25).
        'archivePlant',
        'unarchivePlant',
        'archiveExplant',
        'unarchiveExplant',
        'resolveContamination',
        'listSopRuns',
        'listActivity',
        'listPeople',
        'listRooms',
        'getRoom',
        'createRoom',
        'updateRoom',
        'getStageLists',
        'updateStageLists',
        'getCustomFields',
        'updateCustomFields',
        'getLabSettings',
        'updateLabSettings',
        'createEquipment',
        'updateEquipment',
        'createSop',
        'updateSop',
        'listSopVersions',
        'createSopVersion',
        'updateSopVersion',
        'makeSopVersionEffective',
        'search',
        'createImport',
        // Beyond the wire format: what the console needs (sessions, members, keys, devices).
        'startSession',
        'getSession',
        'endSession',
        'endAllSessions',
        'createSignInLink',
        'listMembers',
        'addMember',
        'changeMember',
        'removeMember',
        'listApiKeys',
        'createApiKey',
        'revokeApiKey',
        'getDevice',
        'changeDeviceStatus',
        // Beyond the wire format: sign-in links named before use, and revoked (issue 37).
        'describeSignInLink',
        'revokeSignInLinks',
        // Beyond the wire format: each person's notifications (issue 41).
        'listNotifications',
        'markNotificationsRead',
        'getNotificationSettings',
        'updateNotificationSettings',
        // Beyond the wire format: an explant's family, recalls (issue 39).
        'splitExplant',
        'mergeExplants',
        'getExplantLineage',
        'getPlantLineage',
        'recallExplant',
        'recallPlant',
        // Beyond the wire format: media batches and the stock they are made from (issue 39).
        'listMediaBatches',
        'createMediaBatch',
        'getMediaBatch',
        'updateMediaBatch',
        'listMediaBatchExplants',
        'listStockItems',
        'createStockItem',
        'getStockItem',
        'updateStockItem',
        'listStockLots',
        'createStockLot',
        'getStockLot',
        'updateStockLot',
        // Beyond the wire format: answers from the records (issue 40).
        'getContaminationInsights',
        'listInsightExposures',
        'getMultiplicationInsights',
        'getStageInsights',
        'getForecast',
      ].sort(),
    );
    expect(doc.paths['/api/v1/me']!.get!['x-scope']).toBeNull();
    expect(doc.paths['/api/v1/plants']!.post!['x-scope']).toBe('write:plants');
    expect(doc.paths['/api/v1/stages']!.post!.responses['403']!.description).toContain(
      'STAGE_WRITE_FORBIDDEN',
    );
  });
});
