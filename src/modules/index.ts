import { recordLookup, type RecordLookup } from '../kernel/records.js';
import type { Routes } from '../kernel/routes/index.js';
import { registerDeviceEventRoutes } from './device-events/device-events.routes.js';
import { registerDeviceRoutes } from './devices/devices.routes.js';
import { registerEventRoutes } from './events/events.routes.js';
import { explants } from './explants/explants.repository.js';
import { registerExplantRoutes } from './explants/explants.routes.js';
import { registerMeRoutes } from './me/me.routes.js';
import { plants } from './plants/plants.repository.js';
import { registerPlantRoutes } from './plants/plants.routes.js';
import { registerReadingRoutes } from './readings/readings.routes.js';
import { registerStageRoutes } from './stages/stages.routes.js';
import { registerWorkspaceRoutes } from './workspaces/workspaces.routes.js';

/*
 * The one place that wires the modules: it builds what they share and hands each
 * `register…Routes` only the dependencies it uses.
 */

/** "The record of kind K with id X in workspace W", from each kind's own module. */
export function createRecordLookup(): RecordLookup {
  return recordLookup({ plant: plants, explant: explants });
}

export interface ModuleDeps {
  readonly records: RecordLookup;
}

export function registerApiRoutes(routes: Routes, deps: ModuleDeps): void {
  registerMeRoutes(routes);
  registerWorkspaceRoutes(routes);
  registerPlantRoutes(routes);
  registerExplantRoutes(routes, { records: deps.records });
  registerStageRoutes(routes, { records: deps.records });
  registerEventRoutes(routes);
  registerDeviceRoutes(routes);
  registerDeviceEventRoutes(routes);
  registerReadingRoutes(routes);
}
