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

export const LAYOUTS: readonly LabelLayout[] = [
  {
    // 24 labels of 70 × 37 mm, no gaps (Avery 3475 and its likes).
    key: 'a4',
    name: 'A4 sheet, 3 × 8 labels of 70 × 37 mm',
    page: { width: 210, height: 297 },
    label: { width: 70, height: 37 },
    columns: 3,
    rows: 8,
    margin: { top: 0.5, left: 0 },
    gap: { x: 0, y: 0 },
    padding: 3,
  },
  {
    // 30 labels of 2⅝ × 1 in (Avery 5160 and its likes).
    key: 'letter',
    name: 'US Letter sheet, 3 × 10 labels of 2⅝ × 1 in',
    page: { width: 215.9, height: 279.4 },
    label: { width: 66.675, height: 25.4 },
    columns: 3,
    rows: 10,
    margin: { top: 12.7, left: 4.7625 },
    gap: { x: 3.175, y: 0 },
    padding: 2,
  },
  {
    key: 'roll',
    name: 'Thermal roll, 50 × 25 mm, one label a page',
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
