import { strings as client } from '../../api/strings';
import type { Schemas } from '../../api/client';

export type ImportResult = Schemas['ImportResult'];
export type ImportKind = ImportResult['kind'];

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The Content-Type a picked file goes with, by its name first: a CSV saved on
 * Windows often comes as `application/vnd.ms-excel`. Anything else goes as the
 * browser typed it, and the API says what it takes.
 */
export function mediaTypeOf(file: File): string {
  const name = file.name.toLowerCase();
  if (/\.(csv|tsv|txt)$/.test(name)) return 'text/csv';
  if (name.endsWith('.xlsx')) return XLSX;
  return file.type === '' ? 'application/octet-stream' : file.type;
}

/** What the picker offers. */
export const ACCEPTED = `.csv,.xlsx,text/csv,${XLSX}`;

/** The API's answer to a file: the rows' outcomes, and the refusal when it refused. */
export interface Sent {
  /** Every row's outcome: on success, and with a refusal over wrong rows (`details`). */
  readonly result: ImportResult | null;
  /** The refusal in the API's words; null when the file was taken. */
  readonly error: string | null;
}

/**
 * Sends a spreadsheet to `POST /imports`, telling `onProgress` how much of it has
 * gone (0 to 1; null once it is all sent and the server checks its rows). A
 * request with a progress of its upload is XMLHttpRequest's, not fetch's; the
 * session cookie goes with it (same origin), and so does the browser's Origin.
 */
export function sendImport(options: {
  kind: ImportKind;
  file: File;
  dryRun: boolean;
  idempotencyKey: string | null;
  onProgress: (sent: number | null) => void;
}): Promise<Sent> {
  const { kind, file } = options;
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    const query = `kind=${kind}${options.dryRun ? '&dry_run=true' : ''}`;
    xhr.open('POST', `/api/v1/imports?${query}`);
    xhr.setRequestHeader('content-type', mediaTypeOf(file));
    xhr.setRequestHeader('accept', 'application/json');
    if (options.idempotencyKey !== null)
      xhr.setRequestHeader('idempotency-key', options.idempotencyKey);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress(event.loaded / event.total);
    };
    xhr.upload.onload = () => options.onProgress(null);
    xhr.onerror = () => resolve({ result: null, error: client.offline });
    xhr.onload = () => {
      let body: { data?: ImportResult; error?: unknown; details?: unknown } = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // No JSON (a proxy's page): said by the status below.
      }
      if (xhr.status >= 200 && xhr.status < 300 && body.data !== undefined) {
        resolve({ result: body.data, error: null });
        return;
      }
      const details = body.details as ImportResult | undefined;
      resolve({
        result: details !== undefined && Array.isArray(details.rows) ? details : null,
        error:
          typeof body.error === 'string' ? body.error : client.answered(xhr.status, xhr.statusText),
      });
    };
    xhr.send(file);
  });
}
