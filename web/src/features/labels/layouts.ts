import { strings } from './strings';

/**
 * The label stocks the console prints on, in millimetres: the browser's print
 * dialog gets these sizes from the print CSS (`@page` per layout in styles.css),
 * so a sheet comes out at its real size with "Margins: default" and "Scale: 100".
 */
export interface LabelLayout {
  readonly key: 'a4' | 'letter' | 'roll';
  readonly name: string;
  readonly page: { readonly width: number; readonly height: number };
  readonly label: { readonly width: number; readonly height: number };
  readonly columns: number;
  readonly rows: number;
  /** From the page's top left corner to the first label. */
  readonly margin: { readonly top: number; readonly left: number };
  /** Between two labels side by side, and one under the other. */
  readonly gap: { readonly x: number; readonly y: number };
  /** White space inside a label, around the QR code and the text. */
  readonly padding: number;
}

type Size = { readonly width: number; readonly height: number };

/** Millimetres to a ten-thousandth, so a centred margin reads as the stock's data sheet gives it. */
const mm = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * A sheet of `columns × rows` labels with `gap` between them, the grid centred on
 * the page (as label stocks are cut): the margins follow from the sizes.
 */
function sheet(spec: {
  key: LabelLayout['key'];
  paper: string;
  page: Size;
  grid: { columns: number; rows: number; gap?: { x: number; y: number } };
  label: Size & { words: string };
  padding: number;
}): LabelLayout {
  const { page, label } = spec;
  const { columns, rows, gap = { x: 0, y: 0 } } = spec.grid;
  const across = columns * label.width + (columns - 1) * gap.x;
  const down = rows * label.height + (rows - 1) * gap.y;
  return {
    key: spec.key,
    name: strings.layouts.sheet(spec.paper, columns, rows, label.words),
    page,
    label: { width: label.width, height: label.height },
    columns,
    rows,
    margin: { top: mm((page.height - down) / 2), left: mm((page.width - across) / 2) },
    gap,
    padding: spec.padding,
  };
}

export const LAYOUTS: readonly LabelLayout[] = [
  // 24 labels of 70 × 37 mm, no gaps (Avery 3475 and its likes).
  sheet({
    key: 'a4',
    paper: 'A4',
    page: { width: 210, height: 297 },
    grid: { columns: 3, rows: 8 },
    label: { width: 70, height: 37, words: '70 × 37 mm' },
    padding: 3,
  }),
  // 30 labels of 2⅝ × 1 in with ⅛ in between columns (Avery 5160 and its likes).
  sheet({
    key: 'letter',
    paper: 'US Letter',
    page: { width: 215.9, height: 279.4 },
    grid: { columns: 3, rows: 10, gap: { x: 3.175, y: 0 } },
    label: { width: 66.675, height: 25.4, words: '2⅝ × 1 in' },
    padding: 2,
  }),
  {
    key: 'roll',
    name: strings.layouts.roll,
    page: { width: 50, height: 25 },
    label: { width: 50, height: 25 },
    columns: 1,
    rows: 1,
    margin: { top: 0, left: 0 },
    gap: { x: 0, y: 0 },
    padding: 1.5,
  },
];

export const layoutOf = (key: string | undefined): LabelLayout =>
  LAYOUTS.find((layout) => layout.key === key) ?? LAYOUTS[0]!;

/** The labels of each page, in order. */
export function pagesOf<T>(items: readonly T[], layout: LabelLayout): T[][] {
  const perPage = layout.columns * layout.rows;
  const pages: T[][] = [];
  for (let start = 0; start < items.length; start += perPage) {
    pages.push(items.slice(start, start + perPage));
  }
  return pages;
}
