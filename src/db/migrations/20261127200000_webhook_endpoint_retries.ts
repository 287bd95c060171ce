import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time: typed Kysely<any> */

/**
 * Each endpoint's retry queue on its own: the due deliveries of one endpoint, by when
 * they are due. Retries are taken per endpoint, so an endpoint with thousands of
 * retries (its receiver down) does not hold up another endpoint's. Pending rows only:
 * a delivery delivered at its first attempt never enters it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('webhook_deliveries_endpoint_due')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'next_attempt_at'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_endpoint_due').execute();
}
