/** The words of the import screens, in one place for translation. */
export const strings = {
  button: 'Import',
  plants: {
    title: 'Import plants',
    back: 'All plants',
    list: 'See them in the plants list',
  },
  explants: {
    title: 'Import explants',
    back: 'All explants',
    list: 'See them in the explants list',
  },
  lead: 'From your lab’s spreadsheet (CSV or Excel XLSX). Every row is checked first; nothing is written until you press Import. A row naming a record that exists updates it: the same file imported twice creates nothing new.',
  columnsTitle: 'Columns',
  columnsLead:
    'Row 1 names the columns; letter case and spaces do not matter. Only the first column below is required; leave out the others you do not keep.',
  columns: {
    plants: [
      ['Species', 'required, e.g. Monstera deliciosa'],
      ['Common name', 'the name people use'],
      ['Cultivar', ''],
      ['External ID', 'your code for the plant: how a second import finds it again'],
      ['Status', 'active, dormant, in culture, …'],
      ['Stage', 'a stage of your lab’s plant list'],
      ['Room', 'a room’s name'],
      ['Notes', ''],
    ],
    explants: [
      ['Label', 'required: the code on the vessel'],
      ['Plant', 'the mother plant’s External ID or name'],
      ['Vessels', 'how many jars or tubes'],
      ['Plantlets', ''],
      ['Stage', 'a stage of your lab’s explant list'],
      ['Room', 'a room’s name'],
      ['Batch', ''],
      ['External ID', ''],
    ],
    rooms: [['Name', 'required']],
    custom: 'Each custom field of your lab also has a column, by its name.',
  },
  sample: 'Download a sample file',
  sampleHint: 'A CSV with the columns and two rows naming this lab’s rooms and stages.',
  file: 'Spreadsheet file',
  fileHint: 'CSV or XLSX, up to 16 MB and 10,000 rows.',
  sending: (percent: number) => `Sending the file… ${percent}%`,
  checking: 'Checking every row…',
  importing: 'Importing…',
  progress: 'Progress',
  checked: (name: string) => `What importing “${name}” would do`,
  counts: (c: {
    rows: number;
    created: number;
    updated: number;
    unchanged: number;
    failed: number;
  }) =>
    `${c.rows} ${c.rows === 1 ? 'row' : 'rows'}: ${c.created} new, ${c.updated} to update, ${c.unchanged} unchanged` +
    (c.failed > 0 ? `, ${c.failed} wrong.` : '.'),
  countsDone: (c: { created: number; updated: number; unchanged: number }) =>
    `Imported: ${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged.`,
  wrong: (n: number) =>
    `${n} ${n === 1 ? 'row is' : 'rows are'} wrong, so nothing can be imported yet (all rows or none). Fix ${n === 1 ? 'it' : 'them'} in your spreadsheet, save, and pick the file again.`,
  fileWrong: 'This file cannot be imported',
  errorsTitle: (n: number) => `Rows to fix (${n})`,
  firstTitle: (shown: number, all: number) =>
    shown === all ? `The rows (${all})` : `The first ${shown} of ${all} rows`,
  head: {
    row: 'Row',
    column: 'Column',
    error: 'What is wrong',
    outcome: 'Outcome',
    record: 'Record',
  },
  outcome: {
    created: 'new',
    updated: 'update',
    unchanged: 'unchanged',
    failed: 'wrong',
  },
  outcomeDone: {
    created: 'created',
    updated: 'updated',
    unchanged: 'unchanged',
    failed: 'wrong',
  },
  open: 'Open',
  ofRow: (n: number) => `the record of row ${n}`,
  none: '–',
  importAll: (n: number) => `Import ${n} ${n === 1 ? 'row' : 'rows'}`,
  notImported: (why: string) =>
    `Not imported: ${why} Nothing was written; Import again when it is back.`,
  importHint: 'All rows or none: if anything goes wrong, nothing is written.',
  another: 'Import another file',
  done: 'Done',
  notAllowed: 'Your role does not let you add these records. Ask a manager of your lab.',
} as const;
