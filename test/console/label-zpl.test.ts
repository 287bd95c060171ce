import { describe, expect, it } from 'vitest';
import { qrMatrix } from '../../web/src/features/labels/qr.js';
import { zplLabels } from '../../web/src/features/labels/zpl.js';

/** The ZPL the Print labels screen downloads for a 50 × 25 mm roll at 203 dpi. */
describe('ZPL labels', () => {
  it('writes one label a code: page size, a QR code that fits, and the lines', () => {
    const zpl = zplLabels([
      {
        code: 'VT-E-0001',
        lines: ['Jar 1', 'Multiplication', '2026-11-27', 'VT-E-0001'],
        modules: qrMatrix('VT-E-0001').size,
      },
      {
        code: '01a21ae7-30c7-77d8-a62f-8f2f8075f2f6',
        lines: ['Zebra'],
        modules: qrMatrix('01a21ae7-30c7-77d8-a62f-8f2f8075f2f6').size,
      },
    ]);
    const labels = zpl.split('^XZ').filter((part) => part.trim() !== '');
    expect(labels).toHaveLength(2);
    for (const label of labels) {
      expect(label).toContain('^XA');
      expect(label).toContain('^CI28');
      expect(label).toContain('^PW400'); // 50 mm at 8 dots a millimetre
      expect(label).toContain('^LL200'); // 25 mm
    }
    expect(labels[0]).toContain('^FDMA,VT-E-0001^FS');
    expect(labels[0]).toContain('^FDMultiplication^FS');
    // The QR code stays within the label's height, margins included.
    for (const [index, code] of ['VT-E-0001', '01a21ae7-30c7-77d8-a62f-8f2f8075f2f6'].entries()) {
      const magnification = Number(/\^BQN,2,(\d+)/.exec(labels[index]!)![1]);
      expect(magnification).toBeGreaterThanOrEqual(1);
      expect(qrMatrix(code).size * magnification).toBeLessThanOrEqual(200 - 2 * 16);
    }
  });

  it('escapes what would end a field or start a command, and writes UTF-8 as hex', () => {
    const zpl = zplLabels([{ code: 'A^B~C_D', lines: ['Café ^XZ'], modules: 21 }]);
    expect(zpl).toContain('^FH^FDMA,A_5EB_7EC_5FD^FS');
    expect(zpl).toContain('^FDCaf_C3_A9 _5EXZ^FS');
    expect(zpl.match(/\^XZ/g)).toHaveLength(1);
  });
});
