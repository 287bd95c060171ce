import { LABEL_CODES_PATH, RESOLVE_PATH } from './cache-keys.js';
import type { SavedLabel } from './cache-store.js';

type Kind = SavedLabel['recordType'];

/** Where the API reads each kind of record a label opens. */
const PATHS: Readonly<Record<Kind, string>> = {
  plant: 'plants',
  explant: 'explants',
  media_batch: 'media-batches',
};

const RECORD = /^\/api\/v1\/(plants|explants|media-batches)\/([0-9a-fA-F-]{36})$/;

const isKind = (value: unknown): value is Kind => typeof value === 'string' && value in PATHS;

/** The API address of a record's read, the key its answer is kept under. */
export const recordPath = (kind: Kind, id: string) => `/api/v1/${PATHS[kind]}/${id}`;

/** The plant, explant or media batch a read is of, when it is a record's read. */
export function recordOf(url: URL): { kind: Kind; id: string } | null {
  const found = RECORD.exec(url.pathname);
  if (found === null) return null;
  const kind = (Object.keys(PATHS) as Kind[]).find((k) => PATHS[k] === found[1])!;
  return { kind, id: found[2]! };
}

interface Fields {
  id?: unknown;
  name?: unknown;
  label?: unknown;
  external_id?: unknown;
  batch_number?: unknown;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

/**
 * The label codes an answer tells: a plant's or explant's read (its id, external id,
 * batch number and label, the identifiers GET /labels/resolve matches), a label
 * resolved to a record, the codes of a label sheet.
 */
export function labelsOf(url: URL, body: string, savedAt: number): SavedLabel[] {
  const data = (JSON.parse(body) as { data?: unknown }).data;
  const label = (
    code: unknown,
    recordType: unknown,
    recordId: unknown,
    name: unknown,
  ): SavedLabel[] => {
    const c = text(code);
    const id = text(recordId);
    if (c === null || id === null || !isKind(recordType)) {
      return [];
    }
    const displayName = text(name) ?? c;
    return [{ code: c.toLowerCase(), recordType, recordId: id, displayName, savedAt }];
  };
  const record = recordOf(url);
  if (record !== null) {
    const { kind } = record;
    const fields = data as Fields;
    // A media batch's label carries its id alone.
    if (kind === 'media_batch') return label(fields.id, kind, fields.id, fields.id);
    const name = kind === 'plant' ? fields.name : (fields.label ?? fields.id);
    return [fields.id, fields.external_id, fields.batch_number, fields.label].flatMap((code) =>
      label(code, kind, fields.id, name),
    );
  }
  if (url.pathname === RESOLVE_PATH) {
    const found = data as { record_type?: unknown; record_id?: unknown; display_name?: unknown };
    return label(
      url.searchParams.get('barcode'),
      found.record_type,
      found.record_id,
      found.display_name,
    );
  }
  if (url.pathname === LABEL_CODES_PATH && Array.isArray(data)) {
    return (
      data as { code?: unknown; record_type?: unknown; record_id?: unknown; name?: unknown }[]
    ).flatMap((item) => label(item.code, item.record_type, item.record_id, item.name));
  }
  return [];
}

/** GET /labels/resolve's answer for a kept label, as the API gives it for a plant, explant or media batch. */
export function resolution(barcode: string, found: SavedLabel, origin: string): string {
  return JSON.stringify({
    ok: true,
    data: {
      barcode,
      record_type: found.recordType,
      record_id: found.recordId,
      display_name: found.displayName,
      url: origin + recordPath(found.recordType, found.recordId),
    },
  });
}
