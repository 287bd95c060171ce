import type { Db } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import type { RecordLookup } from '../../kernel/record-lookup.js';
import { plantsOfSpecies, type ExplantScope } from './insights.repository.js';

/**
 * The explants an insight reads: one plant's (a plant of another lab answers 404, as
 * an unknown one), a species' plants', or (neither sent) the whole lab's.
 */
export async function scopeOf(
  db: Db,
  workspaceId: string,
  query: { plant_id?: string; species?: string },
  records: RecordLookup,
): Promise<ExplantScope> {
  if (query.plant_id !== undefined && query.species !== undefined) {
    throw errors.validation('species: send plant_id or species, not both');
  }
  if (query.plant_id !== undefined) {
    if ((await records.find(db, 'plant', workspaceId, query.plant_id)) === undefined) {
      throw errors.notFound('Plant');
    }
    return { plantIds: [query.plant_id] };
  }
  if (query.species !== undefined) {
    return { plantIds: await plantsOfSpecies(db, workspaceId, query.species) };
  }
  return { plantIds: null };
}
