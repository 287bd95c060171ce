import type { Static } from 'typebox';
import type { Db } from '../../db/database.js';
import { errors } from '../../kernel/errors.js';
import { findExplantsByIdentity, getExplants } from '../explants/index.js';
import { mediaBatchNames } from '../media-batches/index.js';
import { findPlantsByIdentity, getPlants } from '../plants/index.js';
import {
  findLabelsByBarcodes,
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
  type LabelResolutionType,
} from './labels.schemas.js';

export {
  LABEL_CONTENT_TYPES,
  LABEL_RECORD_TYPES,
  type LabelContentType,
  type LabelRecordType,
} from './labels.schemas.js';

export type LabelResolutionRecord = Static<typeof LabelResolution>;
type ContentItem = Static<typeof LabelContentItem>;

/** A record a code may name: a container's item, or a media batch (by its id). */
type RecordKind = Exclude<LabelResolutionType, 'container'>;

/** A record's own id resolves to it, in this order (a plant first). */
const ID_KINDS: readonly RecordKind[] = [...LABEL_CONTENT_TYPES, 'media_batch'];

const API_PATHS: Readonly<Record<RecordKind, string>> = {
  plant: 'plants',
  explant: 'explants',
  media_batch: 'media-batches',
};

/** `{PUBLIC_URL}/api/v1/plants/{id}`: where the API serves the record. */
const recordUrl = (publicUrl: string, type: RecordKind, id: string) =>
  `${publicUrl}/api/v1/${API_PATHS[type]}/${id}`;

interface RecordRef {
  readonly type: RecordKind;
  readonly id: string;
}

const refKey = (type: RecordKind, id: string) => `${type}:${id}`;

/**
 * The names of some plants (common name, else species), explants (their label,
 * else id) and media batches (recipe and day), by `type:id`; a record the
 * workspace does not hold (never had it, or it was deleted) is absent. One query
 * per type.
 */
async function namesOf(
  db: Db,
  workspaceId: string,
  refs: readonly RecordRef[],
): Promise<Map<string, string>> {
  const idsOf = (type: RecordKind) => refs.filter((ref) => ref.type === type).map((ref) => ref.id);
  const names = new Map<string, string>();
  for (const plant of (await getPlants(db, workspaceId, idsOf('plant'))).values()) {
    names.set(refKey('plant', plant.id), plant.name);
  }
  for (const explant of (await getExplants(db, workspaceId, idsOf('explant'))).values()) {
    names.set(refKey('explant', explant.id), explant.label ?? explant.id);
  }
  for (const [id, name] of await mediaBatchNames(db, workspaceId, idsOf('media_batch'))) {
    names.set(refKey('media_batch', id), name);
  }
  return names;
}

/** What a code names, before it is presented. */
export type LabelTarget =
  /** An imported label: a container, or a plant or explant that still exists. */
  | { readonly via: 'label'; readonly label: LabelRow }
  /** A plant's or explant's own identifier, or its id (a media batch's too). */
  | {
      readonly via: 'identifier' | 'id';
      readonly type: RecordKind;
      readonly id: string;
      readonly name: string;
    };

/** The record a target names. */
export const targetRecord = (target: LabelTarget): { type: LabelResolutionType; id: string } =>
  target.via === 'label'
    ? { type: target.label.record_type as LabelRecordType, id: target.label.record_id }
    : { type: target.type, id: target.id };

const RECORD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What each code names (decision 8), for many codes in a few queries: an
 * imported label with exactly this barcode first (unless it names a plant or
 * explant that no longer exists), then a plant's external id, then an
 * explant's external id, batch number or label (the newest), all ignoring
 * case, then a plant's, explant's or media batch's id. A code that names
 * nothing is absent.
 */
