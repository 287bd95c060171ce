import type { CredentialLookup } from '../../kernel/credentials.js';
import { findDeviceTokenForAuth, touchDeviceToken } from './devices.repository.js';

/** A device token by its SHA-256, with its device and workspace, and its last use: what authentication reads. */
export const deviceTokenSignIn: CredentialLookup<DeviceTokenSignInRow> = {
  find: findDeviceTokenForAuth,
  recordUse: touchDeviceToken,
};

export type DeviceTokenSignInRow = NonNullable<Awaited<ReturnType<typeof findDeviceTokenForAuth>>>;
