// Reads back what a POST /plants wrote besides the plant (first stage, change event), so the
// bench can check that both servers do the same writes.
import Database from 'better-sqlite3';
import pg from 'pg';
import { mask } from './cases.mjs';

const STAGES_SQL = 'select * from "stages" where "entity_type" = \'plant\' and "entity_id" = ?';
const EVENTS_SQL = 'select * from "events" where "entity_type" = \'plant\' and "entity_id" = ?';

async function readRows(target, plantId) {
  if (target.dialect === 'sqlite') {
    const db = new Database(target.path, { readonly: true });
    try {
      return {
        stages: db.prepare(STAGES_SQL).all(plantId),
        events: db.prepare(EVENTS_SQL).all(plantId),
      };
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    const read = async (text) => (await client.query(text.replace('?', '$1'), [plantId])).rows;
    return { stages: await read(STAGES_SQL), events: await read(EVENTS_SQL) };
  } finally {
    await client.end();
  }
}

/** The rows a created plant brought along, with ids and clock readings replaced by checks. */
export async function writesOfCreatedPlant(target, plant) {
  const { stages, events } = await readRows(target, plant.id);
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
      payload: mask(JSON.parse(event.payload), 'id', 'created_at', 'updated_at'),
    })),
  };
}
