import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { newIdempotencyKey } from '../../api/client';
import { useSignedIn } from '../../api/session';
import { recordHref } from '../../ui/links';
import { Chip, Fact, Notice, ScreenHeader, type Tone } from '../../ui/parts';
import { BackLink } from '../../ui/record-screen';
import { useTitle } from '../../ui/title';
import { downloadSample } from './sample';
import { ACCEPTED, sendImport, type ImportResult, type Sent } from './send';
import { strings } from './strings';

/** The rows shown of a file beside its wrong ones: a screenful, never 10,000. */
const FIRST_ROWS = 50;

type Row = ImportResult['rows'][number];
type Kind = 'plants' | 'explants';

const KINDS: Readonly<
  Record<Kind, { scope: string; list: string; record: keyof typeof recordHref }>
> = {
  plants: { scope: 'write:plants', list: '/plants', record: 'plant' },
  explants: { scope: 'write:explants', list: '/explants', record: 'explant' },
};

const TONE: Readonly<Record<Row['status'], Tone>> = {
  created: 'ok',
  updated: 'info',
  unchanged: 'off',
  failed: 'bad',
};

type Step =
  | { readonly kind: 'pick' }
  | {
      readonly kind: 'sending';
      readonly file: File;
      readonly dryRun: boolean;
      readonly sent: number | null;
    }
  | {
      readonly kind: 'checked';
      readonly file: File;
      readonly answer: Sent;
      /** Why the import itself did not go through (no answer, a refusal without rows). */
      readonly failed?: string;
    }
  | { readonly kind: 'imported'; readonly file: File; readonly result: ImportResult };

/**
 * Importing a lab's spreadsheet of plants or explants (`/plants/import`,
 * `/explants/import`): the file picked is checked at once (`dry_run=true`) and
 * what importing would do is shown, every wrong row with its column and the API's
 * words; then Import sends it again to be written, all rows or none, with its own
 * Idempotency-Key (kept until it succeeds, a new one for another file). The
 * upload's progress shows for a big file; the result links to the records.
 */
export default function Import() {
  const { path } = useLocation();
  const kind: Kind = path.startsWith('/explants') ? 'explants' : 'plants';
  const words = strings[kind];
  useTitle(words.title);
  const { can } = useSignedIn();
  const allowed = can(KINDS[kind].scope);
  const [step, setStep] = useState<Step>({ kind: 'pick' });
  const picker = useRef<HTMLInputElement>(null);
  // The import's Idempotency-Key, for this file (picked again unchanged: the same one).
  const held = useRef<{ file: string; key: string } | null>(null);
  const checked = useRef<Sent | null>(null);

  const send = async (file: File, dryRun: boolean) => {
    setStep({ kind: 'sending', file, dryRun, sent: 0 });
    const name = `${file.name}\u0000${file.size}\u0000${file.lastModified}`;
    if (held.current?.file !== name) held.current = { file: name, key: newIdempotencyKey() };
    const answer = await sendImport({
      kind,
      file,
      dryRun,
      idempotencyKey: dryRun ? null : held.current.key,
      onProgress: (sent) => setStep({ kind: 'sending', file, dryRun, sent }),
    });
    if (dryRun) {
      checked.current = answer;
      setStep({ kind: 'checked', file, answer });
    } else if (answer.error === null && answer.result !== null) {
      held.current = null;
      setStep({ kind: 'imported', file, result: answer.result });
    } else if (answer.result !== null) {
      // Rows the API refuses now (the lab changed since the check): shown as a check's.
      setStep({ kind: 'checked', file, answer });
    } else {
      // No answer, or a refusal of the whole file: the check stands, Import again is offered.
      setStep({ kind: 'checked', file, answer: checked.current ?? answer, failed: answer.error! });
    }
  };

  const again = () => {
    held.current = null;
    setStep({ kind: 'pick' });
    if (picker.current) {
      picker.current.value = '';
      picker.current.focus();
    }
  };

  return (
    <>
      <BackLink href={KINDS[kind].list} label={words.back} />
      <ScreenHeader title={words.title} lead={strings.lead} />
      {!allowed ? (
        <Notice>{strings.notAllowed}</Notice>
      ) : (
        <>
          <Columns kind={kind} />
          <div class="field import-file">
            <label for="import-file">{strings.file}</label>
            <p class="field-hint" id="import-file-hint">
              {strings.fileHint}
            </p>
            <input
              id="import-file"
              ref={picker}
              type="file"
              accept={ACCEPTED}
              aria-describedby="import-file-hint"
              disabled={step.kind === 'sending'}
              onChange={(event) => {
                const file = event.currentTarget.files?.[0];
                if (file !== undefined) void send(file, true);
              }}
            />
          </div>
          {step.kind === 'sending' && <Progress sent={step.sent} dryRun={step.dryRun} />}
          {step.kind === 'checked' && (
            <Checked
              kind={kind}
              file={step.file}
              answer={step.answer}
              failed={step.failed ?? null}
              onImport={() => void send(step.file, false)}
            />
          )}
          {step.kind === 'imported' && (
            <Imported kind={kind} result={step.result} onAgain={again} />
          )}
        </>
      )}
    </>
  );
}