export async function resolveLabelTargets(
  db: Db,
  workspaceId: string,
  codes: readonly string[],
): Promise<Map<string, LabelTarget>> {
  const targets = new Map<string, LabelTarget>();
  const unresolved = () => codes.filter((code) => !targets.has(code));

  const imported = await findLabelsByBarcodes(db, workspaceId, codes);
  const named = await namesOf(
    db,
    workspaceId,
    imported
      .filter((label) => label.record_type !== 'container')
      .map((label) => ({ type: label.record_type as LabelContentType, id: label.record_id })),
  );
  for (const label of imported) {
    const type = label.record_type as LabelRecordType;
    if (type === 'container' || named.has(refKey(type, label.record_id))) {
      targets.set(label.barcode, { via: 'label', label });
    }
  }

  const plants = await findPlantsByIdentity(db, workspaceId, unresolved());
  for (const code of unresolved()) {
    const plant = plants.get(code.toLowerCase());
    if (plant !== undefined) {
      targets.set(code, { via: 'identifier', type: 'plant', id: plant.id, name: plant.name });
    }
  }
  const explants = await findExplantsByIdentity(db, workspaceId, unresolved());
  for (const code of unresolved()) {
    const explant = explants.get(code.toLowerCase());
    if (explant !== undefined) {
      const name = explant.label ?? explant.id;
      targets.set(code, { via: 'identifier', type: 'explant', id: explant.id, name });
    }
  }

  // Last, a record's own id: what the console prints on the label of a record
  // with no other code of its own (GET /labels/codes), and on a media batch's label.
  const ids = unresolved().filter((code) => RECORD_ID.test(code));
  const names = await namesOf(
    db,
    workspaceId,
    ID_KINDS.flatMap((type) => ids.map((code) => ({ type, id: code.toLowerCase() }))),
  );
  for (const code of ids) {
    const id = code.toLowerCase();
    for (const type of ID_KINDS) {
      const name = names.get(refKey(type, id));
      if (name !== undefined) {
        targets.set(code, { via: 'id', type, id, name });
        break;
      }
    }
  }
  return targets;
}

/** A container's contents in label order, each with its record's name and address. */
async function contentsOf(db: Db, label: LabelRow, publicUrl: string): Promise<ContentItem[]> {
  const rows = await listLabelContents(db, label.workspace_id, label.id);
  const linked = (row: LabelContentRow) => row.record_type !== null && row.record_id !== null;
  const names = await namesOf(
    db,
    label.workspace_id,
    rows
      .filter(linked)
      .map((row) => ({ type: row.record_type as LabelContentType, id: row.record_id! })),
  );
  return rows.map((row) => {
    const type = row.record_type as LabelContentType | null;
    const id = row.record_id;
    const name = type === null || id === null ? undefined : names.get(refKey(type, id));
    return {
      item_id: row.id,
      record_type: type,
      record_id: id,
      display_name: name ?? (type === null ? 'Unlinked item' : `Deleted ${type}`),
      url: name === undefined ? null : recordUrl(publicUrl, type!, id!),
    };
  });
}

/**
 * Resolves a label code (`resolveLabelTargets`): a container with its contents
 * (in label order), or a plant or explant under the label's display name, its
 * name otherwise, or a media batch by its id; no match is 404. Reads only: resolving leaves no trace.
 */
export async function resolveLabel(
  db: Db,
  workspaceId: string,
  barcode: string,
  publicUrl: string,
): Promise<LabelResolutionRecord> {
  const target = (await resolveLabelTargets(db, workspaceId, [barcode])).get(barcode);
  if (target === undefined) throw errors.notFound('Label');
  if (target.via !== 'label') {
    return {
      barcode,
      record_type: target.type,
      record_id: target.id,
      display_name: target.name,
      url: recordUrl(publicUrl, target.type, target.id),
    };
  }
  const { label } = target;
  const found = {
    barcode: label.barcode,
    record_type: label.record_type as LabelRecordType,
    record_id: label.record_id,
    display_name: label.display_name,
  };
  if (found.record_type === 'container') {
    const url = `${publicUrl}/api/v1/labels/resolve?barcode=${encodeURIComponent(label.barcode)}`;
    return { ...found, url, contents: await contentsOf(db, label, publicUrl) };
  }
  return { ...found, url: recordUrl(publicUrl, found.record_type, label.record_id) };
}
