/** The first entry of every archive: what it holds and how to check it. */
export const MANIFEST_PATH = 'manifest.json';
export const FORMAT = 'vitro-backup';
export const FORMAT_VERSION = 1;

/** One file of the archive, checked on restore before anything is put in place. */
export interface BackupPart {
  readonly path: string;
  readonly bytes: number;
  readonly sha256: string;
}

export interface Manifest {
  readonly format: typeof FORMAT;
  readonly format_version: number;
  readonly created_at: string;
  readonly vitro_version: string;
  readonly database: {
    readonly dialect: 'sqlite' | 'postgres';
    /** The last migration applied: the schema version. */
    readonly schema_version: string | null;
    readonly migrations: readonly string[];
  };
  /** Rows per table, counted in the same snapshot as the database part. */
  readonly records: Readonly<Record<string, number>>;
  readonly files: { readonly store: 'file' | 's3'; readonly count: number; readonly bytes: number };
  readonly parts: readonly BackupPart[];
  /** What the archive does not hold, in words a person can act on. */
  readonly not_covered: readonly string[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** A part's path: relative, `/`-separated, no empty, `.` or `..` segment. */
export function isSafePartPath(path: string): boolean {
  return (
    path.length > 0 &&
    path.length <= 1024 &&
    !path.startsWith('/') &&
    path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..')
  );
}

/**
 * Reads a manifest, refusing anything that is not one this code can restore from
 * (another format, a later format version, a malformed field).
 */
export function parseManifest(text: string): Manifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${MANIFEST_PATH} is not valid JSON`);
  }
  const bad = (what: string) => new Error(`${MANIFEST_PATH}: ${what}`);
  if (!isObject(value) || value.format !== FORMAT) throw bad('not a Vitro backup manifest');
  if (!isCount(value.format_version) || value.format_version > FORMAT_VERSION) {
    throw bad(
      `format version ${String(value.format_version)} is newer than this Vitro reads ` +
        `(${FORMAT_VERSION}); restore it with the Vitro that made it (${String(value.vitro_version)}) or a later one`,
    );
  }
  const database = value.database;
  if (
    !isObject(database) ||
    (database.dialect !== 'sqlite' && database.dialect !== 'postgres') ||
    !Array.isArray(database.migrations) ||
    !database.migrations.every((name) => typeof name === 'string')
  ) {
    throw bad('database: missing or malformed');
  }
  const parts = value.parts;
  if (
    !Array.isArray(parts) ||
    !parts.every(
      (part) =>
        isObject(part) &&
        typeof part.path === 'string' &&
        isSafePartPath(part.path) &&
        part.path !== MANIFEST_PATH &&
        isCount(part.bytes) &&
        typeof part.sha256 === 'string' &&
        /^[0-9a-f]{64}$/.test(part.sha256),
    )
  ) {
    throw bad('parts: missing or malformed');
  }
  const records = value.records;
  if (!isObject(records) || !Object.values(records).every(isCount)) {
    throw bad('records: missing or malformed');
  }
  return value as unknown as Manifest;
}
