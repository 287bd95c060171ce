import { useState } from 'preact/hooks';
import { Notice } from './parts';
import { strings } from './strings';
import { strings as client } from '../api/strings';

/**
 * "Download CSV" for a list: every row matching `query` (the list's current
 * filters), not one page, as the API's own CSV answer. The API answers CSV when
 * asked with `Accept: text/csv`, which a plain link cannot send, so the file is
 * fetched (with the session cookie, same origin) and handed to the browser as a
 * download; a refusal is shown in the API's words.
 */
export function DownloadCsv(props: {
  /** The list operation, e.g. `/api/v1/plants`. */
  path: string;
  query: Readonly<Record<string, string | number | boolean | undefined>>;
  /** The file's name without `.csv`. */
  file: string;
}) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(props.query))
        if (value !== undefined && value !== '') params.set(name, String(value));
      const search = params.toString();
      const response = await fetch(search === '' ? props.path : `${props.path}?${search}`, {
        headers: { accept: 'text/csv' },
        credentials: 'same-origin',
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => ({}))) as { error?: unknown };
        setFailure(
          typeof body.error === 'string' ? body.error : strings.download.failed(response.status),
        );
        return;
      }
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = `${props.file}.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      // Give the browser the file before the address goes.
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch {
      setFailure(client.offline);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="download">
      <button type="button" class="button" disabled={busy} onClick={() => void download()}>
        {busy ? strings.download.busy : strings.download.download}
      </button>
      {failure && <Notice tone="bad">{failure}</Notice>}
    </div>
  );
}
