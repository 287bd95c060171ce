import { Migrator } from 'kysely';
import type { Db } from './database.js';
import { migrations } from './migrations/index.js';

export interface MigrationReport {
  applied: string[];
}

/** Brings the schema up to date; running it again is a no-op. */
export async function migrateToLatest(db: Db): Promise<MigrationReport> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
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
