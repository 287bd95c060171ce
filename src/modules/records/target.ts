import { errors } from '../../kernel/errors.js';
import type { EntityType } from '../events/index.js';

/**
 * The plant or explant a request names: exactly one of `plant_id` and `explant_id`
 * (stages, transfers, contaminations).
 */
export function targetOf(input: { plant_id?: string; explant_id?: string }): {
  entity: EntityType;
  id: string;
} {
  if ((input.plant_id === undefined) === (input.explant_id === undefined)) {
    throw errors.validation('Send exactly one of plant_id and explant_id');
  }
  return input.plant_id !== undefined
    ? { entity: 'plant', id: input.plant_id }
    : { entity: 'explant', id: input.explant_id! };
}
