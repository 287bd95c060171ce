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
    failed: (status: number) => `The server answered ${status}.`,
  },
} as const;
