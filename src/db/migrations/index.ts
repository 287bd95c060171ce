import type { Migration } from 'kysely';
import * as identity from './20261121090000_identity.js';
import * as records from './20261121090100_records.js';
import * as library from './20261121090200_library.js';
import * as deviceData from './20261123130000_device_data.js';

/** Every migration, by its frozen timestamped name. Append only. */
export const migrations: Record<string, Migration> = {
  '20261121090000_identity': identity,
  '20261121090100_records': records,
  '20261121090200_library': library,
  '20261123130000_device_data': deviceData,
};
