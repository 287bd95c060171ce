// The per-request domain work of the baseline's transfer routes: the rows, events and JSON
// Vitro's transfers service produces for an explant transfer, without Vitro's kernel.
import { v7 as uuidv7 } from 'uuid';

export function presentTransfer(row) {
  return {
    id: row.id,
    entity_type: row.entity_type,
    entity_id: row.entity_id,
    transfer_date: row.transfer_date,
    transfer_cycle: row.transfer_cycle,
    from_location: row.from_location,
    to_location: row.to_location,
    status: row.status,
    notes: row.notes,
    created_at: row.created_at,
    custom_fields: row.custom_fields === '{}' ? {} : JSON.parse(row.custom_fields),
    vessel_count: row.vessel_count,
    plantlet_count: row.plantlet_count,
  };
}

/** The transfer row of POST /transfers for an explant, with the defaults Vitro applies. */
export function newTransferRow(key, body, cycle, transferDate, now) {
  return {
    id: uuidv7(),
    workspace_id: key.workspace_id,
    entity_type: 'explant',
    entity_id: body.explant_id,
    transfer_date: transferDate,
    transfer_cycle: cycle,
    from_location: body.from_location ?? null,
    to_location: body.to_location ?? null,
    status: body.status ?? 'completed',
    notes: body.notes ?? null,
    vessel_count: body.vessel_count ?? null,
    plantlet_count: body.plantlet_count ?? null,
    custom_fields: '{}',
    created_by: key.member_id,
    created_at: now,
  };
}

/** The `transfer` change event (before its sequence number). */
export function transferEvent(row) {
  return {
    workspace_id: row.workspace_id,
    entity_type: row.entity_type,
    entity_id: row.entity_id,
    event_type: 'transfer',
    event_time: row.transfer_date,
    recorded_by: row.created_by,
    payload: {
      transfer_id: row.id,
      transfer_cycle: row.transfer_cycle,
      transfer_date: row.transfer_date,
      status: row.status,
      from_location: row.from_location,
      to_location: row.to_location,
      observed_vessel_count: row.vessel_count,
      plantlet_count: row.plantlet_count,
      notes: row.notes,
    },
  };
}

/** The counts a transfer brings to its explant (decision 5), `{}` when it carries none. */
export function countsOf(row) {
  return {
    ...(row.vessel_count === null ? {} : { current_count: row.vessel_count }),
    ...(row.plantlet_count === null ? {} : { plantlet_count: row.plantlet_count }),
  };
}

/** `{field: {from, to}}` for the counts that differ from the explant's. */
export function countChanges(explant, counts) {
  const changes = {};
  for (const field of ['current_count', 'plantlet_count']) {
    if (counts[field] !== undefined && explant[field] !== counts[field]) {
      changes[field] = { from: explant[field], to: counts[field] };
    }
  }
  return changes;
}

/** The `updated` event of an explant whose counts a transfer changed. */
export function countsEvent(row, changes, now) {
  return {
    workspace_id: row.workspace_id,
    entity_type: 'explant',
    entity_id: row.entity_id,
    event_type: 'updated',
    event_time: now,
    recorded_by: row.created_by,
    payload: { changes, transfer_id: row.id },
  };
}

/** Whether a completed transfer starts a later subculture than the explant's (Vitro's rule). */
export function startsLaterSubculture(explant, row) {
  return (
    row.status === 'completed' &&
    (explant.subcultured_at === null || row.transfer_date > explant.subcultured_at)
  );
}
