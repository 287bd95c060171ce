// Reads back what a write case wrote besides its answer (a created plant's first stage and
// change event; a transfer's row, events and explant), so the bench can check that both
// servers do the same writes.
import Database from 'better-sqlite3';
import pg from 'pg';

const STAGES_SQL = 'select * from "stages" where "entity_type" = \'plant\' and "entity_id" = ?';
const EVENTS_SQL =
  'select * from "events" where "entity_type" = ? and "entity_id" = ? order by "seq"';
const TRANSFER_SQL = 'select * from "transfers" where "id" = ?';
const EXPLANT_SQL = 'select * from "explants" where "id" = ?';

/** Replaces values that legitimately differ between two servers' answers. */
export function mask(value, ...paths) {
  const copy = JSON.parse(JSON.stringify(value));
  for (const path of paths) {
    const keys = path.split('.');
    const last = keys.pop();
    const parent = keys.reduce((node, key) => node?.[key], copy);
    if (parent && last in parent) parent[last] = '(varies)';
  }
  return copy;
}

/** Runs `queries` ({name: [sql, params]}) on the bench database: {name: rows}. */
async function readRows(target, queries) {
  const entries = Object.entries(queries);
  if (target.dialect === 'sqlite') {
    const db = new Database(target.path, { readonly: true });
    try {
      return Object.fromEntries(
        entries.map(([name, [text, params]]) => [name, db.prepare(text).all(...params)]),
      );
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    const out = {};
    for (const [name, [text, params]] of entries) {
      let n = 0;
      out[name] = (
        await client.query(
          text.replace(/\?/g, () => `$${++n}`),
          params,
        )
      ).rows;
    }
    return out;
  } finally {
    await client.end();
  }
}

/** The rows a created plant brought along, with ids and clock readings replaced by checks. */
export async function writesOfCreatedPlant(target, plant) {
  const { stages, events } = await readRows(target, {
    stages: [STAGES_SQL, [plant.id]],
    events: [EVENTS_SQL, ['plant', plant.id]],
  });
  return {
    stages: stages.map((stage) => ({
      stage: stage.stage,
      status: stage.status,
      entered_on_is_created_at: stage.entered_on === plant.created_at,
      completed_at: stage.completed_at,
    })),
    events: events.map((event) => ({
      event_type: event.event_type,
      stage_id_matches: event.stage_id === stages[0]?.id,
      event_time_is_created_at: event.event_time === plant.created_at,
      payload: mask(
        JSON.parse(event.payload),
        'id',
        'created_at',
        'updated_at',
        'current_stage.id',
        'current_stage.entered_on',
      ),
    })),
  };
}

/**
 * What an explant transfer wrote: its row, the explant's events (the bench's explants have
 * none before it) and the explant's counts, ids and clock readings replaced by checks.
 */
export async function writesOfTransfer(target, transfer) {
  const rows = await readRows(target, {
    transfers: [TRANSFER_SQL, [transfer.id]],
    events: [EVENTS_SQL, ['explant', transfer.entity_id]],
    explants: [EXPLANT_SQL, [transfer.entity_id]],
  });
  const [row] = rows.transfers;
  const [explant] = rows.explants;
  const seqs = rows.events.map((event) => Number(event.seq));
  return {
    transfer: row && {
      ...mask(row, 'id', 'workspace_id', 'entity_id', 'created_by'),
      transfer_date:
        row.transfer_date === transfer.transfer_date ? 'as answered' : row.transfer_date,
      created_at: row.created_at === transfer.created_at ? 'as answered' : row.created_at,
    },
    events: rows.events.map((event) => ({
      event_type: event.event_type,
      stage_id: event.stage_id,
      recorded_by_is_creator: event.recorded_by === row?.created_by,
      // The transfer's event happens at the transfer date, the count change at the request's time.
      event_time_as_vitro_sets_it:
        event.event_time ===
        (event.event_type === 'transfer' ? transfer.transfer_date : transfer.created_at),
      created_at_after_transfer: event.created_at >= transfer.created_at,
      payload: mask(JSON.parse(event.payload), 'transfer_id', 'transfer_date'),
      payload_names_transfer: JSON.parse(event.payload).transfer_id === transfer.id,
    })),
    consecutive_seqs: seqs.every((seq, i) => i === 0 || seq === seqs[i - 1] + 1),
    explant: explant && {
      current_count: explant.current_count,
      plantlet_count: explant.plantlet_count,
      updated_at_is_created_at: explant.updated_at === transfer.created_at,
    },
  };
}
