import type { Static } from 'typebox';
import type { Db, Trx } from '../../db/database.js';
import { AppError, errors } from '../../kernel/errors.js';
import { toUtc } from '../../kernel/formats.js';
import { newId } from '../../kernel/ids.js';
import type { Page, PageRequest } from '../../db/pages.js';
import type { Principal } from '../../kernel/principal.js';
import { RECORD_KINDS, type RecordKind, type RecordLookup } from '../../kernel/record-lookup.js';
import type { TimeWindow } from '../../kernel/window.js';
import {
  equipment,
  equipmentEvents,
  listEquipmentEventRows,
  type EquipmentEventRow,
  type EquipmentRow,
} from './equipment.repository.js';
import type {
  CreateEquipmentEventBody,
  EquipmentEvent,
  EquipmentEventReceipt,
} from './equipment.schemas.js';
import type { EquipmentEventKind, SubjectType } from './equipment.service.js';

export type EquipmentEventRecord = Static<typeof EquipmentEvent>;
export type EquipmentEventInput = Static<typeof CreateEquipmentEventBody>;
export type EquipmentEventReceiptRecord = Static<typeof EquipmentEventReceipt>;

/**
 * The record kinds a `used` event's subject may be, by subject type. A kind counts
 * once a module registers it in RECORD_KINDS (kernel/record-lookup.ts), as plant and
 * explant transfers and SOP runs do. A subject type none of whose kinds Vitro keeps yet is
 * not checked (there is nothing to check it against); otherwise the subject must be
 * a record of one of them in the workspace (404 otherwise, as for a random id).
 */
const SUBJECT_KINDS: Readonly<Record<SubjectType, readonly string[]>> = {
  plant_transfer: ['plant', 'plant_transfer'],
  explant_transfer: ['explant', 'explant_transfer'],
  sop_log: ['sop_run'],
  contamination_log: ['contamination'],
  media_batch: [],
};

const isRecordKind = (kind: string): kind is RecordKind =>
  (RECORD_KINDS as readonly string[]).includes(kind);

/** The record kinds a subject type is checked against today. */
export function subjectKindsOf(type: SubjectType): RecordKind[] {
  return SUBJECT_KINDS[type].filter(isRecordKind);
}

async function requireSubject(
  db: Db,
  records: RecordLookup,
  workspaceId: string,
  type: SubjectType,
  id: string,
): Promise<void> {
  const kinds = subjectKindsOf(type);
  if (kinds.length === 0) return;
  for (const kind of kinds) {
    if ((await records.find(db, kind, workspaceId, id)) !== undefined) return;
  }
  throw errors.notFound(`${type} subject`);
}

/** The equipment dates an event kind moves: calibration, or maintenance (decision 6). */
const DATES: Partial<
  Record<
    EquipmentEventKind,
    {
      last: 'last_calibrated_at' | 'last_maintenance_at';
      next: 'next_calibration_due_at' | 'next_maintenance_due_at';
    }
  >
> = {
  calibration: { last: 'last_calibrated_at', next: 'next_calibration_due_at' },
  preventive_maintenance: { last: 'last_maintenance_at', next: 'next_maintenance_due_at' },
  service: { last: 'last_maintenance_at', next: 'next_maintenance_due_at' },
};

/**
 * What an event changes on its equipment: a calibration sets `last_calibrated_at`,
 * maintenance and service set `last_maintenance_at`, and a sent `next_due_at` sets
 * the matching `next_…_due_at`. Only the latest event of its kind does: one recorded
 * late for an earlier date is history and leaves the equipment's dates alone.
 */
function dateChanges(
  row: EquipmentRow,
  kind: EquipmentEventKind,
  occurredAt: string,
  nextDueAt: string | null,
): Partial<EquipmentRow> | null {
  const dates = DATES[kind];
  if (dates === undefined) return null;
  const last = row[dates.last];
  if (last !== null && Date.parse(occurredAt) < Date.parse(last)) return null;
  return { [dates.last]: occurredAt, ...(nextDueAt === null ? {} : { [dates.next]: nextDueAt }) };
}

const DEFAULT_OUTCOME: Partial<Record<EquipmentEventKind, 'pass'>> = {
  calibration: 'pass',
  preventive_maintenance: 'pass',
};

