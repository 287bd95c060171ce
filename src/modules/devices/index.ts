/*
 * The devices module's face: devices and their tokens, the guards of device-scoped
 * writes (device events, readings), and the token lookup of authentication.
 */
export { deviceTokenSignIn, type DeviceTokenSignInRow } from './device-sign-in.js';
export {
  markDeviceSeen,
  requireDevices,
  requireOwnDevice,
  type IngestDevice,
} from './device-guards.js';
export { mintDeviceToken, type MintedDeviceToken } from './device-tokens.service.js';
export {
  changeDeviceStatus,
  deviceRoom,
  DEVICE_STATUSES,
  deviceCountsByRoom,
  listWorkspaceDevices,
  registerDevice,
  requireDevice,
  type DeviceRecord,
  type DeviceStatus,
  type NewDevice,
} from './devices.service.js';
