import { Migrator } from 'kysely';
import type { Db } from './database.js';
import { migrations } from './migrations/index.js';

export interface MigrationReport {
  applied: string[];
}

/**
 * Brings the schema up to date; running it again is a no-op.
 *
 * Branches land in any order, so a migration may reach main after one whose name
 * sorts after it (`20261123130000_device_data` landed after `…140000` to `…170000`).
 * A fresh database runs every migration in name order; a database of an earlier
 * release runs the ones it lacks, in name order, after those it has
 * (`allowUnorderedMigrations`; Kysely's default refuses to start instead). Both
 * end in the same schema because a migration never builds on one that was not on
 * main when it was written: `test/kernel/migration-upgrades.test.ts` upgrades every
 * earlier state of `migrations/index.ts` (the landing order) and compares.
 */
export async function migrateToLatest(db: Db): Promise<MigrationReport> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error');
    const reason = error instanceof Error ? error.message : JSON.stringify(error);
    throw new Error(
      failed
        ? `migration ${failed.migrationName} failed: ${reason}`
        : `migration failed: ${reason}`,
    );
  }
  return {
    applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName),
  };
}
