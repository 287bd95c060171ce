/** What a thermal label carries: the code, the lines a person reads, and its QR code's size. */
export interface PrintedLabel {
  readonly code: string;
  readonly lines: readonly string[];
  /** Modules across the QR code the sheet prints for the code (`qrMatrix(code).size`). */
  readonly modules: number;
}

/** Dots per millimetre of a 203 dpi printer, the common thermal resolution. */
const DOTS_PER_MM = 8;
const WIDTH = 50 * DOTS_PER_MM;
const HEIGHT = 25 * DOTS_PER_MM;
const MARGIN = 2 * DOTS_PER_MM;

/**
 * A field's text for `^FH`: `^`, `~`, `_` and anything outside printable ASCII as
 * `_XX` (its UTF-8 bytes in hex), so a name can never end the field or start a
 * command; `^CI28` makes the printer read those bytes as UTF-8.
 */
function field(text: string): string {
  let out = '';
  for (const char of text) {
    if (/^[\x20-\x7e]$/.test(char) && !'^~_'.includes(char)) {
      out += char;
      continue;
    }
    for (const byte of new TextEncoder().encode(char)) {
      out += `_${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    }
  }
  return out;
}

/**
 * ZPL II for a 50 × 25 mm roll on a 203 dpi printer: per label, a QR code of the
 * code at the left, as large as the label's height allows, and up to four lines
 * of text at the right.
 */
export function zplLabels(labels: readonly PrintedLabel[]): string {
  const qrSide = HEIGHT - 2 * MARGIN;
  return labels
    .map((label) => {
      // The QR version the sheet prints tells how large a module may be.
      const modules = label.modules;
      const magnification = Math.max(1, Math.min(10, Math.floor(qrSide / modules)));
      const textLeft = MARGIN + modules * magnification + MARGIN;
      const textWidth = WIDTH - textLeft - MARGIN;
      const lines = label.lines.slice(0, 4).map((line, index) => {
        const size = index === 0 ? 28 : 22;
        const top = MARGIN + (index === 0 ? 0 : 34 + (index - 1) * 30);
        return `^FO${textLeft},${top}^A0N,${size},${size}^FB${textWidth},1,0,L^FH^FD${field(line)}^FS`;
      });
      return [
        '^XA',
        '^CI28',
        `^PW${WIDTH}`,
        `^LL${HEIGHT}`,
        '^LH0,0',
        // ^BQ: model 2; the data field starts with the error correction level (M) and
        // the input mode (A, automatic).
        `^FO${MARGIN},${MARGIN}^BQN,2,${magnification}^FH^FDMA,${field(label.code)}^FS`,
        ...lines,
        '^XZ',
      ].join('\n');
    })
    .join('\n');
}
