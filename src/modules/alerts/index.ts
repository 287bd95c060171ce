/** Sensor alerts: rules on readings, the alerts they open, and the timer for silent sensors. */
export { registerAlertRoutes } from './alerts.routes.js';
export { checkReadings, type CheckedReading } from './evaluate.js';
export { checkSilentSensors, startSilenceTimer } from './silence.js';
export {
  createRule,
  deleteRule,
  getRule,
  listRules,
  updateRule,
  workspaceOfRule,
} from './rules.service.js';
export { CreateAlertRuleBody, UpdateAlertRuleBody } from './alerts.schemas.js';
export { getAlert, listAlerts } from './alerts.service.js';
