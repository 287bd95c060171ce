import { mayChangeRecordOf } from '../../kernel/access.js';
import { AppError, type ErrorCode } from '../../kernel/errors.js';
import type { Principal } from '../../kernel/principal.js';

/** How a write on someone else's record is refused: its code and what it tried. */
export interface OwnershipRefusal {
  readonly code: Extract<
    ErrorCode,
    'PLANT_WRITE_FORBIDDEN' | 'EXPLANT_WRITE_FORBIDDEN' | 'STAGE_WRITE_FORBIDDEN'
  >;
  /** e.g. `editing it`, `moving it`. */
  readonly action: string;
}

/**
 * A record created by someone else may be changed by a manager or above only
 * (403 with the refusal's code; nothing is written).
 */
export function requireMayChange(
  principal: Principal,
  noun: string,
  createdBy: string | null,
  refusal: OwnershipRefusal,
): void {
  if (mayChangeRecordOf(principal, createdBy)) return;
  throw new AppError(
    refusal.code,
    `This ${noun} was created by someone else; ${refusal.action} needs the manager role or above`,
  );
}
