import type { Db } from '../../db/database.js';

/** Where a workspace's raw readings now start (retention removed those before); null = all kept. */
export async function findRawSince(db: Db, workspaceId: string): Promise<string | null> {
  const row = await db
    .selectFrom('sensor_retention')
    .select('raw_since')
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return row?.raw_since ?? null;
}
