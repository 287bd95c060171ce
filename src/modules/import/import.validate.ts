import { Ajv, type ErrorObject } from 'ajv';
import { errors } from '../../kernel/errors.js';
import { addVitroFormats, formatProblem } from '../../kernel/formats.js';
import {
  addLowercaseUuids,
  describeValidationError,
  firstDuplicate,
  refuseDuplicate,
  withLowercaseUuids,
} from '../../kernel/validation.js';
import { checkCustomFields, checkStageList } from '../lab/index.js';
import { checkSopVersions } from '../sops/index.js';
import { ImportFileSchema, type ImportFile } from './import.schema.js';

// strictNumbers: NaN and ±Infinity (a parsed `1e400`) are not numbers here either.
const ajv = new Ajv({
  allErrors: false,
  strict: false,
  strictNumbers: true,
  allowUnionTypes: true,
  verbose: true,
});
addVitroFormats(ajv);
// Ids in any case, stored in lower case as the API stores them.
addLowercaseUuids(ajv);
const validateSchema = ajv.compile<ImportFile>(withLowercaseUuids(ImportFileSchema));

function pathOf(error: ErrorObject): string {
  return error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`))
    .join('');
}

/** The first schema problem as `path: problem`, e.g. `sops[0].versions[1].version: must be integer`. */
function describeSchemaError(error: ErrorObject): string {
  const path = pathOf(error);
  const where = (problem: string) => `${path === '' ? 'import file' : path}: ${problem}`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return where(`unknown key "${String(params.additionalProperty)}"`);
    case 'format':
      return where(formatProblem(String(params.format)));
    case 'pattern': {
      const description = (error.parentSchema as { description?: unknown } | undefined)
        ?.description;
      return where(typeof description === 'string' ? `must be ${description}` : 'is malformed');
    }
    case 'type':
      if (path === '') return 'import file: must be a JSON object';
      return describeValidationError([error], 'body', false);
    default:
      return describeValidationError([error], 'body', false);
  }
}

function checkStagesAndFields(file: ImportFile): void {
  for (const entity of ['plant', 'explant'] as const) {
    checkStageList(file.stages?.[entity] ?? [], (i) => `stages.${entity}[${i}]`);
  }
  checkCustomFields(file.custom_fields ?? [], (i) => `custom_fields[${i}]`);
}

function checkSops(file: ImportFile): void {
  const sops = file.sops ?? [];
  refuseDuplicate(
    sops,
    (i) => `sops[${i}].id`,
    (s) => s.id,
  );
  const versions = sops.flatMap((sop, s) =>
    (sop.versions ?? []).map((version, v) => ({
      id: version.id,
      path: `sops[${s}].versions[${v}]`,
    })),
  );
  const duplicateVersion = firstDuplicate(versions, (v) => v.id);
  if (duplicateVersion !== null) {
    const [later, earlier] = duplicateVersion;
    throw errors.validation(
      `${versions[later]!.path}.id: duplicates ${versions[earlier]!.path}.id`,
    );
  }
  for (const [s, sop] of sops.entries())
    checkSopVersions(sop.versions ?? [], `sops[${s}].versions`);
}

function checkRecords(file: ImportFile): void {
  const sections = [
    ['rooms', file.rooms],
    ['equipment', file.equipment],
    ['culture_line_prices', file.culture_line_prices],
    ['price_events', file.price_events],
    ['order_lines', file.order_lines],
  ] as const;
  for (const [name, records] of sections) {
    refuseDuplicate(
      records ?? [],
      (i) => `${name}[${i}].id`,
      (r: { id?: string }) => r.id,
    );
  }
  const labels = file.labels ?? [];
  refuseDuplicate(
    labels,
    (i) => `labels[${i}].barcode`,
    (l) => l.barcode,
  );
  for (const [i, label] of labels.entries()) {
    if (label.record_type !== 'container' && (label.contents ?? []).length > 0) {
      throw errors.validation(`labels[${i}].contents: only a container label has contents`);
    }
  }
}

/**
 * Checks a parsed import file against the schema and the rules a schema cannot
 * say (unique ids and keys, one effective version per SOP, select options);
 * throws a VALIDATION_ERROR naming the first problem with its path.
 */
export function validateImportFile(data: unknown): ImportFile {
  if (!validateSchema(data)) {
    const first = validateSchema.errors?.[0];
    throw errors.validation(
      first === undefined ? 'import file is invalid' : describeSchemaError(first),
    );
  }
  checkStagesAndFields(data);
  checkSops(data);
  checkRecords(data);
  return data;
}
