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
  /**
   * `claim` of many new records' external ids at once (an import): the keys, in
   * order; 409 for the first one another record holds or an earlier one repeats.
   */
  claimMany(
    db: Db,
    workspaceId: string,
    externalIds: readonly (string | null)[],
  ): Promise<(string | null)[]>;
  /** Runs a write that stores claimed keys (`externalId` its one, null for many), turning a lost race into the same 409. */
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
    async claimMany(db, workspaceId, externalIdsOf) {
      const keys = externalIdsOf.map((id) => (id === null ? null : id.toLowerCase()));
      const wanted = [...new Set(keys.filter((key): key is string => key !== null))];
      const taken = new Set<string>();
      for (let start = 0; start < wanted.length; start += 500) {
        const rows = await db
          .selectFrom(table)
          .select('external_id_key')
          .where('workspace_id', '=', workspaceId)
          .where('external_id_key', 'in', wanted.slice(start, start + 500))
          .execute();
        for (const row of rows) if (row.external_id_key !== null) taken.add(row.external_id_key);
      }
      const seen = new Set<string>();
      for (const [i, key] of keys.entries()) {
        if (key === null) continue;
        if (taken.has(key) || seen.has(key)) throw duplicate(externalIdsOf[i]!);
        seen.add(key);
      }
      return keys;
    },
    async guard(write, externalId) {
      try {
        return await write;
      } catch (error) {
        if (!isUniqueViolation(error, index)) throw error;
        // A write of many records names no one id (claimMany's race lost).
        throw externalId !== null
          ? duplicate(externalId)
          : errors.conflict(
              'DUPLICATE_ENTRY',
              `An external_id is already used by another ${noun} in this workspace`,
            );
      }
    },
  };
}