function eventRow(
  principal: Principal,
  equipmentId: string,
  input: EquipmentEventInput,
  now: string,
): EquipmentEventRow {
  const empty = {
    outcome: null,
    subject_type: null,
    subject_id: null,
    subject_label: null,
    performed_by_name: null,
    provider: null,
    as_found_condition: null,
    as_left_condition: null,
    result_summary: null,
    certificate_number: null,
    certificate_url: null,
    next_due_at: null,
  };
  const common = {
    id: newId(),
    workspace_id: principal.workspaceId,
    equipment_id: equipmentId,
    kind: input.kind,
    notes: input.notes ?? null,
    recorded_by: principal.memberId,
    recorded_at: now,
  };
  if (input.kind === 'used') {
    return {
      ...common,
      ...empty,
      occurred_at: input.used_at === undefined ? now : toUtc(input.used_at),
      subject_type: input.subject_type,
      subject_id: input.subject_id,
      subject_label: input.subject_label ?? null,
    };
  }
  return {
    ...common,
    ...empty,
    occurred_at: input.performed_at === undefined ? now : toUtc(input.performed_at),
    outcome: input.outcome ?? DEFAULT_OUTCOME[input.kind] ?? null,
    performed_by_name: input.performed_by_name ?? null,
    result_summary: input.result_summary ?? null,
    next_due_at: input.next_due_at === undefined ? null : toUtc(input.next_due_at),
  };
}

/**
 * Records that equipment was used, calibrated, maintained, serviced or faulted
 * (append-only), in the caller's transaction, and moves the equipment's dates
 * (decision 6; this is where Vitro departs from the wire format, whose POST does
 * not move due dates). Every kind but `used` needs the `equipment_calibration`
 * feature. A `used` event's subject must be in the workspace.
 */
export async function recordEquipmentEvent(
  trx: Trx,
  principal: Principal,
  equipmentId: string,
  input: EquipmentEventInput,
  records: RecordLookup,
  now: string,
): Promise<EquipmentEventReceiptRecord> {
  const workspaceId = principal.workspaceId;
  if (input.kind !== 'used' && !principal.features.includes('equipment_calibration')) {
    throw new AppError(
      'FEATURE_NOT_INCLUDED',
      `The equipment_calibration feature is not included in this workspace's plan; only "used" events can be recorded`,
    );
  }
  // Locked: concurrent events of one piece of equipment apply their dates one after another.
  const current = await equipment.lock(trx, workspaceId, equipmentId);
  if (current === undefined) throw errors.notFound('Equipment');
  if (input.kind === 'used') {
    await requireSubject(trx, records, workspaceId, input.subject_type, input.subject_id);
  }
  const row = eventRow(principal, equipmentId, input, now);
  await equipmentEvents.insert(trx, row);
  const changes = dateChanges(current, input.kind, row.occurred_at, row.next_due_at);
  if (changes !== null) {
    await equipment.update(trx, workspaceId, equipmentId, { ...changes, updated_at: now });
  }
  return { id: row.id, equipmentId, kind: row.kind, recordedAt: row.recorded_at };
}

export function presentEquipmentEvent(row: EquipmentEventRow): EquipmentEventRecord {
  return {
    id: row.id,
    equipment_id: row.equipment_id,
    kind: row.kind,
    occurred_at: row.occurred_at,
    outcome: row.outcome,
    subject_type: row.subject_type,
    subject_id: row.subject_id,
    subject_label: row.subject_label,
    performed_by_name: row.performed_by_name,
    provider: row.provider,
    as_found_condition: row.as_found_condition,
    as_left_condition: row.as_left_condition,
    result_summary: row.result_summary,
    certificate_number: row.certificate_number,
    certificate_url: row.certificate_url,
    next_due_at: row.next_due_at,
    notes: row.notes,
    recorded_at: row.recorded_at,
  };
}

/**
 * One piece of equipment's events, newest first by when they happened. Without a
 * `kind` the list pages by cursor only (an offset is refused, as in the wire format).
 */
export async function listEquipmentEvents(
  db: Db,
  workspaceId: string,
  equipmentId: string,
  filters: { kind: EquipmentEventKind | undefined; window: TimeWindow; offsetSent: boolean },
  page: PageRequest,
): Promise<Page<EquipmentEventRecord>> {
  if (filters.kind === undefined && filters.offsetSent) {
    throw errors.validation('offset: only with kind; without kind this list pages by cursor');
  }
  if ((await equipment.find(db, workspaceId, equipmentId)) === undefined) {
    throw errors.notFound('Equipment');
  }
  const { items, nextKey } = await listEquipmentEventRows(
    db,
    workspaceId,
    equipmentId,
    { kind: filters.kind ?? null, window: filters.window },
    page,
  );
  return { items: items.map(presentEquipmentEvent), nextKey };
}
