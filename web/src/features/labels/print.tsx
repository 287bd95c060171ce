import { useMemo } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call, type Schemas } from '../../api/client';
import { LAYOUTS, layoutOf, pagesOf, type LabelLayout } from './layouts';
import { qrMatrix } from './qr';
import { zplLabels } from './zpl';
import { useAnswer } from '../../ui/answer';
import { Notice, ScreenHeader } from '../../ui/parts';
import { useTitle } from '../../ui/title';
import { strings } from './strings';

type LabelCode = Schemas['LabelCode'];

/** The ids an address names: `explant_ids=a,b` or `plant_ids=a,b`. */
function selectionOf(query: Record<string, string>) {
  if (query.plant_ids) return { kind: 'plant' as const, ids: query.plant_ids };
  if (query.explant_ids) return { kind: 'explant' as const, ids: query.explant_ids };
  return null;
}

/** A label's lines under its name: the stage and the date. */
const linesOf = (label: LabelCode) =>
  [label.name, label.stage ?? '', label.date ?? ''].filter((line) => line !== '');

export default function LabelPrint() {
  useTitle(strings.print.title);
  const { query, path, route } = useLocation();
  const selection = selectionOf(query);
  const layout = layoutOf(query.layout);

  const answer = useAnswer<LabelCode[]>(
    () =>
      selection === null
        ? Promise.resolve({ ok: true, data: [], nextCursor: null })
        : call(
            api.GET('/api/v1/labels/codes', {
              params: {
                query:
                  selection.kind === 'plant'
                    ? { plant_ids: selection.ids }
                    : { explant_ids: selection.ids },
              },
            }),
          ),
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
                lines: [...linesOf(label), label.code],
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
            <a class="button button-quiet" href={`/${selection.kind}s`}>
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

function Sheet(props: { layout: LabelLayout; labels: readonly LabelCode[]; number: number }) {
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
        <Label key={label.record_id} layout={layout} label={label} />
      ))}
    </section>
  );
}

function Label(props: { layout: LabelLayout; label: LabelCode }) {
  const { layout, label } = props;
  const side = layout.label.height - 2 * layout.padding;
  return (
    <article
      class="label"
      data-code={label.code ?? ''}
      data-record-id={label.record_id}
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
        {linesOf(label).map((line, index) => (
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
