import { inTransaction } from '../../src/db/transaction.js';
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { SCOPES } from '../../src/kernel/access.js';
import { newId } from '../../src/kernel/ids.js';
import type { Principal } from '../../src/kernel/principal.js';
import { replaceCustomFieldDefinitions, upsertRoom } from '../../src/modules/lab/lab.repository.js';
import { body, type Actor, type TestApp } from './harness.js';

/** A JSON body as tests read it: loosely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read JSON bodies loosely
export type Json = any;

/** Rate budgets high enough that no test trips them (the limiter has its own tests). */
export const GENEROUS_LIMITS = {
  VITRO_RATE_LIMIT_KEY_PER_MIN: '100000',
  VITRO_RATE_LIMIT_WORKSPACE_PER_MIN: '100000',
};

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A caller bound to one app and one key. */
export interface Client {
  get(url: string): Promise<LightMyRequestResponse>;
  post(
    url: string,
    payload: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  patch(
    url: string,
    payload: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
}

export function client(t: TestApp, actor: Pick<Actor, 'headers'>): Client {
  return {
    get: (url) => t.request({ method: 'GET', url, headers: actor.headers }),
    post: (url, payload, headers = {}) =>
      t.request({
        method: 'POST',
        url,
        headers: { ...actor.headers, ...headers },
        payload: payload as object,
      }),
    patch: (url, payload, headers = {}) =>
      t.request({
        method: 'PATCH',
        url,
        headers: { ...actor.headers, ...headers },
        payload: payload as object,
      }),
  };
}

/** The `data` of a response that must have the given status. */
export function dataOf(res: LightMyRequestResponse, status: number): Json {
  if (res.statusCode !== status) {
    throw new Error(`expected HTTP ${status}, got ${res.statusCode}: ${res.body}`);
  }
  return body(res).data;
}

export async function newPlant(c: Client, fields: Record<string, unknown> = {}): Promise<Json> {
  return dataOf(await c.post('/api/v1/plants', { species: 'Ficus lyrata', ...fields }), 201);
}

export async function newExplant(c: Client, fields: Record<string, unknown> = {}): Promise<Json> {
  return dataOf(await c.post('/api/v1/explants', { label: 'FL-1', ...fields }), 201);
}

export async function moveStage(c: Client, fields: Record<string, unknown>): Promise<Json> {
  return body(await c.post('/api/v1/stages', fields));
}

/** Every item of a list, following `next_cursor` until it is null. */
export async function listAll(c: Client, url: string, limit = 200): Promise<Json[]> {
  const items: Json[] = [];
  let cursor: string | null = null;
  const join = url.includes('?') ? '&' : '?';
  do {
    const page: string = `${url}${join}limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const res = await c.get(page);
    items.push(...dataOf(res, 200));
    cursor = body(res).meta.next_cursor;
  } while (cursor !== null);
  return items;
}

export const stagesOf = (c: Client, kind: 'plant' | 'explant', id: string) =>
  listAll(c, `/api/v1/stages?${kind}_id=${id}`);

export const eventsOf = (c: Client, entity: 'plant' | 'explant') =>
  listAll(c, `/api/v1/events?entity=${entity}`);

/** Asserts that two refusals are indistinguishable: same status, code and text. */
export function expectSameAnswer(
  actual: LightMyRequestResponse,
  reference: LightMyRequestResponse,
  status: number,
  code: string,
): void {
  expect(reference.statusCode).toBe(status);
  expect(body(reference).code).toBe(code);
  expect({ status: actual.statusCode, ...body(actual) }).toEqual({
    status: reference.statusCode,
    ...body(reference),
  });
}

export function expectError(
  res: LightMyRequestResponse,
  status: number,
  code: string,
  error?: RegExp,
): void {
  expect({ status: res.statusCode, code: body(res).code, ok: body(res).ok }).toEqual({
    status,
    code,
    ok: false,
  });
  if (error !== undefined) expect(body(res).error).toMatch(error);
}

export const randomId = () => randomUUID();

export async function addRoom(
  database: Database,
  workspaceId: string,
  name = 'Growth room A',
): Promise<string> {
  const id = newId();
  await inTransaction(database.db, (trx) =>
    upsertRoom(trx, {
      id,
      workspace_id: workspaceId,
      name,
      created_at: new Date().toISOString(),
      archived_at: null,
    }),
  );
  return id;
}

export interface FieldDefinition {
  entity: 'plant' | 'explant' | 'transfer' | 'contamination';
  key: string;
  type: 'text' | 'number' | 'boolean' | 'date' | 'select';
  options?: string[];
}

export async function defineCustomFields(
  database: Database,
  workspaceId: string,
  fields: readonly FieldDefinition[],
): Promise<void> {
  await inTransaction(database.db, (trx) =>
    replaceCustomFieldDefinitions(
      trx,
      workspaceId,
      ['plant', 'explant', 'transfer', 'contamination'],
      fields.map((f, position) => ({
        workspace_id: workspaceId,
        entity_type: f.entity,
        key: f.key,
        type: f.type,
        options: f.options === undefined ? null : JSON.stringify(f.options),
        position,
      })),
    ),
  );
}

/** Marks a record deleted, as the app does (no API deletes plants or explants). */
export async function markDeleted(
  database: Database,
  table: 'plants' | 'explants',
  id: string,
): Promise<void> {
  await database.db
    .updateTable(table)
    .set({ deleted_at: new Date().toISOString() })
    .where('id', '=', id)
    .execute();
}

/**
 * Makes every change-history insert of one workspace fail, to prove a write and its
 * event commit together. Scoped to the workspace so other tests sharing the
 * database are untouched. Returns the undo.
 */
export async function refuseEventInserts(
  database: Database,
  workspaceId: string,
): Promise<() => Promise<void>> {
  const suffix = workspaceId.replace(/-/g, '');
  const trigger = sql.raw(`vitro_test_refuse_events_${suffix}`);
  const literal = sql.lit(workspaceId);
  if (database.dialect === 'postgres') {
    await sql`CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'test: change history refused'; END $$`.execute(database.db);
    await sql`CREATE TRIGGER ${trigger} BEFORE INSERT ON events FOR EACH ROW
      WHEN (NEW.workspace_id = ${literal}) EXECUTE FUNCTION ${trigger}()`.execute(database.db);
    return async () => {
      await sql`DROP TRIGGER ${trigger} ON events`.execute(database.db);
      await sql`DROP FUNCTION ${trigger}()`.execute(database.db);
    };
  }
  await sql`CREATE TRIGGER ${trigger} BEFORE INSERT ON events
    WHEN NEW.workspace_id = ${literal}
    BEGIN SELECT RAISE(ABORT, 'test: change history refused'); END`.execute(database.db);
  return async () => {
    await sql`DROP TRIGGER ${trigger}`.execute(database.db);
  };
}

/** Sorted keys of an object, to compare a record's shape with resources.md. */
export const keysOf = (value: object) => Object.keys(value).sort();

/** Lets a little time pass, so that a later write has a later timestamp. */
export const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** The problem an import of `file` into the workspace is refused with (it must be refused). */
export async function importRefusal(
  database: Database,
  workspaceId: string,
  file: unknown,
): Promise<string> {
  const { importLabData } = await import('../../src/modules/import/import.service.js');
  const { createRecordLookup } = await import('../../src/modules/index.js');
  try {
    await inTransaction(database.db, (trx) =>
      importLabData(trx, workspaceId, file, createRecordLookup()),
    );
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the import was accepted');
}

/** The principal of a lab's owner key, for services called directly. */
export function ownerPrincipal(lab: { workspaceId: string; owner: Actor }): Principal {
  return {
    kind: 'key',
    credentialId: lab.owner.keyId,
    workspaceId: lab.workspaceId,
    plan: 'teams',
    features: [],
    memberId: lab.owner.memberId,
    role: 'owner',
    deviceId: null,
    scopes: SCOPES,
    key: null,
  };
}
