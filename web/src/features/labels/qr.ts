import qrcode from 'qrcode-generator';

export interface QrMatrix {
  readonly size: number;
  /** One SVG path drawing every dark module, in module units. */
  readonly path: string;
}

/** The text as UTF-8 bytes, one character per byte: how the library takes binary data. */
const asBytes = (text: string) => String.fromCharCode(...new TextEncoder().encode(text));

/**
 * A QR code of `text` (error correction M: survives a smudged or creased label),
 * as the smallest version that holds it.
 */
export function qrMatrix(text: string): QrMatrix {
  const qr = qrcode(0, 'M');
  qr.addData(asBytes(text), 'Byte');
  qr.make();
  const size = qr.getModuleCount();
  let path = '';
  for (let row = 0; row < size; row += 1) {
    for (let col = 0; col < size; col += 1) {
      if (qr.isDark(row, col)) path += `M${col} ${row}h1v1h-1z`;
    }
  }
  return { size, path };
}
