import { useMemo } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call, type Answer, type Schemas } from '../../api/client';
import { LAYOUTS, layoutOf, pagesOf, type LabelLayout } from './layouts';
import { qrMatrix } from './qr';
import { zplLabels } from './zpl';
import { useAnswer } from '../../ui/answer';
import { Notice, ScreenHeader } from '../../ui/parts';
import { useTitle } from '../../ui/title';
import { mediaBatchLabels } from './media-batch-labels';
import { strings } from './strings';

type LabelCode = Schemas['LabelCode'];
type Kind = 'plant' | 'explant' | 'media_batch';

/** One label as printed: its QR code (null: no code opens the record) and its lines of text. */
export interface PrintLabel {
  readonly id: string;
  readonly code: string | null;
  /** The first is its name, in bold. */
  readonly lines: readonly string[];
}

/** The ids an address names: `explant_ids=a,b`, `plant_ids=a,b` or `media_batch_ids=a,b`. */
function selectionOf(query: Record<string, string>): { kind: Kind; ids: string } | null {
  for (const kind of ['plant', 'explant', 'media_batch'] as const) {
    const ids = query[`${kind}_ids`];
    if (ids) return { kind, ids };
  }
  return null;
}

/** A plant's or explant's label: its name, stage and date. */
const recordLabel = (label: LabelCode): PrintLabel => ({
  id: label.record_id,
  code: label.code,
  lines: [label.name, label.stage ?? '', label.date ?? ''].filter((line) => line !== ''),
});

/** The labels of what the address names. */
async function labelsOf(selection: { kind: Kind; ids: string }): Promise<Answer<PrintLabel[]>> {
  if (selection.kind === 'media_batch') return mediaBatchLabels(selection.ids.split(','));
  const answer = await call(
    api.GET('/api/v1/labels/codes', {
      params: {
        query:
          selection.kind === 'plant'
            ? { plant_ids: selection.ids }
            : { explant_ids: selection.ids },
      },
    }),
  );
  return answer.ok ? { ...answer, data: answer.data.map(recordLabel) } : answer;
}

const BACK: Readonly<Record<Kind, string>> = {
  plant: '/plants',
  explant: '/explants',
  media_batch: '/media',
};

export default function LabelPrint() {
  useTitle(strings.print.title);
  const { query, path, route } = useLocation();
  const selection = selectionOf(query);
  const layout = layoutOf(query.layout);

  const answer = useAnswer<PrintLabel[]>(
    () =>
      selection === null
        ? Promise.resolve({ ok: true, data: [], nextCursor: null })
        : labelsOf(selection),
    [selection?.kind, selection?.ids],
  );
  const labels = answer?.ok ? answer.data : [];
  const pages = useMemo(() => pagesOf(labels, layout), [labels, layout]);
  const missing = labels.filter((label) => label.code === null).length;

  const choose = (key: string) => {
    const params = new URLSearchParams(query);
    params.set('layout', key);
    route(`${path}?${params.toString()}`, true);
  };

  const downloadZpl = () => {
    const text = zplLabels(
      labels.flatMap((label) =>
        label.code === null
          ? []
          : [
              {
                code: label.code,
                lines: [...label.lines, label.code],
                modules: qrMatrix(label.code).size,
              },
            ],
      ),
    );
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    link.download = 'vitro-labels.zpl';
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  };

  return (
    <>
      <div class="label-controls">
        <ScreenHeader title={strings.print.title} lead={strings.print.lead} />
        {selection === null && <Notice>{strings.print.nothing}</Notice>}
        {answer !== null && !answer.ok && <Notice tone="bad">{answer.failure.error}</Notice>}
        <div class="field">
          <label for="label-layout">{strings.print.layout}</label>
          <select
            id="label-layout"
            value={layout.key}
            onChange={(event) => choose(event.currentTarget.value)}
          >
            {LAYOUTS.map((option) => (
              <option key={option.key} value={option.key}>
                {option.name}
              </option>
            ))}
          </select>
        </div>
        <p role="status" class="muted">
          {answer === null
            ? strings.print.loading
            : strings.print.count(labels.length, pages.length, layout.key === 'roll')}
        </p>
        {missing > 0 && <Notice tone="bad">{strings.print.noCodes(missing)}</Notice>}
        <div class="actions">
          <button
            type="button"
            class="button button-primary"
            disabled={labels.length === 0}
            onClick={() => window.print()}
          >
            {strings.print.print}
          </button>
          <button type="button" class="button" disabled={labels.length === 0} onClick={downloadZpl}>
            {strings.print.zpl}
          </button>
          {selection !== null && (
            <a class="button button-quiet" href={BACK[selection.kind]}>
              {strings.print.back[selection.kind]}
            </a>
          )}
        </div>
        <p class="muted small">
          {layout.key === 'roll' ? strings.print.zplHint : strings.print.printHint}
        </p>
      </div>
      <div class="label-sheets" role="region" aria-label={strings.print.sheets} tabIndex={0}>
        {pages.map((page, index) => (
          <Sheet key={index} layout={layout} labels={page} number={index + 1} />
        ))}
      </div>
    </>
  );
}

const mm = (value: number) => `${value}mm`;

function Sheet(props: { layout: LabelLayout; labels: readonly PrintLabel[]; number: number }) {
  const { layout } = props;
  return (
    <section
      class={`label-sheet label-sheet-${layout.key}`}
      aria-label={strings.print.page(props.number)}
      style={{
        width: mm(layout.page.width),
        height: mm(layout.page.height),
        paddingTop: mm(layout.margin.top),
        paddingLeft: mm(layout.margin.left),
        gridTemplateColumns: `repeat(${layout.columns}, ${mm(layout.label.width)})`,
        gridAutoRows: mm(layout.label.height),
        columnGap: mm(layout.gap.x),
        rowGap: mm(layout.gap.y),
      }}
    >
      {props.labels.map((label) => (
        <Label key={label.id} layout={layout} label={label} />
      ))}
    </section>
  );
}

function Label(props: { layout: LabelLayout; label: PrintLabel }) {
  const { layout, label } = props;
  const side = layout.label.height - 2 * layout.padding;
  return (
    <article
      class="label"
      data-code={label.code ?? ''}
      data-record-id={label.id}
      style={{ padding: mm(layout.padding), gap: mm(layout.padding) }}
    >
      {label.code === null ? (
        <div class="label-nocode" style={{ width: mm(side), height: mm(side) }}>
          {strings.print.noCode}
        </div>
      ) : (
        <Qr code={label.code} side={side} />
      )}
      <div class="label-text">
        {label.lines.map((line, index) => (
          <p key={index} class={index === 0 ? 'label-name' : undefined}>
            {line}
          </p>
        ))}
        {label.code !== null && <p class="label-code">{label.code}</p>}
      </div>
    </article>
  );
}

/** The QR code as crisp vector modules with a quiet zone of two modules. */
function Qr(props: { code: string; side: number }) {
  const matrix = useMemo(() => qrMatrix(props.code), [props.code]);
  const quiet = 2;
  const box = matrix.size + 2 * quiet;
  return (
    <svg
      class="label-qr"
      role="img"
      aria-label={strings.print.qr(props.code)}
      viewBox={`${-quiet} ${-quiet} ${box} ${box}`}
      width={mm(props.side)}
      height={mm(props.side)}
      shape-rendering="crispEdges"
    >
      <rect x={-quiet} y={-quiet} width={box} height={box} fill="#fff" />
      <path d={matrix.path} fill="#000" />
    </svg>
  );
}
