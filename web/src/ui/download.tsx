import { useState } from 'preact/hooks';
import { Notice } from './parts';
import { usePopup } from './popup';
import { strings } from './strings';
import { strings as client } from '../api/strings';

/** Hands the browser a file made or fetched here, as a download named `name`. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser the file before the address goes.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

type Query = Readonly<Record<string, string | number | boolean | undefined>>;

/** `path?query` of the values set in `query` (none empty), or `path` alone. */
function addressOf(path: string, query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined && value !== '') params.set(name, String(value));
  const search = params.toString();
  return search === '' ? path : `${path}?${search}`;
}

/**
 * "Download CSV" as a plain link: the operation's answer as the API's raw CSV, asked
 * by its `format=csv` parameter (a link cannot send `Accept: text/csv`), saved by
 * the browser as `file`.csv. `about` names what it downloads for screen readers.
 */
export function CsvLink(props: { path: string; query: Query; file: string; about: string }) {
  return (
    <a
      class="csv-link"
      href={addressOf(props.path, { ...props.query, format: 'csv' })}
      download={`${props.file}.csv`}
    >
      {strings.download.download}
      <span class="visually-hidden">: {props.about}</span>
    </a>
  );
}

/** The two forms of a list's CSV: for people in a spreadsheet, or the API's raw one. */
type Form = 'spreadsheet' | 'raw';

const ACCEPT: Readonly<Record<Form, string>> = {
  spreadsheet: 'text/csv; profile=spreadsheet',
  raw: 'text/csv',
};

/**
 * "Download CSV" for a list: every row matching `query` (the list's current
 * filters), not one page, in the form chosen: for a spreadsheet (names instead of
 * ids, the lab's local times, a column per custom field) or the API's raw one. The
 * API answers CSV when asked with `Accept: text/csv`, which a plain link cannot
 * send, so the file is fetched (with the session cookie, same origin) and handed to
 * the browser as a download; a refusal is shown in the API's words.
 */
export function DownloadCsv(props: {
  /** The list operation, e.g. `/api/v1/plants`. */
  path: string;
  query: Query;
  /** The file's name without `.csv`. */
  file: string;
}) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { open, setOpen, box } = usePopup();
  const words = strings.download;
  const download = async (form: Form) => {
    setOpen(false);
    setBusy(true);
    setFailure(null);
    try {
      const response = await fetch(addressOf(props.path, props.query), {
        headers: { accept: ACCEPT[form] },
        credentials: 'same-origin',
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => ({}))) as { error?: unknown };
        setFailure(typeof body.error === 'string' ? body.error : words.failed(response.status));
        return;
      }
      saveFile(
        await response.blob(),
        form === 'raw' ? `${props.file}-raw.csv` : `${props.file}.csv`,
      );
    } catch {
      setFailure(client.offline);
    } finally {
      setBusy(false);
    }
  };
  const menu = `download-${props.file}`;
  return (
    <div class="download" ref={box}>
      <button
        type="button"
        class="button"
        disabled={busy}
        aria-expanded={open}
        aria-controls={menu}
        onClick={() => setOpen(!open)}
      >
        {busy ? words.busy : words.download}
      </button>
      {open && (
        <ul class="download-menu" id={menu} aria-label={words.choose}>
          {(['spreadsheet', 'raw'] as const).map((form) => (
            <li key={form}>
              <button type="button" class="download-choice" onClick={() => void download(form)}>
                <span class="download-name">{words[form].name}</span>
                <span class="download-hint">{words[form].hint}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {failure && <Notice tone="bad">{failure}</Notice>}
    </div>
  );
}
