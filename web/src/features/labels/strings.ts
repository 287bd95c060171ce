/** The words of the label screens (scan and print), in one place for translation. */
export const strings = {
  scan: {
    title: 'Scan',
    lead: 'Point the camera at a label, or type its code (a USB scanner types it for you): its record opens.',
    code: 'Label code',
    codeHint: 'e.g. VT-E-0001',
    open: 'Open',
    camera: 'Scan with the camera',
    stop: 'Stop the camera',
    photo: 'Read a photo of a label',
    looking: 'Looking for a QR code…',
    noCamera: 'The camera could not be started here: type the code, or read a photo of the label.',
    noQr: 'No QR code found in this photo. Try again closer, with the label flat and lit.',
    resolving: (code: string) => `Looking up ${code}…`,
    container: (name: string, n: number) => `${name} holds ${n} item${n === 1 ? '' : 's'}:`,
    video: 'Camera view',
  },
  print: {
    title: 'Print labels',
    lead: 'A QR code with the name, stage and date of each plant or explant, or the recipe and dates of a media batch. Scanning the code opens it.',
    layout: 'Label stock',
    print: 'Print',
    zpl: 'Download ZPL',
    zplHint: 'For a thermal printer (203 dpi, 50 × 25 mm): send the file to the printer.',
    printHint:
      'In the print dialog choose the paper of the stock, margins "None" or "Default" and scale 100 %.',
    loading: 'Preparing labels…',
    nothing:
      'No records chosen. Tick plants or explants in their lists, then "Print labels", or open a media batch and "Print label".',
    count: (labels: number, pages: number, roll: boolean) =>
      `${labels} label${labels === 1 ? '' : 's'}` +
      (roll ? '' : ` on ${pages} sheet${pages === 1 ? '' : 's'}`),
    noCode: 'No code',
    noCodes: (n: number) =>
      `${n} record${n === 1 ? ' has' : 's have'} no code that opens ${n === 1 ? 'it' : 'them'} (another record holds it): ${n === 1 ? 'it is' : 'they are'} marked "No code".`,
    page: (n: number) => `Sheet ${n}`,
    sheets: 'Labels as printed',
    qr: (code: string) => `QR code: ${code}`,
    back: { plant: 'Back to plants', explant: 'Back to explants', media_batch: 'Back to media' },
  },
  layouts: {
    sheet: (paper: string, columns: number, rows: number, label: string) =>
      `${paper} sheet, ${columns} × ${rows} labels of ${label}`,
    roll: 'Thermal roll, 50 × 25 mm, one label a page',
  },
} as const;
