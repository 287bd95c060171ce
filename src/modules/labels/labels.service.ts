import type { Static } from 'typebox';
import type { Db } from '../../db/database.js';
import { AppError, errors } from '../../kernel/errors.js';
import { findExplantByIdentity, getExplant } from '../explants/index.js';
import { findPlantByIdentity, getPlant } from '../plants/index.js';
import {
  findLabelByBarcode,
  listLabelContents,
  type LabelContentRow,
  type LabelRow,
} from './labels.repository.js';
import {
  LABEL_CONTENT_TYPES,
  type LabelContentItem,
  type LabelContentType,
  type LabelRecordType,
  type LabelResolution,
} from './labels.schemas.js';

export {
  LABEL_CONTENT_TYPES,
  LABEL_RECORD_TYPES,
  type LabelContentType,
  type LabelRecordType,
} from './labels.schemas.js';

export type LabelResolutionRecord = Static<typeof LabelResolution>;
type ContentItem = Static<typeof LabelContentItem>;

const API_PATHS: Readonly<Record<LabelContentType, string>> = {
  plant: 'plants',
  explant: 'explants',
};

/** `{PUBLIC_URL}/api/v1/plants/{id}`: where the API serves the record. */
const recordUrl = (publicUrl: string, type: LabelContentType, id: string) =>
  `${publicUrl}/api/v1/${API_PATHS[type]}/${id}`;

/**
 * The name of a plant (common name, else species) or an explant (its label), or
 * null when the workspace holds no such record (never had it, or it was deleted).
 */
async function nameOf(
  db: Db,
  workspaceId: string,
  type: LabelContentType,
  id: string,
): Promise<string | null> {
  try {
    if (type === 'plant') return (await getPlant(db, workspaceId, id)).name;
    const explant = await getExplant(db, workspaceId, id);
    return explant.label ?? explant.id;
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
    throw error;
  }
}

async function contentItem(
  db: Db,
  workspaceId: string,
  row: LabelContentRow,
  publicUrl: string,
): Promise<ContentItem> {
  const type = row.record_type as LabelContentType | null;
  const id = row.record_id;
  const name = type === null || id === null ? null : await nameOf(db, workspaceId, type, id);
  return {
    item_id: row.id,
    record_type: type,
    record_id: id,
    display_name: name ?? (type === null ? 'Unlinked item' : `Deleted ${type}`),
    url: name === null ? null : recordUrl(publicUrl, type!, id!),
  };
}

/**
 * What an imported label names: a container with its contents (in label order),
 * or a plant or explant under the label's display name; null when that plant or
 * explant no longer exists.
 */
async function resolveImported(
  db: Db,
  label: LabelRow,
  publicUrl: string,
): Promise<LabelResolutionRecord | null> {
  const found = {
    barcode: label.barcode,
    record_type: label.record_type as LabelRecordType,
    record_id: label.record_id,
    display_name: label.display_name,
  };
  if (found.record_type === 'container') {
    const contents: ContentItem[] = [];
    for (const row of await listLabelContents(db, label.workspace_id, label.id)) {
      contents.push(await contentItem(db, label.workspace_id, row, publicUrl));
    }
    const url = `${publicUrl}/api/v1/labels/resolve?barcode=${encodeURIComponent(label.barcode)}`;
    return { ...found, url, contents };
  }
  const type = found.record_type;
  if ((await nameOf(db, label.workspace_id, type, label.record_id)) === null) return null;
  return { ...found, url: recordUrl(publicUrl, type, label.record_id) };
}

/**
 * A plant whose external id is the code, else an explant found the way
 * `GET /explants?externalId=` finds one (external id, batch number, label);
 * all ignoring case.
 */
async function resolveOwnIdentifier(
  db: Db,
  workspaceId: string,
  barcode: string,
  publicUrl: string,
): Promise<LabelResolutionRecord | null> {
  const plant = await findPlantByIdentity(db, workspaceId, barcode);
  if (plant !== undefined) {
    return {
      barcode,
      record_type: 'plant',
      record_id: plant.id,
      display_name: plant.name,
      url: recordUrl(publicUrl, 'plant', plant.id),
    };
  }
  const explant = await findExplantByIdentity(db, workspaceId, barcode);
  if (explant === undefined) return resolveRecordId(db, workspaceId, barcode, publicUrl);
  return {
    barcode,
    record_type: 'explant',
    record_id: explant.id,
    display_name: explant.label ?? explant.id,
    url: recordUrl(publicUrl, 'explant', explant.id),
  };
}

const RECORD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Last, a plant's or explant's own id: the code the console prints on the label
 * of a record that has no other code of its own (GET /labels/codes).
 */
async function resolveRecordId(
  db: Db,
  workspaceId: string,
  barcode: string,
  publicUrl: string,
): Promise<LabelResolutionRecord | null> {
  if (!RECORD_ID.test(barcode)) return null;
  const id = barcode.toLowerCase();
  for (const type of LABEL_CONTENT_TYPES) {
    const name = await nameOf(db, workspaceId, type, id);
    if (name !== null) {
      return {
        barcode,
        record_type: type,
        record_id: id,
        display_name: name,
        url: recordUrl(publicUrl, type, id),
      };
    }
  }
  return null;
}

/**
 * Resolves a label code (decision 8): an imported label with exactly this
 * barcode first, then a plant's or explant's own identifier ignoring case, then
 * a plant's or explant's id; no
 * match is 404. Reads only: resolving leaves no trace.
 */
export async function resolveLabel(
  db: Db,
  workspaceId: string,
  barcode: string,
  publicUrl: string,
): Promise<LabelResolutionRecord> {
  const label = await findLabelByBarcode(db, workspaceId, barcode);
  const imported = label === undefined ? null : await resolveImported(db, label, publicUrl);
  const found = imported ?? (await resolveOwnIdentifier(db, workspaceId, barcode, publicUrl));
  if (found === null) throw errors.notFound('Label');
  return found;
}
