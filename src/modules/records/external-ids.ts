import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import { errors } from '../../kernel/errors.js';

/** Tables whose rows carry an external id, kept lower-cased in `external_id_key` under a unique index. */
type ExternalIdTable = 'plants' | 'explants';

/**
 * A record kind's external ids: unique per workspace ignoring case, deleted
 * records included (409 DUPLICATE_ENTRY). The check before the write gives the
 * answer; the unique index `<table>_external_id` settles a race between two
 * writers, which gets the same answer.
 */
export interface ExternalIds {
  /** The key to store for `externalId` (null for none); 409 when another record holds it. */
  claim(
    db: Db,
    workspaceId: string,
    externalId: string | null,
    exceptId: string | null,
  ): Promise<string | null>;
  /** Runs a write that stores a claimed key, turning a lost race into the same 409. */
  guard<T>(write: Promise<T>, externalId: string | null): Promise<T>;
}

export function externalIds(table: ExternalIdTable, noun: string): ExternalIds {
  const index = `${table}_external_id`;
  const duplicate = (externalId: string) =>
    errors.conflict(
      'DUPLICATE_ENTRY',
      `external_id "${externalId}" is already used by another ${noun} in this workspace`,
    );
  return {
    async claim(db, workspaceId, externalId, exceptId) {
      if (externalId === null) return null;
      const key = externalId.toLowerCase();
      let query = db
        .selectFrom(table)
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .where('external_id_key', '=', key);
      if (exceptId !== null) query = query.where('id', '!=', exceptId);
      if ((await query.executeTakeFirst()) !== undefined) throw duplicate(externalId);
      return key;
    },
    async guard(write, externalId) {
      try {
        return await write;
      } catch (error) {
        if (externalId !== null && isUniqueViolation(error, index)) throw duplicate(externalId);
        throw error;
      }
    },
  };
}
