import type { Static } from 'typebox';
import type { Db } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import type { Page, PageRequest } from '../../db/pages.js';
import { alerts, listAlertPage } from './alerts.repository.js';
import type { AlertQuery, AlertRecord } from './alerts.schemas.js';
import { presentAlert } from './episodes.js';

/** The workspace's alerts, most recently opened first; `status=open` for those open now. */
export async function listAlerts(
  db: Db,
  workspaceId: string,
  query: Static<typeof AlertQuery>,
  page: PageRequest,
): Promise<Page<AlertRecord>> {
  const { items, nextKey } = await listAlertPage(
    db,
    workspaceId,
    {
      ...(query.status === undefined ? {} : { status: query.status }),
      ...(query.rule_id === undefined ? {} : { ruleId: query.rule_id }),
    },
    page,
  );
  return { items: items.map(presentAlert), nextKey };
}

export async function getAlert(db: Db, workspaceId: string, id: string): Promise<AlertRecord> {
  const row = await alerts.find(db, workspaceId, id);
  if (row === undefined) throw errors.notFound('Alert');
  return presentAlert(row);
}
