import { inTransaction } from '../../src/db/transaction.js';
import type { Feature } from '../../src/kernel/access.js';
import { newId } from '../../src/kernel/ids.js';
import { setWorkspaceFeatures } from '../../src/modules/identity/index.js';
import { importLabData } from '../../src/modules/import/import.service.js';
import { createRecordLookup } from '../../src/modules/index.js';
import type { TestApp } from '../support/harness.js';

/*
 * Library data (equipment, prices, order lines) reaches a workspace only through
 * the import, as in `vitro import`: these helpers apply import files in one
 * transaction, optionally as of a given time (it becomes created_at).
 */

export function importFile(
  t: TestApp,
  workspaceId: string,
  file: unknown,
  now?: string,
): ReturnType<typeof importLabData> {
  return inTransaction(t.database.db, (trx) =>
    importLabData(trx, workspaceId, file, createRecordLookup(), now),
  );
}

/** Imports one piece of equipment and returns its id. */
export async function addEquipment(
  t: TestApp,
  workspaceId: string,
  fields: Record<string, unknown> = {},
  now?: string,
): Promise<string> {
  const id = newId();
  await importFile(
    t,
    workspaceId,
    { equipment: [{ id, name: `Balance ${id.slice(-6)}`, category: 'balance_scale', ...fields }] },
    now,
  );
  return id;
}

/** `vitro workspace set-features`, in this process. */
export async function setFeatures(
  t: TestApp,
  workspaceId: string,
  features: readonly Feature[],
): Promise<void> {
  await inTransaction(t.database.db, (trx) =>
    setWorkspaceFeatures(trx, workspaceId, [...features]),
  );
}

/** A time `minutes` after 2026-11-01T00:00:00Z, as the API writes timestamps. */
export const minutesIn = (minutes: number) =>
  new Date(Date.UTC(2026, 10, 1) + minutes * 60_000).toISOString();