/** What a file of this kind holds: its columns, and a sample to start from. */
function Columns(props: { kind: Kind }) {
  const [busy, setBusy] = useState(false);
  return (
    <details class="more import-columns">
      <summary>{strings.columnsTitle}</summary>
      <p class="muted">{strings.columnsLead}</p>
      <dl class="facts">
        {strings.columns[props.kind].map(([name, hint]) => (
          <Fact key={name} term={name}>
            {hint === '' ? strings.none : hint}
          </Fact>
        ))}
      </dl>
      <p class="muted">{strings.columns.custom}</p>
      <button
        type="button"
        class="button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void downloadSample(props.kind).finally(() => setBusy(false));
        }}
      >
        {strings.sample}
      </button>
      <p class="muted small">{strings.sampleHint}</p>
    </details>
  );
}

/** The file on its way: how much is sent, then the server checking or writing its rows. */
function Progress(props: { sent: number | null; dryRun: boolean }) {
  const percent = props.sent === null ? null : Math.round(props.sent * 100);
  const text =
    percent !== null && percent < 100
      ? strings.sending(percent)
      : props.dryRun
        ? strings.checking
        : strings.importing;
  return (
    <div class="import-progress" role="status">
      <p>{text}</p>
      <progress
        aria-label={strings.progress}
        max={100}
        value={percent !== null && percent < 100 ? percent : undefined}
      />
    </div>
  );
}

/** What importing the file would do (or why it cannot be), and Import when every row is right. */
function Checked(props: {
  kind: Kind;
  file: File;
  answer: Sent;
  failed: string | null;
  onImport: () => void;
}) {
  const { result, error } = props.answer;
  const wrong = result?.counts.failed ?? 0;
  return (
    <section class="import-result" aria-label={strings.checked(props.file.name)}>
      <h2>{strings.checked(props.file.name)}</h2>
      {error !== null && result === null && (
        <div role="alert" class="notice notice-bad">
          <p>
            <strong>{strings.fileWrong}</strong>
          </p>
          <p>{error}</p>
        </div>
      )}
      {result !== null && (
        <>
          <p>{strings.counts(result.counts)}</p>
          {wrong > 0 && <Notice tone="bad">{strings.wrong(wrong)}</Notice>}
          {wrong === 0 && error !== null && <Notice tone="bad">{error}</Notice>}
          {wrong > 0 && <WrongRows rows={result.rows.filter((row) => row.status === 'failed')} />}
          <FirstRows kind={props.kind} result={result} done={false} />
          {props.failed !== null && <Notice tone="bad">{strings.notImported(props.failed)}</Notice>}
          {wrong === 0 && error === null && result.counts.rows > 0 && (
            <div class="actions">
              <button type="button" class="button button-primary" onClick={props.onImport}>
                {strings.importAll(result.counts.rows)}
              </button>
              <p class="muted small">{strings.importHint}</p>
            </div>
          )}
        </>
      )}
    </section>
  );
}

function Imported(props: { kind: Kind; result: ImportResult; onAgain: () => void }) {
  const words = strings[props.kind];
  return (
    <section class="import-result" aria-label={strings.countsDone(props.result.counts)}>
      <p role="status" class="notice notice-info">
        {strings.countsDone(props.result.counts)}
      </p>
      <FirstRows kind={props.kind} result={props.result} done />
      <div class="actions">
        <a class="button button-primary" href={KINDS[props.kind].list}>
          {words.list}
        </a>
        <button type="button" class="button" onClick={props.onAgain}>
          {strings.another}
        </button>
      </div>
    </section>
  );
}

/** A table of rows of the file, under its title (a region that scrolls on a phone). */
function RowsTable(props: {
  title: string;
  heads: readonly string[];
  rows: readonly Row[];
  cells: (row: Row) => ComponentChildren;
}) {
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label={props.title}>
      <table class="raw-table import-table">
        <caption>{props.title}</caption>
        <thead>
          <tr>
            {props.heads.map((head) => (
              <th scope="col" key={head}>
                {head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={row.row}>
              <td>{row.row}</td>
              {props.cells(row)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Every wrong row: its number in the spreadsheet, the column, and the API's words. */
function WrongRows(props: { rows: readonly Row[] }) {
  const h = strings.head;
  return (
    <RowsTable
      title={strings.errorsTitle(props.rows.length)}
      heads={[h.row, h.column, h.error]}
      rows={props.rows}
      cells={(row) => (
        <>
          <td>{row.column ?? strings.none}</td>
          <td class="import-error">{row.error}</td>
        </>
      )}
    />
  );
}

/** The first rows of the file with what happens to each, linking to records that exist. */
function FirstRows(props: { kind: Kind; result: ImportResult; done: boolean }) {
  const rows = props.result.rows.slice(0, FIRST_ROWS);
  const h = strings.head;
  const outcome = props.done ? strings.outcomeDone : strings.outcome;
  const href = recordHref[KINDS[props.kind].record];
  return (
    <RowsTable
      title={strings.firstTitle(rows.length, props.result.rows.length)}
      heads={[h.row, h.outcome, h.record]}
      rows={rows}
      cells={(row) => (
        <>
          <td>
            <Chip tone={TONE[row.status]}>{outcome[row.status]}</Chip>
          </td>
          <td class="import-error">
            {row.id !== null ? (
              <a href={href(row.id)}>
                {strings.open}
                <span class="visually-hidden"> {strings.ofRow(row.row)}</span>
              </a>
            ) : (
              (row.error ?? strings.none)
            )}
          </td>
        </>
      )}
    />
  );
}
