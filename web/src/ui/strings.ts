/** The words of the console's shared pieces, in one place for translation. */
export const strings = {
  never: 'never',
  justNow: 'just now',
  ago: (value: number, unit: string) => `${value} ${unit} ago`,
  in: (value: number, unit: string) => `in ${value} ${unit}`,
  units: { min: 'min', h: 'h', day: 'day', days: 'days' },
  copy: 'Copy',
  copied: 'Copied',
  done: 'Done',
  more: 'More',
  download: {
    download: 'Download CSV',
    busy: 'Preparing CSV…',
    choose: 'Which file?',
    spreadsheet: {
      name: 'For a spreadsheet',
      hint: 'Names instead of codes, times in the lab’s time zone, a column per custom field. Opens well in Excel or LibreOffice.',
    },
    raw: {
      name: 'Raw data',
      hint: 'Every field as the API gives it: ids, times in UTC. For scripts and other programs.',
    },
    failed: (status: number) => `The server answered ${status}.`,
  },
} as const;
